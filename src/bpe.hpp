// bpe.hpp: a vocabulary built by hand, byte-pair encoding (BPE) learned from a text step by step
// as lesson 6's BPE lab shows it, then used to read a new line. The rules, all of them:
//
// - Start. From characters (Unicode code points; the default, what a learner checks by eye) or
//   from UTF-8 bytes (as GPT-2 and Qwen do: 明 is E6 98 8E, three symbols). Base ids: in
//   characters, each distinct character of the text in the order it first appears (the
//   alphabet); in bytes, all 256 bytes, the id a byte's value. The k-th merge (from 0) makes
//   the token base + k.
// - Lines. The text is read as text_corpus reads it (read_text, text.hpp: UTF-8, "\r\n" and "\r"
//   as "\n", no control character but tab). A line break is a boundary and not a symbol: no pair
//   spans two lines, and no count includes a line break.
// - Pre-split (optional, off by default). Within a line, each character is a letter, a digit, a
//   space or other (punctuation and symbols; classes below); a piece is a run of one class, and a
//   run of spaces followed by another run gives its last character to that run when it is
//   U+0020 (" love", " 123", " ,"). No pair spans two pieces. This is GPT-2's regular expression
//   ('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+) in spirit: it
//   has no contractions ("don't" is don ' t, GPT-2's don 't) and its classes are these ranges,
//   not Unicode's categories.
//     space: U+0009, U+000B, U+000C, U+0020, U+0085, U+00A0, U+1680, U+2000–U+200A, U+2028,
//            U+2029, U+202F, U+205F, U+3000
//     digit: 0–9 (U+0030–U+0039) and the full-width ０–９ (U+FF10–U+FF19)
//     other: (but a space above) the controls U+0000–U+001F and U+007F–U+009F, U+0021–U+002F,
//            U+003A–U+0040, U+005B–U+0060, U+007B–U+007E, U+00A1–U+00BF, U+00D7, U+00F7,
//            U+200B–U+2027, U+2030–U+205E, U+2060–U+206F, U+20A0–U+20CF, U+2100–U+2BFF,
//            U+2E00–U+2E7F, U+3001–U+303F, U+FE00–U+FE1F, U+FE30–U+FE6F, U+FF01–U+FF0F,
//            U+FF1A–U+FF20, U+FF3B–U+FF40, U+FF5B–U+FF65, U+FFF0–U+FFFF, U+1F000–U+1FAFF,
//            U+E0000–U+E007F
//     letter: every other code point (Latin, CJK, kana, Hangul, Greek, Cyrillic …)
// - Counting. Every adjacent pair within a piece is counted at every position, overlapping
//   ones included: 啊啊啊 holds the pair 啊啊 twice.
// - Choosing. The pair with the highest count; among equal counts, the pair that first occurs
//   earliest in the text (its left token's place, reading from the start; two pairs never start
//   at the same place): the one a learner finds by reading. Real trainers break ties their own
//   way: Hugging Face's takes the pair of smaller ids, subword-nmt's the larger pair of strings.
//   Learning stops early when no pair occurs twice (merging a pair seen once only learns the
//   text by heart); the trace says what the counts were then (`next`).
// - Merging. Left to right, never overlapping: 啊啊啊 becomes 啊啊 啊 (2 counted, 1 replaced).
//   Encoding a new text applies the merges in the order learned, each the same way, which is
//   what GPT-2's encoder (the lowest-ranked pair first) comes to; encoding the text learned
//   from gives the last step's tokens.
// In characters, a character the text never had is unknown to the vocabulary (id −1, never
// merged); bytes have no unknown.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "attention.hpp"
#include "fields.hpp"

namespace attention {

// The most characters a text may have (line breaks count): every token of every step is drawn.
inline constexpr Index kMaxBpeChars = 2000;
// The most merges learned or read.
inline constexpr Index kMaxBpeMerges = 500;
// How many of the most frequent pairs each step lists.
inline constexpr Index kBpeTop = 10;

struct BpeOptions {
  std::int64_t merges = 10;
  std::string start = "characters";
  bool presplit = false;

  static constexpr const char* kName = "BpeOptions";
  static constexpr auto fields() {
    return std::tuple{sometimes("merges", &BpeOptions::merges,
                                "how many merges to learn, 0 to 500 (fewer when no pair occurs "
                                "twice); 10 unless given"),
                      sometimes("start", &BpeOptions::start,
                                "\"characters\" (Unicode code points, the default) or \"bytes\" "
                                "(UTF-8, as GPT-2 starts)"),
                      sometimes("presplit", &BpeOptions::presplit,
                                "never merge across letters, digits, spaces and punctuation (a "
                                "space goes with the word after it)")};
  }
};

// One entry of the vocabulary.
struct BpeSymbol {
  Index id = 0;
  std::string text;
  std::string hex;
  bool whole = true;
  Index bytes = 0;
  Index left = -1;
  Index right = -1;

