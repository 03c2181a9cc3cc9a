// gpt_file.cpp: the weights file's writer and reader (gpt_file.hpp).
#include "gpt_file.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

namespace attention {

std::vector<std::uint8_t> gpt_quantize(const GptConfig& c, const std::vector<float>& params) {
  std::vector<std::uint8_t> out;
  const auto put = [&](const void* p, std::size_t n) {
    const auto* bytes = static_cast<const std::uint8_t*>(p);
    out.insert(out.end(), bytes, bytes + n);
  };
  for (const GptTensor& t : gpt_layout(c)) {
    for (Index r = 0; r < t.rows; ++r) {
      const float* row = params.data() + t.offset + std::int64_t(r) * t.cols;
      if (t.rows == 1) {
        put(row, 4 * size_t(t.cols));
        continue;
      }
      double top = 0;
      for (Index j = 0; j < t.cols; ++j) top = std::max(top, std::fabs(double(row[j])));
      const float scale = float(top > 0 ? top / 127 : 1);
      put(&scale, 4);
      for (Index j = 0; j < t.cols; ++j) {
        const auto q = std::int8_t(std::lround(double(row[j]) / scale));
        put(&q, 1);
      }
    }
  }
  return out;
}

Result<std::vector<float>> gpt_dequantize(const GptConfig& c, const std::vector<std::uint8_t>& in) {
  if (auto e = check_gpt_config(c); !e.empty()) return {{}, e};
  std::vector<float> params(size_t(gpt_size(c)));
  size_t at = 0;
  const auto take = [&](void* out, size_t n) {
    if (at + n > in.size()) return false;
    std::memcpy(out, in.data() + at, n);
    at += n;
    return true;
  };
  const std::string too_short = "the weights file is too short: it has " +
                                std::to_string(in.size()) + " bytes, fewer than the model needs";
  for (const GptTensor& t : gpt_layout(c)) {
    for (Index r = 0; r < t.rows; ++r) {
      float* row = params.data() + t.offset + std::int64_t(r) * t.cols;
      float scale = 1;
      if (t.rows > 1 && !take(&scale, 4)) return {{}, too_short};
      for (Index j = 0; j < t.cols; ++j) {
        if (t.rows == 1) {
          if (!take(row + j, 4)) return {{}, too_short};
        } else {
          std::int8_t q = 0;
          if (!take(&q, 1)) return {{}, too_short};
          row[j] = float(q) * scale;
        }
        if (!std::isfinite(row[j])) {
          return {{},
                  "the weights file's " + t.name + "[" + std::to_string(r + 1) + "][" +
                      std::to_string(j + 1) + "] is not finite"};
        }
      }
    }
  }
  if (at != in.size()) {
    return {{},
            "the weights file is longer than the model: " + std::to_string(in.size()) +
                " bytes, and the model's tensors take " + std::to_string(at)};
  }
  return {std::move(params), {}};
}

}  // namespace attention
