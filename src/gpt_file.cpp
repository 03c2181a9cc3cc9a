// gpt_file.cpp: the model's files (gpt_file.hpp): the weights file's writer and reader, and the
// checks of what a description says about the model.
#include "gpt_file.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <unordered_map>

#include "support.hpp"

namespace attention {

namespace {

// 209828 → "209,828": the sizes and counts of the messages, as the docs write them.
std::string grouped(std::int64_t n) {
  std::string digits = std::to_string(n < 0 ? -n : n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return n < 0 ? "-" + out : out;
}

// A cell of tensor t at flat index i of its own values: "wte[2][1]", counted from 1.
std::string cell_of(const GptTensor& t, std::int64_t i) {
  return t.name + cell(Index(i / t.cols), Index(i % t.cols));
}

// What decides the file's size, named as the messages name the configuration.
std::string sized_by(const GptConfig& c, const GptConfigNames& names) {
  return std::string(names.vocab) + " " + std::to_string(c.vocab) + ", " + names.d_model + " " +
         std::to_string(c.d_model) + ", " + names.layers + " " + std::to_string(c.layers) +
         (c.mlp ? ", with MLPs" : ", attention only");
}

// The code point that starts at s[at], and how many bytes it takes; 0 bytes when s[at] starts
// no UTF-8 character (a stray continuation byte, a sequence cut short, an overlong form, a
// surrogate or a code point past U+10FFFF).
std::pair<char32_t, size_t> code_point(const std::string& s, size_t at) {
  const auto byte = [&](size_t i) { return static_cast<unsigned char>(s[i]); };
  const unsigned char b = byte(at);
  if (b < 0x80) return {b, 1};
  const size_t n = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 0;
  if (n == 0 || b >= 0xF8 || at + n > s.size()) return {0, 0};
  char32_t c = b & (0x7F >> n);
  for (size_t i = 1; i < n; ++i) {
    if ((byte(at + i) & 0xC0) != 0x80) return {0, 0};
    c = (c << 6) | (byte(at + i) & 0x3F);
  }
  const char32_t least[] = {0, 0, 0x80, 0x800, 0x10000};
  if (c < least[n] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return {0, 0};
  return {c, n};
}

// U+5C71
std::string unicode(char32_t c) {
  const char* hex = "0123456789ABCDEF";
  std::string digits;
  for (; c > 0 || digits.size() < 4; c >>= 4) digits.insert(digits.begin(), hex[c & 0xF]);
  return "U+" + digits;
}

}  // namespace

std::int64_t gpt_file_size(const GptConfig& c) {
  std::int64_t bytes = 0;
  for (const GptTensor& t : gpt_layout(c)) {
    bytes += t.rows == 1 ? 4 * std::int64_t(t.cols) : std::int64_t(t.rows) * (4 + t.cols);
  }
  return bytes;
}

Result<std::vector<std::uint8_t>> gpt_quantize(const GptConfig& c,
                                               const std::vector<float>& params) {
  if (auto e = check_gpt_config(c); !e.empty()) return {{}, e};
  if (std::int64_t(params.size()) != gpt_size(c)) {
    return {{},
            "params has " + count(std::int64_t(params.size()), "number") + " but the model has " +
                std::to_string(gpt_size(c))};
  }
  const std::vector<GptTensor> layout = gpt_layout(c);
  for (const GptTensor& t : layout) {
    for (std::int64_t i = 0; i < std::int64_t(t.rows) * t.cols; ++i) {
      const float x = params[size_t(t.offset + i)];
      if (!std::isfinite(x)) {
        return {{},
                "params[" + std::to_string(t.offset + i) + "] (" + cell_of(t, i) + ") is " +
                    number(x) + "; every parameter must be finite"};
      }
    }
  }
  std::vector<std::uint8_t> out;
  out.reserve(size_t(gpt_file_size(c)));
  const auto put = [&](const void* p, std::size_t n) {
    const auto* bytes = static_cast<const std::uint8_t*>(p);
    out.insert(out.end(), bytes, bytes + n);
  };
  for (const GptTensor& t : layout) {
    for (Index r = 0; r < t.rows; ++r) {
      const float* row = params.data() + t.offset + std::int64_t(r) * t.cols;
      if (t.rows == 1) {
        put(row, 4 * size_t(t.cols));
        continue;
      }
      double top = 0;
      for (Index j = 0; j < t.cols; ++j) top = std::max(top, std::fabs(double(row[j])));
      // a row of denormals whose largest / 127 rounds to 0 gets the smallest scale above 0
      const float scale =
          top > 0 ? std::max(float(top / 127), std::numeric_limits<float>::denorm_min()) : 1.0f;
      put(&scale, 4);
      for (Index j = 0; j < t.cols; ++j) {
        const auto q = std::int8_t(std::lround(double(row[j]) / scale));
        put(&q, 1);
      }
    }
  }
  return {std::move(out), {}};
}

Result<std::vector<float>> gpt_dequantize(const GptConfig& c, const std::vector<std::uint8_t>& in,
                                          const GptConfigNames& names) {
  if (auto e = check_gpt_config(c, names); !e.empty()) return {{}, e};
  const std::int64_t need = gpt_file_size(c), have = std::int64_t(in.size());
  if (have != need) {
    const std::int64_t off = have > need ? have - need : need - have;
    return {{},
            "the weights file has " + grouped(have) + " bytes but this model (" +
                sized_by(c, names) + ") needs " + grouped(need) + ": it is " + grouped(off) +
                (off == 1 ? " byte" : " bytes") +
                (have < need ? " too short (cut off, or another model's weights)"
                             : " too long (another model's weights, or more after them)")};
  }
  // the size is the layout's: every read below is inside the file
  std::vector<float> params(size_t(gpt_size(c)));
  size_t at = 0;
  const auto take = [&](void* out, size_t n) {
    std::memcpy(out, in.data() + at, n);
    at += n;
  };
  for (const GptTensor& t : gpt_layout(c)) {
    for (Index r = 0; r < t.rows; ++r) {
      float* row = params.data() + t.offset + std::int64_t(r) * t.cols;
      if (t.rows == 1) {  // a vector, as float32
        take(row, 4 * size_t(t.cols));
        for (Index j = 0; j < t.cols; ++j) {
          if (!std::isfinite(row[j])) {
            return {{},
                    "the weights file's " + t.name + cell(r, j) + " is " + number(row[j]) +
                        "; every weight must be finite"};
          }
        }
        continue;
      }
      float scale = 0;
      take(&scale, 4);
      if (!(std::isfinite(scale) && scale >= 0)) {
        return {{},
                "the weights file's " + t.name + " row " + std::to_string(r + 1) +
                    " has the scale " + number(scale) +
                    "; a row's scale must be a finite number ≥ 0"};
      }
      for (Index j = 0; j < t.cols; ++j) {
        std::int8_t q = 0;
        take(&q, 1);
        row[j] = float(q) * scale;
        if (!std::isfinite(row[j])) {  // a finite scale near the largest float, times q
          return {{},
                  "the weights file's " + t.name + cell(r, j) + " is " + number(row[j]) + " (" +
                      std::to_string(q) + " × the row's scale " + number(scale) +
                      "); every weight must be finite"};
        }
      }
    }
  }
  return {std::move(params), {}};
}

std::string check_gpt_chars(const GptConfig& c, const std::string& chars) {
  if (c.vocab < 2) {
    return "config.vocab is " + std::to_string(c.vocab) +
           "; a model's description needs at least 2 (the end token ⏎ and the unknown token)";
  }
  std::unordered_map<char32_t, std::int64_t> seen;  // code point → its character number, from 1
  std::int64_t n = 0;
  for (size_t at = 0; at < chars.size();) {
    const auto [point, bytes] = code_point(chars, at);
    if (bytes == 0) {
      return "chars is not UTF-8 text: its byte " + grouped(std::int64_t(at) + 1) +
             " (in character " + grouped(n + 1) + ") starts no character";
    }
    ++n;
    const auto [it, fresh] = seen.emplace(point, n);
    if (!fresh) {
      return "chars holds " + chars.substr(at, bytes) + " (" + unicode(point) +
             ") twice: characters " + grouped(it->second) + " and " + grouped(n) + " (tokens " +
             grouped(it->second + 1) + " and " + grouped(n + 1) + ")";
    }
    at += bytes;
  }
  if (n != c.vocab - 2) {
    return "chars has " + grouped(n) + (n == 1 ? " character" : " characters") +
           " but config.vocab = " + std::to_string(c.vocab) + " needs " + grouped(c.vocab - 2);
  }
  return {};
}

Result<std::vector<float>> gpt_read_model(const GptConfig& c, const std::string& chars,
                                          const std::vector<std::uint8_t>& bytes) {
  if (auto e = check_gpt_config(c, kGptFileNames); !e.empty()) return {{}, e};
  if (auto e = check_gpt_chars(c, chars); !e.empty()) return {{}, e};
  return gpt_dequantize(c, bytes, kGptFileNames);
}

}  // namespace attention
