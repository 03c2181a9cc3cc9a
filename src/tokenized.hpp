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
  std::string hex;       // its bytes, "E6 88 91"
  std::string text;      // the characters it holds whole ("" for a lone piece); its bytes are
                         // exactly these when it is not a piece
  std::string shown;     // the token by itself as a tokenizer's decode writes it: its whole
                         // characters, and U+FFFD (�) for each broken piece, as TextDecoder does
  bool piece = false;    // it starts or ends inside a character
  Index bytes = 0;       // how many bytes
  Index first_char = 0;  // the first character it touches, from 0
  Index last_char = 0;   // the last (a piece touches one; a token of three characters three)

  static constexpr const char* kName = "TokenCover";
  static constexpr auto fields() {
    return std::tuple{field("hex", &TokenCover::hex),
                      field("text", &TokenCover::text),
                      field("shown", &TokenCover::shown),
                      field("piece", &TokenCover::piece),
                      field("bytes", &TokenCover::bytes),
                      field("first_char", &TokenCover::first_char),
                      field("last_char", &TokenCover::last_char)};
  }
};

struct Tokenized {
  std::vector<TokenCover> tokens;
  Index characters = 0;   // Unicode code points
  Index bytes = 0;        // UTF-8 bytes
  Index count = 0;        // tokens
  Index pieces = 0;       // tokens that are pieces of a character
  Index split_chars = 0;  // characters spread over more than one token
  double tokens_per_char = 0;
  double chars_per_token = 0;
  Index context = 0;  // T, the model's context
  Index fit = 0;      // ⌊T · characters / tokens⌋: characters of such text in T tokens

  static constexpr const char* kName = "Tokenized";
  static constexpr auto fields() {
    return std::tuple{field("tokens", &Tokenized::tokens),
                      field("characters", &Tokenized::characters),
                      field("bytes", &Tokenized::bytes),
                      field("count", &Tokenized::count),
                      field("pieces", &Tokenized::pieces),
                      field("split_chars", &Tokenized::split_chars),
                      field("tokens_per_char", &Tokenized::tokens_per_char),
                      field("chars_per_token", &Tokenized::chars_per_token),
                      field("context", &Tokenized::context),
                      field("fit", &Tokenized::fit)};
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
