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
  std::int64_t merges = 10;          // how many merges to learn, 0 to kMaxBpeMerges
  std::string start = "characters";  // "characters" or "bytes"
  bool presplit = false;             // never merge across the pieces above

  static constexpr const char* kName = "BpeOptions";
  static constexpr auto fields() {
    return std::tuple{field("merges", &BpeOptions::merges), field("start", &BpeOptions::start),
                      field("presplit", &BpeOptions::presplit)};
  }
};

// One entry of the vocabulary.
struct BpeSymbol {
  Index id = 0;
  std::string text;   // its characters when its bytes are whole characters, else ""
  std::string hex;    // its bytes, "E6 98 8E"
  bool whole = true;  // its bytes are whole UTF-8 characters (always, from characters)
  Index bytes = 0;    // how many bytes
  Index left = -1;    // the two tokens merged into it; −1 for a base symbol
  Index right = -1;

  static constexpr const char* kName = "BpeSymbol";
  static constexpr auto fields() {
    return std::tuple{field("id", &BpeSymbol::id),       field("text", &BpeSymbol::text),
                      field("hex", &BpeSymbol::hex),     field("whole", &BpeSymbol::whole),
                      field("bytes", &BpeSymbol::bytes), field("left", &BpeSymbol::left),
                      field("right", &BpeSymbol::right)};
  }
};

// A pair of adjacent tokens and its count.
struct BpePair {
  Index left = 0, right = 0;  // token ids
  Index count = 0;            // at every position, overlapping ones included
  Index first = 0;            // where it first occurs: its left token's place in the tokens, from 0

  static constexpr const char* kName = "BpePair";
  static constexpr auto fields() {
    return std::tuple{field("left", &BpePair::left), field("right", &BpePair::right),
                      field("count", &BpePair::count), field("first", &BpePair::first)};
  }
};

// The pairs of a tokenization, counted: the most frequent first (ties: the first to occur).
struct BpeCounts {
  std::vector<BpePair> top;  // at most kBpeTop
  Index distinct = 0;        // how many different pairs there are
  Index tied = 0;            // how many share the highest count (0 with no pair)

  static constexpr const char* kName = "BpeCounts";
  static constexpr auto fields() {
    return std::tuple{field("top", &BpeCounts::top), field("distinct", &BpeCounts::distinct),
                      field("tied", &BpeCounts::tied)};
  }
};

// The text as tokens: every piece's tokens, one piece after another (the pieces are the lines,
// or with the pre-split the pieces of the lines, in order; BpeTrace::segment_lines).
struct BpeTokens {
  std::vector<std::int32_t> ids;    // every token's id
  std::vector<std::int32_t> sizes;  // (pieces) how many tokens each piece has
  Index count = 0;                  // ids.size()

  static constexpr const char* kName = "BpeTokens";
  static constexpr auto fields() {
    return std::tuple{field("ids", &BpeTokens::ids), field("sizes", &BpeTokens::sizes),
                      field("count", &BpeTokens::count)};
  }
};

// One merge: the counts it was chosen from, the pair, where it occurs, the text after it.
struct BpeStep {
  BpeCounts counts;                     // before the merge; top[0] is the pair chosen
  Index left = 0, right = 0;            // the pair merged
  Index id = 0;                         // the new token (vocabulary[id])
  Index count = 0;                      // its count (top[0].count)
  Index replaced = 0;                   // how many were merged, left to right without overlap
  std::vector<std::int32_t> at;         // every place it occurs in the tokens before, from 0
  std::vector<std::int32_t> merged_at;  // the places merged (count − replaced are not)
  BpeTokens after;                      // the text's tokens after the merge

  static constexpr const char* kName = "BpeStep";
  static constexpr auto fields() {
    return std::tuple{inlined(&BpeStep::counts),       field("left", &BpeStep::left),
                      field("right", &BpeStep::right), field("id", &BpeStep::id),
                      field("count", &BpeStep::count), field("replaced", &BpeStep::replaced),
                      field("at", &BpeStep::at),       field("merged_at", &BpeStep::merged_at),
                      field("after", &BpeStep::after)};
  }
};

