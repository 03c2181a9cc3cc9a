// gpt_file_test.cpp: the weights file (gpt_file.hpp), written and read back. Its bytes against
// the format written out here by hand (a float32 scale per matrix row, then the row's int8
// values; a vector as float32); each value back within half a step of its row's scale, vectors
// exactly; every way a file can be wrong, refused with a message that says which.
#include "gpt_file.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

namespace {

using attention::GptConfig;
using attention::Index;

const GptConfig tiny{7, 5, 8, 1, 2};

std::vector<float> random_params(const GptConfig& c) {
  std::mt19937 gen(5);
  std::normal_distribution<float> noise(0, 0.4f);
  std::vector<float> p(size_t(attention::gpt_size(c)));
  for (float& x : p) x = noise(gen);
  return p;
}

float float_at(const std::vector<std::uint8_t>& bytes, size_t at) {
  float f = 0;
  std::memcpy(&f, bytes.data() + at, 4);
  return f;
}

TEST(GptFile, BytesAreTheFormatAndReadBackWithinHalfAStep) {
  const std::vector<float> p = random_params(tiny);
  const std::vector<std::uint8_t> bytes = attention::gpt_quantize(tiny, p);
  const auto layout = attention::gpt_layout(tiny);
  size_t expected = 0;
  for (const auto& t : layout) {
    expected += t.rows == 1 ? 4 * size_t(t.cols) : size_t(t.rows) * (4 + size_t(t.cols));
  }
  ASSERT_EQ(bytes.size(), expected);
  // wte's first row, by hand: the scale is its largest |value| / 127, then round(value / scale)
  float top = 0;
  for (Index j = 0; j < tiny.d_model; ++j) top = std::max(top, std::fabs(p[size_t(j)]));
  EXPECT_EQ(float_at(bytes, 0), float(double(top) / 127));
  for (Index j = 0; j < tiny.d_model; ++j) {
    const auto q = static_cast<std::int8_t>(bytes[4 + size_t(j)]);
    EXPECT_EQ(q, std::lround(double(p[size_t(j)]) / double(float_at(bytes, 0)))) << j;
  }
  const auto read = attention::gpt_dequantize(tiny, bytes);
  ASSERT_TRUE(read.ok()) << read.error;
  for (const auto& t : layout) {
    for (Index r = 0; r < t.rows; ++r) {
      double row_top = 0;
      for (Index j = 0; j < t.cols; ++j)
        row_top = std::max(row_top, std::fabs(double(p[size_t(t.offset + r * t.cols + j)])));
      for (Index j = 0; j < t.cols; ++j) {
        const size_t i = size_t(t.offset + r * t.cols + j);
        if (t.rows == 1) {
          EXPECT_EQ(read.value[i], p[i]) << t.name;  // vectors are float32 as they were
        } else {
          EXPECT_LE(std::fabs(double(read.value[i]) - double(p[i])), row_top / 127 / 2 * 1.0001)
              << t.name << " " << r << " " << j;
        }
      }
    }
  }
  // written again from what was read, the file is the same bytes
  EXPECT_EQ(attention::gpt_quantize(tiny, read.value), bytes);
}

TEST(GptFile, AWrongFileIsRefusedAndSaysWhy) {
  const std::vector<std::uint8_t> bytes = attention::gpt_quantize(tiny, random_params(tiny));
  const auto error_of = [](const GptConfig& c, const std::vector<std::uint8_t>& b) {
    return attention::gpt_dequantize(c, b).error;
  };
  EXPECT_EQ(error_of(tiny, bytes), "");
  auto shorter = bytes;
  shorter.pop_back();
  EXPECT_EQ(error_of(tiny, shorter), "the weights file is too short: it has " +
                                         std::to_string(shorter.size()) +
                                         " bytes, fewer than the model needs");
  auto longer = bytes;
  longer.push_back(0);
  EXPECT_EQ(error_of(tiny, longer),
            "the weights file is longer than the model: " + std::to_string(longer.size()) +
                " bytes, and the model's tensors take " + std::to_string(bytes.size()));
  EXPECT_NE(error_of(GptConfig{8, 5, 8, 1, 2}, bytes), "");  // another vocabulary
  auto nan_scale = bytes;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::memcpy(nan_scale.data() + 4 + size_t(tiny.d_model), &nan, 4);  // wte's second row
  EXPECT_EQ(error_of(tiny, nan_scale), "the weights file's wte[2][1] is not finite");
  auto inf_vector = bytes;
  const size_t ln1_g = size_t(tiny.vocab) * (4 + size_t(tiny.d_model));  // after wte
  const float inf = std::numeric_limits<float>::infinity();
  std::memcpy(inf_vector.data() + ln1_g + 8, &inf, 4);
  EXPECT_EQ(error_of(tiny, inf_vector), "the weights file's l0.ln1_g[1][3] is not finite");
  EXPECT_EQ(error_of(GptConfig{7, 5, 6, 1, 2}, bytes),
            attention::check_gpt_config(GptConfig{7, 5, 6, 1, 2}));
}

}  // namespace