  static constexpr const char* kName = "BpeSymbol";
  static constexpr auto fields() {
    return std::tuple{
        field("id", &BpeSymbol::id, "its id"),
        field("text", &BpeSymbol::text,
              "its characters when its bytes are whole characters, else \"\""),
        field("hex", &BpeSymbol::hex, "its bytes, \"E6 98 8E\""),
        field("whole", &BpeSymbol::whole, "its bytes are whole UTF-8 characters"),
        field("bytes", &BpeSymbol::bytes, "how many bytes"),
        field("left", &BpeSymbol::left, "the two tokens merged into it; −1 for a base symbol"),
        field("right", &BpeSymbol::right, "the right one")};
  }
};

// A pair of adjacent tokens and its count.
struct BpePair {
  Index left = 0, right = 0;
  Index count = 0;
  Index first = 0;

  static constexpr const char* kName = "BpePair";
  static constexpr auto fields() {
    return std::tuple{
        field("left", &BpePair::left, "the left token's id"),
        field("right", &BpePair::right, "the right token's id"),
        field("count", &BpePair::count, "at every position, overlapping ones included"),
        field("first", &BpePair::first,
              "where it first occurs: its left token's place among the tokens, from 0")};
  }
};

// The pairs of a tokenization, counted: the most frequent first (ties: the first to occur).
struct BpeCounts {
  std::vector<BpePair> top;
  Index distinct = 0;
  Index tied = 0;

  static constexpr const char* kName = "BpeCounts";
  static constexpr auto fields() {
    return std::tuple{
        field("top", &BpeCounts::top,
              "the most frequent pairs, at most 10: the highest count first, ties the first to "
              "occur"),
        field("distinct", &BpeCounts::distinct, "how many different pairs there are"),
        field("tied", &BpeCounts::tied, "how many share the highest count (0 with no pair)")};
  }
};

// The text as tokens: every piece's tokens, one piece after another (the pieces are the lines,
// or with the pre-split the pieces of the lines, in order; BpeTrace::segment_lines).
struct BpeTokens {
  std::vector<std::int32_t> ids;
  std::vector<std::int32_t> sizes;
  Index count = 0;

  static constexpr const char* kName = "BpeTokens";
  static constexpr auto fields() {
    return std::tuple{field("ids", &BpeTokens::ids, "every token's id, piece after piece"),
                      field("sizes", &BpeTokens::sizes, "how many tokens each piece has"),
                      field("count", &BpeTokens::count, "tokens")};
  }
};

// One merge: the counts it was chosen from, the pair, where it occurs, the text after it.
struct BpeStep {
  BpeCounts counts;  // before the merge; top[0] is the pair chosen
  Index left = 0, right = 0;
  Index id = 0;
  Index count = 0;
  Index replaced = 0;
  std::vector<std::int32_t> at;
  std::vector<std::int32_t> merged_at;
  BpeTokens after;

  static constexpr const char* kName = "BpeStep";
  static constexpr auto fields() {
    return std::tuple{
        inlined(&BpeStep::counts),
        field("left", &BpeStep::left, "the pair merged: its left token"),
        field("right", &BpeStep::right, "its right token"),
        field("id", &BpeStep::id, "the new token (vocabulary[id])"),
        field("count", &BpeStep::count, "the pair's count"),
        field("replaced", &BpeStep::replaced,
              "how many were merged, left to right without overlap"),
        field("at", &BpeStep::at, "every place it occurs among the tokens before, from 0"),
        field("merged_at", &BpeStep::merged_at, "the places merged"),
        field("after", &BpeStep::after, "the text's tokens after the merge")};
  }
};

struct BpeTrace {
  std::string start;
  bool presplit = false;
  std::int64_t merges = 0;
  std::string alphabet;
  Index base = 0;
  std::vector<BpeSymbol> vocabulary;
  Index characters = 0;
  Index bytes = 0;
  Index lines = 0;
  std::vector<std::int32_t> segment_lines;
  BpeTokens initial;
  std::vector<BpeStep> steps;
  BpeCounts next;