struct BpeTrace {
  std::string start;  // "characters" or "bytes"
  bool presplit = false;
  std::int64_t merges = 0;                  // asked for; steps.size() ≤ merges
  std::string alphabet;                     // the base characters in id order ("" from bytes)
  Index base = 0;                           // base symbols: the alphabet's characters, or 256
  std::vector<BpeSymbol> vocabulary;        // (base + steps) by id
  Index characters = 0;                     // the text's, line breaks not counted
  Index bytes = 0;                          // their UTF-8 bytes
  Index lines = 0;                          // lines (a text without a line break has 1)
  std::vector<std::int32_t> segment_lines;  // (pieces) the line of each piece, from 0
  BpeTokens initial;                        // the characters or bytes, before any merge
  std::vector<BpeStep> steps;               // each merge, in order
  BpeCounts next;  // the counts after the last merge: what comes next, or why it stopped

  static constexpr const char* kName = "BpeTrace";
  static constexpr auto fields() {
    return std::tuple{field("start", &BpeTrace::start),
                      field("presplit", &BpeTrace::presplit),
                      field("merges", &BpeTrace::merges),
                      field("alphabet", &BpeTrace::alphabet),
                      field("base", &BpeTrace::base),
                      field("vocabulary", &BpeTrace::vocabulary),
                      field("characters", &BpeTrace::characters),
                      field("bytes", &BpeTrace::bytes),
                      field("lines", &BpeTrace::lines),
                      field("segment_lines", &BpeTrace::segment_lines),
                      field("initial", &BpeTrace::initial),
                      field("steps", &BpeTrace::steps),
                      field("next", &BpeTrace::next)};
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
  Index id = -1;      // −1: a character the vocabulary does not have
  std::string text;   // its characters when whole, else ""
  std::string hex;    // its bytes
  bool whole = true;  // its bytes are whole characters
  bool known = true;  // it is in the vocabulary
  Index segment = 0;  // its piece, from 0

  static constexpr const char* kName = "BpeToken";
  static constexpr auto fields() {
    return std::tuple{field("id", &BpeToken::id),       field("text", &BpeToken::text),
                      field("hex", &BpeToken::hex),     field("whole", &BpeToken::whole),
                      field("known", &BpeToken::known), field("segment", &BpeToken::segment)};
  }
};

// A merge that changed the encoded text.
struct BpeApplied {
  Index merge = 0;     // which, from 0 (the step of the trace)
  Index id = 0;        // the token it makes
  Index replaced = 0;  // how many times

  static constexpr const char* kName = "BpeApplied";
  static constexpr auto fields() {
    return std::tuple{field("merge", &BpeApplied::merge), field("id", &BpeApplied::id),
                      field("replaced", &BpeApplied::replaced)};
  }
};

struct BpeEncoded {
  std::vector<BpeToken> tokens;
  BpeTokens initial;  // the characters or bytes before any merge (an unknown character −1)
  std::vector<std::int32_t> segment_lines;  // (pieces) the line of each piece, from 0
  std::vector<BpeApplied> applied;          // the merges that changed it, in order
  Index count = 0;                          // tokens
  Index unknown = 0;                        // tokens not in the vocabulary
  Index characters = 0;                     // line breaks not counted
  Index bytes = 0;

  static constexpr const char* kName = "BpeEncoded";
  static constexpr auto fields() {
    return std::tuple{field("tokens", &BpeEncoded::tokens),
                      field("initial", &BpeEncoded::initial),
                      field("segment_lines", &BpeEncoded::segment_lines),
                      field("applied", &BpeEncoded::applied),
                      field("count", &BpeEncoded::count),
                      field("unknown", &BpeEncoded::unknown),
                      field("characters", &BpeEncoded::characters),
                      field("bytes", &BpeEncoded::bytes)};
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
