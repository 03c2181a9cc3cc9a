// gpt_file_test.cpp: the model's files (gpt_file.hpp), written and read back. The weights' bytes
// against the format written out here by hand (a float32 scale per matrix row, then the row's
// int8 values; a vector as float32); each value back within half a step of its row's scale,
// vectors exactly; every way a weights file, a description's configuration or its characters
// can be wrong, refused with a message that names the field and says what is wrong.
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
  const std::vector<std::uint8_t> bytes = attention::gpt_quantize(tiny, p).value;
  const auto layout = attention::gpt_layout(tiny);
  size_t expected = 0;
  for (const auto& t : layout) {
    expected += t.rows == 1 ? 4 * size_t(t.cols) : size_t(t.rows) * (4 + size_t(t.cols));
  }
  ASSERT_EQ(bytes.size(), expected);
  EXPECT_EQ(attention::gpt_file_size(tiny), std::int64_t(expected));
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
  EXPECT_EQ(attention::gpt_quantize(tiny, read.value).value, bytes);
}

void put_float(std::vector<std::uint8_t>& bytes, size_t at, float x) {
  std::memcpy(bytes.data() + at, &x, 4);
}

TEST(GptFile, AWrongFileIsRefusedAndSaysWhy) {
  const std::vector<std::uint8_t> bytes = attention::gpt_quantize(tiny, random_params(tiny)).value;
  const auto error_of = [](const GptConfig& c, const std::vector<std::uint8_t>& b) {
    return attention::gpt_dequantize(c, b).error;
  };
  EXPECT_EQ(error_of(tiny, bytes), "");
  ASSERT_EQ(bytes.size(), 1492u);
  auto shorter = bytes;
  shorter.pop_back();
  EXPECT_EQ(error_of(tiny, shorter),
            "the weights file has 1,491 bytes but this model (vocab 7, d_model 8, layers 1, with "
            "MLPs) needs 1,492: it is 1 byte too short (cut off, or another model's weights)");
  auto longer = bytes;
  longer.insert(longer.end(), {0, 0, 0});
  EXPECT_EQ(error_of(tiny, longer),
            "the weights file has 1,495 bytes but this model (vocab 7, d_model 8, layers 1, with "
            "MLPs) needs 1,492: it is 3 bytes too long (another model's weights, or more after "
            "them)");
  // another vocabulary's model: one wte row of 4 + 8 bytes more
  EXPECT_EQ(error_of(GptConfig{8, 5, 8, 1, 2}, bytes),
            "the weights file has 1,492 bytes but this model (vocab 8, d_model 8, layers 1, with "
            "MLPs) needs 1,504: it is 12 bytes too short (cut off, or another model's weights)");
  const size_t row2 = 4 + size_t(tiny.d_model);  // wte's second row's scale
  for (auto [scale, shown] :
       {std::pair{std::numeric_limits<float>::quiet_NaN(), "NaN"},
        std::pair{std::numeric_limits<float>::infinity(), "Infinity"}, std::pair{-0.5f, "-0.5"}}) {
    auto bad = bytes;
    put_float(bad, row2, scale);
    EXPECT_EQ(error_of(tiny, bad), std::string("the weights file's wte row 2 has the scale ") +
                                       shown + "; a row's scale must be a finite number ≥ 0");
  }
  auto zero_scale = bytes;  // a row of zeros: harmless, and read as zeros
  put_float(zero_scale, row2, 0);
  EXPECT_EQ(error_of(tiny, zero_scale), "");
  auto overflow = bytes;  // a finite scale whose product with an int8 is not finite
  put_float(overflow, row2, 3e38f);
  overflow[row2 + 4] = 127;
  EXPECT_EQ(error_of(tiny, overflow),
            "the weights file's wte[2][1] is Infinity (127 × the row's scale 3e+38); every "
            "weight must be finite");
  auto inf_vector = bytes;
  const size_t ln1_g = size_t(tiny.vocab) * (4 + size_t(tiny.d_model));  // after wte
  put_float(inf_vector, ln1_g + 8, -std::numeric_limits<float>::infinity());
  EXPECT_EQ(error_of(tiny, inf_vector),
            "the weights file's l0.ln1_g[1][3] is -Infinity; every weight must be finite");
  auto nan_vector = bytes;
  put_float(nan_vector, bytes.size() - 4, std::numeric_limits<float>::quiet_NaN());
  EXPECT_EQ(error_of(tiny, nan_vector),
            "the weights file's lnf_b[1][8] is NaN; every weight must be finite");
  EXPECT_EQ(error_of(GptConfig{7, 5, 6, 1, 2}, bytes),
            attention::check_gpt_config(GptConfig{7, 5, 6, 1, 2}));
}