  static constexpr const char* kName = "BpeTrace";
  static constexpr auto fields() {
    return std::tuple{
        field("start", &BpeTrace::start, "\"characters\" or \"bytes\""),
        field("presplit", &BpeTrace::presplit, "the pre-split was on"),
        field("merges", &BpeTrace::merges, "the merges asked for (steps may be fewer)"),
        field("alphabet", &BpeTrace::alphabet, "the base characters in id order (\"\" from bytes)"),
        field("base", &BpeTrace::base, "base symbols: the alphabet's characters, or 256"),
        field("vocabulary", &BpeTrace::vocabulary,
              "every token by id: the base, then one per merge"),
        field("characters", &BpeTrace::characters,
              "the text's characters, line breaks not counted"),
        field("bytes", &BpeTrace::bytes, "their UTF-8 bytes"),
        field("lines", &BpeTrace::lines, "its lines"),
        field("segment_lines", &BpeTrace::segment_lines, "the line of each piece, from 0"),
        field("initial", &BpeTrace::initial, "the characters or bytes, before any merge"),
        field("steps", &BpeTrace::steps, "each merge, in order"),
        field("next", &BpeTrace::next,
              "the counts after the last merge: what comes next, or why it stopped")};
  }
};

// What encoding needs of a learned vocabulary: its start, pre-split, alphabet and merges.
struct BpeModel {
  std::string start = "characters";
  bool presplit = false;
  std::string alphabet;  // from characters: the base characters in id order; from bytes: ""
  std::vector<std::array<std::int64_t, 2>> merges;  // the pairs merged (token ids), in order
};

// One token of an encoded text.
struct BpeToken {
  Index id = -1;
  std::string text;
  std::string hex;
  bool whole = true;
  bool known = true;
  Index segment = 0;

  static constexpr const char* kName = "BpeToken";
  static constexpr auto fields() {
    return std::tuple{
        field("id", &BpeToken::id, "its id; −1 for a character the vocabulary does not have"),
        field("text", &BpeToken::text, "its characters when whole, else \"\""),
        field("hex", &BpeToken::hex, "its bytes"),
        field("whole", &BpeToken::whole, "its bytes are whole characters"),
        field("known", &BpeToken::known, "it is in the vocabulary"),
        field("segment", &BpeToken::segment, "its piece, from 0")};
  }
};

// A merge that changed the encoded text.
struct BpeApplied {
  Index merge = 0;
  Index id = 0;
  Index replaced = 0;

  static constexpr const char* kName = "BpeApplied";
  static constexpr auto fields() {
    return std::tuple{
        field("merge", &BpeApplied::merge, "which merge, from 0 (the learned trace's step)"),
        field("id", &BpeApplied::id, "the token it makes"),
        field("replaced", &BpeApplied::replaced, "how many times it applied")};
  }
};

struct BpeEncoded {
  std::vector<BpeToken> tokens;
  BpeTokens initial;
  std::vector<std::int32_t> segment_lines;
  std::vector<BpeApplied> applied;
  Index count = 0;
  Index unknown = 0;
  Index characters = 0;
  Index bytes = 0;

  static constexpr const char* kName = "BpeEncoded";
  static constexpr auto fields() {
    return std::tuple{
        field("tokens", &BpeEncoded::tokens, "each token, in order"),
        field("initial", &BpeEncoded::initial,
              "its characters or bytes before any merge (an unknown character −1)"),
        field("segment_lines", &BpeEncoded::segment_lines, "the line of each piece, from 0"),
        field("applied", &BpeEncoded::applied, "the merges that changed it, in order"),
        field("count", &BpeEncoded::count, "tokens"),
        field("unknown", &BpeEncoded::unknown, "tokens not in the vocabulary"),
        field("characters", &BpeEncoded::characters, "its characters, line breaks not counted"),
        field("bytes", &BpeEncoded::bytes, "their UTF-8 bytes")};
  }
};

// Learns up to options.merges merges from the text. Refused, naming the argument: a text that is
// empty or only line breaks, not UTF-8, holding a control character or over kMaxBpeChars
// characters; merges outside 0 to kMaxBpeMerges; a start other than "characters" or "bytes".
Result<BpeTrace> bpe_learn(const std::string& text, const BpeOptions& options);

// The model a trace learned: its start, pre-split, alphabet and merges.
BpeModel bpe_model(const BpeTrace& trace);

// A text read by a learned model: its characters or bytes, then each merge in order. Refused: a
// text as bpe_learn refuses one; a start other than the two; an alphabet from bytes, or one
// that is not UTF-8, holds a line break or a character twice; a merge of a token not made
// before it; more than kMaxBpeMerges merges.
Result<BpeEncoded> bpe_encode(const BpeModel& model, const std::string& text);

}  // namespace attention
