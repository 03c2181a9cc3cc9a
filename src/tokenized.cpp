// tokenized.cpp: a tokenizer's tokens laid over a text's characters (tokenized.hpp).
#include "tokenized.hpp"

#include "support.hpp"

namespace attention {

namespace {

constexpr Index kMaxContext = Index{1} << 22;

// The length of the UTF-8 sequence that starts with byte b, or 0 where none can start.
int sequence_length(std::uint8_t b) {
  if (b < 0x80) return 1;
  if (b >= 0xC2 && b < 0xE0) return 2;
  if (b >= 0xE0 && b < 0xF0) return 3;
  if (b >= 0xF0 && b < 0xF5) return 4;
  return 0;
}

std::string hex_byte(std::uint8_t b) {
  const char* digits = "0123456789ABCDEF";
  return {digits[b >> 4], digits[b & 15]};
}

// UTF-8 bytes as text, each broken sequence (a lead byte without all its continuation bytes, or
// a continuation byte alone) replaced by one U+FFFD, as the WHATWG decoder and Python's
// errors="replace" do for the pieces of valid text that tokens are.
std::string replaced(const std::string& bytes) {
  std::string out;
  for (std::size_t i = 0; i < bytes.size();) {
    const int n = sequence_length(std::uint8_t(bytes[i]));
    std::size_t k = 1;
    while (n > 1 && k < std::size_t(n) && i + k < bytes.size() &&
           (std::uint8_t(bytes[i + k]) & 0xC0) == 0x80) {
      ++k;
    }
    out += n > 0 && k == std::size_t(n) ? bytes.substr(i, k) : "\xEF\xBF\xBD";
    i += k;
  }
  return out;
}

}  // namespace

Result<Tokenized> tokenized(const std::string& text, const std::vector<std::uint8_t>& token_bytes,
                            const std::vector<Index>& lengths, Index context) {
  if (text.empty()) return {{}, "the text is empty"};
  if (context < 1 || context > kMaxContext) {
    return {{}, range_error("context", context, 1, kMaxContext)};
  }
  // pass 1: the text's characters, as the byte each starts at
  std::vector<Index> starts;  // (characters + 1) the last one is the text's length
  for (std::size_t i = 0; i < text.size();) {
    const auto b = static_cast<std::uint8_t>(text[i]);
    const int n = sequence_length(b);
    bool whole = n > 0 && i + std::size_t(n) <= text.size();
    for (int k = 1; whole && k < n; ++k) whole = (std::uint8_t(text[i + k]) & 0xC0) == 0x80;
    if (!whole) return {{}, "the text is not UTF-8 at byte " + std::to_string(i + 1)};
    starts.push_back(Index(i));
    i += std::size_t(n);
  }
  const Index characters = Index(starts.size());
  if (characters > kMaxTokenizedChars) {
    return {{},
            "the text has " + count(characters, "character") + "; at most " +
                std::to_string(kMaxTokenizedChars) +
                " are read here, so that every token can be shown"};
  }
  starts.push_back(Index(text.size()));

  // pass 2: the tokens spell the text, byte for byte
  Index total = 0;
  for (std::size_t t = 0; t < lengths.size(); ++t) {
    if (lengths[t] < 1) {
      return {{},
              "token " + std::to_string(t + 1) + " has " + count(lengths[t], "byte") +
                  "; every token has at least 1"};
    }
    total += lengths[t];
  }
  if (total != Index(token_bytes.size())) {
    return {{},
            "the tokens' lengths add up to " + count(total, "byte") + " but " +
                count(Index(token_bytes.size()), "byte") + " were given"};
  }
  for (std::size_t i = 0; i < token_bytes.size() && i < text.size(); ++i) {
    if (token_bytes[i] != std::uint8_t(text[i])) {
      return {{},
              "the tokens' byte " + std::to_string(i + 1) + " is " + hex_byte(token_bytes[i]) +
                  " where the text has " + hex_byte(std::uint8_t(text[i]))};
    }
  }
  if (token_bytes.size() != text.size()) {
    return {{},
            "the tokens spell " + count(Index(token_bytes.size()), "byte") + " but the text has " +
                count(Index(text.size()), "byte")};
  }

  // pass 3: each token over the characters
  Tokenized out;
  out.characters = characters;
  out.bytes = Index(text.size());
  out.count = Index(lengths.size());
  out.context = context;
  std::vector<Index> touched(std::size_t(characters), 0);  // tokens touching each character
  Index begin = 0, c = 0;  // the token's first byte; the character holding it
  for (const Index length : lengths) {
    const Index end = begin + length;
    TokenCover t;
    t.bytes = length;
    for (Index i = begin; i < end; ++i) {
      t.hex += (i > begin ? " " : "") + hex_byte(std::uint8_t(text[std::size_t(i)]));
    }
    while (starts[std::size_t(c + 1)] <= begin) ++c;
    t.first_char = c;
    Index last = c;
    while (starts[std::size_t(last + 1)] < end) ++last;
    t.last_char = last;
    t.piece = starts[std::size_t(c)] != begin || starts[std::size_t(last + 1)] != end;
    // the characters wholly inside [begin, end)
    for (Index k = c; k <= last; ++k) {
      const Index a = starts[std::size_t(k)], b = starts[std::size_t(k + 1)];
      if (a >= begin && b <= end) t.text += text.substr(std::size_t(a), std::size_t(b - a));
      ++touched[std::size_t(k)];
    }
    t.shown = replaced(text.substr(std::size_t(begin), std::size_t(length)));
    out.pieces += t.piece ? 1 : 0;
    out.tokens.push_back(std::move(t));
    begin = end;
  }
  for (const Index n : touched) out.split_chars += n > 1 ? 1 : 0;
  out.tokens_per_char = double(out.count) / double(characters);
  out.chars_per_token = double(characters) / double(out.count);
  out.fit = context * characters / out.count;
  return {std::move(out), {}};
}

}  // namespace attention