TEST(GptFile, OnlyAValidModelIsWritten) {
  auto p = random_params(tiny);
  EXPECT_EQ(attention::gpt_quantize(GptConfig{7, 5, 0, 1, 2}, p).error,
            "d_model is 0; it must be from 1 to 1024");
  EXPECT_EQ(attention::gpt_quantize(GptConfig{8, 5, 8, 1, 2}, p).error,
            "params has " + std::to_string(p.size()) + " numbers but the model has " +
                std::to_string(attention::gpt_size(GptConfig{8, 5, 8, 1, 2})));
  auto longer = p;
  longer.push_back(0);
  EXPECT_EQ(attention::gpt_quantize(tiny, longer).error,
            "params has " + std::to_string(longer.size()) + " numbers but the model has " +
                std::to_string(p.size()));
  p[size_t(tiny.vocab * tiny.d_model) + 2] = std::numeric_limits<float>::infinity();
  EXPECT_EQ(attention::gpt_quantize(tiny, p).error,
            "params[58] (l0.ln1_g[1][3]) is Infinity; every parameter must be finite");
  // a row of denormals too small for largest / 127: the smallest scale, and finite values
  p = random_params(tiny);
  for (Index j = 0; j < tiny.d_model; ++j) p[size_t(j)] = 1e-44f * float(j % 3);
  const auto bytes = attention::gpt_quantize(tiny, p);
  ASSERT_TRUE(bytes.ok()) << bytes.error;
  EXPECT_EQ(float_at(bytes.value, 0), std::numeric_limits<float>::denorm_min());
  const auto read = attention::gpt_dequantize(tiny, bytes.value);
  ASSERT_TRUE(read.ok()) << read.error;
  for (Index j = 0; j < tiny.d_model; ++j) EXPECT_EQ(read.value[size_t(j)], p[size_t(j)]) << j;
}

// n distinct CJK characters from 一 (U+4E00), as UTF-8
std::string cjk(int n) {
  std::string out;
  for (int i = 0; i < n; ++i) {
    const char32_t c = 0x4E00 + char32_t(i);
    out += char(0xE0 | (c >> 12));
    out += char(0x80 | ((c >> 6) & 0x3F));
    out += char(0x80 | (c & 0x3F));
  }
  return out;
}

TEST(GptFile, ADescriptionsCharactersAreCheckedOneByOne) {
  const auto error_of = [](Index vocab, const std::string& chars) {
    GptConfig c = tiny;
    c.vocab = vocab;
    return attention::check_gpt_chars(c, chars);
  };
  EXPECT_EQ(error_of(7, cjk(5)), "");
  EXPECT_EQ(error_of(1497, cjk(1493)),
            "chars has 1,493 characters but config.vocab = 1497 needs 1,495");
  EXPECT_EQ(error_of(7, cjk(1)), "chars has 1 character but config.vocab = 7 needs 5");
  EXPECT_EQ(error_of(2, ""), "");
  EXPECT_EQ(error_of(1, ""),
            "config.vocab is 1; a model's description needs at least 2 (the end token ⏎ and the "
            "unknown token)");
  // code points, not bytes: a 4-byte character (𝄞) and ASCII count one each
  EXPECT_EQ(error_of(7, cjk(3) + "\xF0\x9D\x84\x9E" + "a"), "");
  EXPECT_EQ(error_of(7, cjk(3) + "a" + cjk(1)),
            "chars holds 一 (U+4E00) twice: characters 1 and 5 (tokens 2 and 6)");
  EXPECT_EQ(error_of(7, "ab ca"),
            "chars holds a (U+0061) twice: characters 1 and 5 (tokens 2 and 6)");
  for (const char* bad :
       {"\x80", "\xE4\xB8", "\xC0\xAF", "\xED\xA0\x80", "\xF4\x90\x80\x80", "\xFF"}) {
    EXPECT_EQ(error_of(7, "ab" + std::string(bad) + "cd"),
              "chars is not UTF-8 text: its byte 3 (in character 3) starts no character")
        << bad;
  }
}

TEST(GptFile, AModelIsReadFromItsFilesWithTheirFieldsNamed) {
  const auto p = random_params(tiny);
  const auto bytes = attention::gpt_quantize(tiny, p).value;
  const auto read = attention::gpt_read_model(tiny, cjk(5), bytes);
  ASSERT_TRUE(read.ok()) << read.error;
  EXPECT_EQ(read.value, attention::gpt_dequantize(tiny, bytes).value);
  const auto error_of = [&](GptConfig c, const std::string& chars) {
    return attention::gpt_read_model(c, chars, bytes).error;
  };
  EXPECT_EQ(error_of(GptConfig{7, 5, 0, 1, 2}, cjk(5)),
            "config.dModel is 0; it must be from 1 to 1024");
  EXPECT_EQ(error_of(GptConfig{70000, 5, 8, 1, 2}, cjk(5)),
            "config.vocab is 70000; it must be from 1 to 65536");
  EXPECT_EQ(error_of(GptConfig{7, 5, 6, 1, 2}, cjk(5)),
            "config.dModel 6 is not config.heads × an even d_head (config.heads = 2; RoPE turns "
            "pairs)");
  EXPECT_EQ(error_of(GptConfig{7, 5, 8, 1, 2, -1}, cjk(5)),
            "config.base must be a finite number above 0");
  EXPECT_EQ(error_of(tiny, cjk(4)), "chars has 4 characters but config.vocab = 7 needs 5");
  EXPECT_EQ(error_of(GptConfig{8, 5, 8, 1, 2}, cjk(6)),
            "the weights file has 1,492 bytes but this model (config.vocab 8, config.dModel 8, "
            "config.layers 1, with MLPs) needs 1,504: it is 12 bytes too short (cut off, or "
            "another model's weights)");
  GptConfig attention_only = tiny;
  attention_only.mlp = false;
  EXPECT_NE(error_of(attention_only, cjk(5)).find("attention only) needs"), std::string::npos);
}

}  // namespace
