// tokenized.hpp: how a real model's tokenizer covers a text. The tokenizer (GPT-2's, GPT-4o's,
// Qwen's, as the page loads them) gives each token's bytes; this checks that they spell the
// text's UTF-8, byte for byte, and says what the page shows of each token: its bytes in hex,
// the characters it holds whole, and whether it is only a piece of a character (我 is E6 88 91:
// GPT-2 spends two tokens on it, E6 88 and 91, and neither is a character by itself). Then the
// counts, and how many characters of such text a context of T tokens holds.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "attention.hpp"

namespace attention {

struct TokenCover {
  std::string hex;
  std::string text;
  // exactly these when it is not a piece
  std::string shown;
  // characters, and U+FFFD (�) for each broken piece, as TextDecoder does
  bool piece = false;
  Index bytes = 0;
  Index first_char = 0;
  Index last_char = 0;

  static constexpr const char* kName = "TokenCover";
  static constexpr auto fields() {
    return std::tuple{
        field("hex", &TokenCover::hex, "its bytes, \"E6 88 91\""),
        field("text", &TokenCover::text, "the characters it holds whole (\"\" for a lone piece)"),
        field("shown", &TokenCover::shown,
              "the token alone as a decoder writes it, � for each broken piece"),
        field("piece", &TokenCover::piece, "it starts or ends inside a character"),
        field("bytes", &TokenCover::bytes, "how many bytes"),
        field("first_char", &TokenCover::first_char, "the first character it touches, from 0"),
        field("last_char", &TokenCover::last_char, "the last")};
  }
};

struct Tokenized {
  std::vector<TokenCover> tokens;
  Index characters = 0;
  Index bytes = 0;
  Index count = 0;
  Index pieces = 0;
  Index split_chars = 0;
  double tokens_per_char = 0;
  double chars_per_token = 0;
  Index context = 0;
  Index fit = 0;

  static constexpr const char* kName = "Tokenized";
  static constexpr auto fields() {
    return std::tuple{
        field("tokens", &Tokenized::tokens, "each token, in order"),
        field("characters", &Tokenized::characters, "the text's Unicode code points"),
        field("bytes", &Tokenized::bytes, "its UTF-8 bytes"),
        field("count", &Tokenized::count, "the tokens"),
        field("pieces", &Tokenized::pieces, "tokens that are pieces of a character"),
        field("split_chars", &Tokenized::split_chars, "characters spread over more than one token"),
        field("tokens_per_char", &Tokenized::tokens_per_char, "count / characters"),
        field("chars_per_token", &Tokenized::chars_per_token, "characters / count"),
        field("context", &Tokenized::context, "the model's context, as given"),
        field("fit", &Tokenized::fit, "⌊context · characters / count⌋")};
  }
};

// The most characters a text may have here: the page draws every token.
inline constexpr Index kMaxTokenizedChars = 2000;

// text: UTF-8; token_bytes: every token's bytes, one after another; lengths: how many bytes
// each token has (each at least 1); context: the model's T, from 1 to 2^22. Refused: a text that
// is empty, not UTF-8 or over kMaxTokenizedChars characters, and tokens that do not spell it.
Result<Tokenized> tokenized(const std::string& text, const std::vector<std::uint8_t>& token_bytes,
                            const std::vector<Index>& lengths, Index context);

}  // namespace attention
