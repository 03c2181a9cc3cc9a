// tokenized_test.cpp: a tokenizer's tokens over a text (tokenized.hpp), on splits worked out by
// hand from the UTF-8 of 我 (E6 88 91), 爱 (E7 88 B1) and 你 (E4 BD A0).
#include "tokenized.hpp"

#include <gtest/gtest.h>

namespace {

using attention::Index;

std::vector<std::uint8_t> bytes_of(const std::string& s) { return {s.begin(), s.end()}; }

TEST(Tokenized, PiecesOfACharacter) {
  // 我 in two pieces (E6 88, then 91), 爱 and 你 whole
  const std::string text = "我爱你";
  const auto r = attention::tokenized(text, bytes_of(text), {2, 1, 3, 3}, 1024);
  ASSERT_TRUE(r.ok()) << r.error;
  const auto& t = r.value;
  ASSERT_EQ(t.tokens.size(), 4u);
  EXPECT_EQ(t.tokens[0].hex, "E6 88");
  EXPECT_EQ(t.tokens[0].text, "");
  EXPECT_EQ(t.tokens[0].shown, "\uFFFD");  // one broken sequence: one �
  EXPECT_TRUE(t.tokens[0].piece);
  EXPECT_EQ(t.tokens[1].hex, "91");
  EXPECT_TRUE(t.tokens[1].piece);
  EXPECT_EQ(t.tokens[1].first_char, 0);
  EXPECT_EQ(t.tokens[2].hex, "E7 88 B1");
  EXPECT_EQ(t.tokens[2].text, "爱");
  EXPECT_FALSE(t.tokens[2].piece);
  EXPECT_EQ(t.tokens[2].first_char, 1);
  EXPECT_EQ(t.tokens[3].text, "你");
  EXPECT_EQ(t.characters, 3);
  EXPECT_EQ(t.bytes, 9);
  EXPECT_EQ(t.count, 4);
  EXPECT_EQ(t.pieces, 2);
  EXPECT_EQ(t.split_chars, 1);
  EXPECT_DOUBLE_EQ(t.tokens_per_char, 4.0 / 3.0);
  EXPECT_EQ(t.fit, 768);  // ⌊1024 · 3 / 4⌋
}

TEST(Tokenized, TokensOfSeveralCharactersAndAStraddle) {
  // "ab" whole; then "c" with 我's first byte; then 我's last two bytes with "d"
  const std::string text = "abc我d";
  const auto r = attention::tokenized(text, bytes_of(text), {2, 2, 3}, 100);
  ASSERT_TRUE(r.ok()) << r.error;
  const auto& t = r.value.tokens;
  EXPECT_EQ(t[0].text, "ab");
  EXPECT_EQ(t[0].last_char, 1);
  EXPECT_FALSE(t[0].piece);
  EXPECT_EQ(t[1].text, "c");  // the whole character it holds
  EXPECT_TRUE(t[1].piece);
  EXPECT_EQ(t[1].first_char, 2);
  EXPECT_EQ(t[1].last_char, 3);
  EXPECT_EQ(t[2].text, "d");
  EXPECT_EQ(t[2].hex, "88 91 64");
  EXPECT_EQ(t[1].shown, "c\uFFFD");
  EXPECT_EQ(t[2].shown, "\uFFFD\uFFFDd");  // two continuation bytes alone: two
  EXPECT_EQ(t[0].shown, "ab");
  EXPECT_EQ(t[2].first_char, 3);
  EXPECT_EQ(r.value.split_chars, 1);
  EXPECT_EQ(r.value.fit, 100 * 5 / 3);
}

TEST(Tokenized, EmojiAndOneTokenPerCharacter) {
  const std::string text = "a😀";  // 😀 is F0 9F 98 80
  const auto r = attention::tokenized(text, bytes_of(text), {1, 4}, 64);
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_EQ(r.value.tokens[1].hex, "F0 9F 98 80");
  EXPECT_EQ(r.value.tokens[1].text, "😀");
  EXPECT_EQ(r.value.pieces, 0);
  EXPECT_EQ(r.value.fit, 64);
}

TEST(Tokenized, Refused) {
  const std::string text = "我爱你";
  const auto error = [&](const std::vector<std::uint8_t>& bytes, const std::vector<Index>& lengths,
                         const std::string& s = "我爱你", Index context = 1024) {
    return attention::tokenized(s, bytes, lengths, context).error;
  };
  EXPECT_EQ(error(bytes_of(text), {3, 3, 3}, ""), "the text is empty");
  EXPECT_EQ(error(bytes_of(text), {3, 3, 2}),
            "the tokens' lengths add up to 8 bytes but 9 bytes were given");
  EXPECT_EQ(error(bytes_of(text), {3, 0, 6}), "token 2 has 0 bytes; every token has at least 1");
  auto wrong = bytes_of(text);
  wrong[4] = 0x89;
  EXPECT_EQ(error(wrong, {3, 3, 3}), "the tokens' byte 5 is 89 where the text has 88");
  EXPECT_EQ(error(bytes_of("我爱"), {3, 3}), "the tokens spell 6 bytes but the text has 9 bytes");
  EXPECT_EQ(error({0xE6, 0x88}, {2}, "\xE6\x88"), "the text is not UTF-8 at byte 1");
  EXPECT_EQ(error(bytes_of(text), {9}, text, 0), "context is 0; it must be from 1 to 4194304");
  const std::string long_text(2001, 'a');
  EXPECT_EQ(error(bytes_of(long_text), {2001}, long_text),
            "the text has 2001 characters; at most 2000 are read here, so that every token can be "
            "shown");
}

}  // namespace
