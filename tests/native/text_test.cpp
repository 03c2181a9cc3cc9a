// text_test.cpp: a learner's own text (text.hpp) on texts made by hand: bytes that are not
// UTF-8 or not a text refused with where; line ends read; lines cut into pieces and split by
// index; the streams, the vocabulary and its cap; the baselines worked out by hand; and each
// text that cannot be trained on refused with why.
#include "text.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace {

using attention::text_corpus;
using Ids = std::vector<std::int32_t>;

std::string lines(const std::vector<std::string>& each) {
  std::string out;
  for (const auto& l : each) out += l + "\n";
  return out;
}

void refused(const std::string& text, const std::string& part) {
  const auto r = text_corpus(text);
  ASSERT_FALSE(r.ok()) << "accepted: " << text.substr(0, 40);
  EXPECT_NE(r.error.find(part), std::string::npos) << r.error;
}

TEST(Text, BytesThatAreNotUtf8SayWhere) {
  EXPECT_EQ(attention::read_text("ab\xff").error,
            "the text is not UTF-8: the bytes from byte 3 (0xFF) are not a character; is it a "
            "binary file?");
  EXPECT_NE(attention::read_text("\xc0\x80").error.find("from byte 1 (0xC0)"),
            std::string::npos);                                 // overlong
  EXPECT_FALSE(attention::read_text("\xed\xa0\x80").ok());      // a surrogate
  EXPECT_FALSE(attention::read_text("\xe6\x9c").ok());          // cut short
  EXPECT_FALSE(attention::read_text("\xf4\x90\x80\x80").ok());  // past U+10FFFF
  EXPECT_EQ(attention::read_text(std::string("月\0光", 7)).error,
            "the text holds the control character U+0000 at character 2: is it a binary file?");
  EXPECT_EQ(attention::read_text("a\r\nb\rc\td").value, U"a\nb\nc\td");
  EXPECT_EQ(attention::read_text("月光😀").value, U"月光😀");
}

TEST(Text, StreamsVocabularyAndBaselinesByHand) {
  // pieces 0–7 train, 8 for choosing, 9 held out; a and b 8 times each in training: a first
  const auto r = text_corpus(lines({"ab", "ab", "ab", "ab", "ab", "ab", "ab", "ab", "ba", "ba"}));
  ASSERT_TRUE(r.ok()) << r.error;
  const auto& c = r.value;
  EXPECT_EQ(c.chars, "ab");
  EXPECT_EQ(c.lines, 10);
  EXPECT_EQ(c.pieces, 10);
  EXPECT_EQ(c.characters, 20);
  EXPECT_EQ(c.distinct, 2);
  EXPECT_EQ(c.unknown, 0);
  Ids train;
  for (int k = 0; k < 8; ++k) train.insert(train.end(), {2, 3, 0});
  EXPECT_EQ(c.train, train);
  EXPECT_EQ(c.validation, (Ids{3, 2, 0}));
  EXPECT_EQ(c.held_out, (Ids{3, 2, 0}));
  EXPECT_EQ(c.counts, (Ids{8, 0, 8, 8}));
  // unigram: (8 + 1) / (24 + 4) for ⏎, a and b; the held-out targets a, ⏎
  const double u = 9.0 / 28;
  EXPECT_DOUBLE_EQ(c.baselines.uniform, std::log(4.0));
  EXPECT_DOUBLE_EQ(c.baselines.unigram, -std::log(u));
  EXPECT_EQ(c.unigram, (std::vector<double>{u, 1.0 / 28, u, u}));
  // b→a and a→⏎ never follow in training: λ as small as the grid goes
  EXPECT_DOUBLE_EQ(c.baselines.lambda, 0.01);
  EXPECT_NEAR(c.baselines.bigram, -std::log(0.99 * u), 1e-12);
}

TEST(Text, ALongLineIsCutIntoPiecesItsEndTokenAfterTheLast) {
  std::string text(250, 'x');
  text[0] = 'y';
  text[100] = 'y';
  for (int k = 0; k < 9; ++k) text += "\nxy";
  const auto r = text_corpus(text);
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_EQ(r.value.lines, 10);
  EXPECT_EQ(r.value.pieces, 12);  // 100 + 100 + 50, then nine lines
  // pieces 0, 1, 2 are the long line: its end token after the third only
  const auto& t = r.value.train;
  ASSERT_GE(t.size(), 251u);
  EXPECT_EQ(std::count(t.begin(), t.begin() + 250, 0), 0);
  EXPECT_EQ(t[250], 0);
}

TEST(Text, TheVocabularyHasAtMostTwoThousandTokens) {
  // 2,100 characters in lines of 100, four times over: each in two training pieces at least
  // (a piece k of 10 is held out when k mod 10 is 8 or 9); 一 more often
  std::vector<std::string> each;
  std::u32string all;
  for (char32_t c = 0x4E00; c < 0x4E00 + 2100; ++c) all += c;
  for (int copy = 0; copy < 4; ++copy)
    for (std::size_t at = 0; at < all.size(); at += 100)
      each.push_back(attention::to_utf8(all.substr(at, 100)));
  each.push_back(attention::to_utf8(std::u32string(50, U'一')));
  const auto r = text_corpus(lines(each));
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_EQ(attention::from_utf8(r.value.chars).size(), 1998u);
  EXPECT_EQ(r.value.counts.size(), 2000u);
  EXPECT_GT(r.value.unknown, 0);
  EXPECT_GT(r.value.counts[1], 0);  // the characters past the cap: the unknown token
}

TEST(Text, TextsThatCannotBeTrainedOnSayWhy) {
  refused("", "the text is empty");
  refused(" \n\t\n\u3000", "the text is empty");
  refused(lines({"a", "b", "c"}), "3 lines, 3 characters; it needs 10 lines or 1,000");
  refused(std::string(5000, 'a'), "one character only (“a”, 5,000 times)");
  refused(std::string(attention::kMaxTextBytes, 'a') + "b", "more than 1,048,576 bytes (1 MiB)");
  std::u32string once;
  for (char32_t c = 0x4E00; c < 0x4E00 + 1000; ++c) once += c;  // each character once
  refused(attention::to_utf8(once), "only 0 of the text's 1,000 characters appear twice");
  refused("\x89PNG\r\n\x1a\n", "not UTF-8: the bytes from byte 1 (0x89)");
}

}  // namespace
