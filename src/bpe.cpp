// bpe.cpp: byte-pair encoding learned step by step, and a new text encoded (bpe.hpp).
#include "bpe.hpp"

#include <algorithm>
#include <map>
#include <utility>

#include "corpus.hpp"
#include "support.hpp"
#include "text.hpp"

namespace attention {

namespace {

enum class Kind { kLetter, kDigit, kSpace, kOther };

struct Range {
  char32_t low, high;
};

constexpr Range kSpaces[] = {{0x09, 0x09},     {0x0B, 0x0C},     {0x20, 0x20},     {0x85, 0x85},
                             {0xA0, 0xA0},     {0x1680, 0x1680}, {0x2000, 0x200A}, {0x2028, 0x2029},
                             {0x202F, 0x202F}, {0x205F, 0x205F}, {0x3000, 0x3000}};
constexpr Range kDigits[] = {{0x30, 0x39}, {0xFF10, 0xFF19}};
constexpr Range kOthers[] = {
    {0x00, 0x1F},     {0x21, 0x2F},     {0x3A, 0x40},     {0x5B, 0x60},       {0x7B, 0x7E},
    {0x7F, 0x9F},     {0xA1, 0xBF},     {0xD7, 0xD7},     {0xF7, 0xF7},       {0x200B, 0x2027},
    {0x2030, 0x205E}, {0x2060, 0x206F}, {0x20A0, 0x20CF}, {0x2100, 0x2BFF},   {0x2E00, 0x2E7F},
    {0x3001, 0x303F}, {0xFE00, 0xFE1F}, {0xFE30, 0xFE6F}, {0xFF01, 0xFF0F},   {0xFF1A, 0xFF20},
    {0xFF3B, 0xFF40}, {0xFF5B, 0xFF65}, {0xFFF0, 0xFFFF}, {0x1F000, 0x1FAFF}, {0xE0000, 0xE007F}};

template <std::size_t N>
bool in(const Range (&ranges)[N], char32_t c) {
  for (const Range& r : ranges) {
    if (c >= r.low && c <= r.high) return true;
  }
  return false;
}

// The class of a character for the pre-split. Spaces first: tab and U+0085 are also in the
// control ranges of kOthers.
Kind kind_of(char32_t c) {
  if (in(kSpaces, c)) return Kind::kSpace;
  if (in(kDigits, c)) return Kind::kDigit;
  if (in(kOthers, c)) return Kind::kOther;
  return Kind::kLetter;
}

std::string hex_of(const std::string& bytes) {
  static const char* digits = "0123456789ABCDEF";
  std::string out;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    const auto b = static_cast<std::uint8_t>(bytes[i]);
    if (i > 0) out += ' ';
    out += digits[b >> 4];
    out += digits[b & 15];
  }
  return out;
}

// Whether bytes are whole UTF-8 characters. They are pieces of valid UTF-8, so a lead byte
// followed by its continuation bytes is a whole character.
bool whole_utf8(const std::string& bytes) {
  for (std::size_t i = 0; i < bytes.size();) {
    const auto b = static_cast<std::uint8_t>(bytes[i]);
    const std::size_t n = b < 0x80 ? 1 : b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 0;
    if (n == 0 || i + n > bytes.size()) return false;
    for (std::size_t k = 1; k < n; ++k) {
      if ((static_cast<std::uint8_t>(bytes[i + k]) & 0xC0) != 0x80) return false;
    }
    i += n;
  }
  return true;
}

// A text read: its pieces of characters, and each piece's line.
struct Pieces {
  std::vector<Text> pieces;
  std::vector<std::int32_t> lines;
  Index characters = 0, bytes = 0, line_count = 0;
};

// Splits one line into the pre-split's pieces (bpe.hpp).
void split_line(const Text& line, std::int32_t at_line, Pieces& out) {
  std::vector<std::pair<Text, Kind>> runs;
  for (const char32_t c : line) {
    const Kind k = kind_of(c);
    if (runs.empty() || runs.back().second != k) runs.push_back({{}, k});
    runs.back().first += c;
  }
  for (std::size_t r = 0; r < runs.size(); ++r) {
    Text& run = runs[r].first;
    // a space run's last U+0020 goes with the run after it
    if (runs[r].second == Kind::kSpace && r + 1 < runs.size() && run.back() == U' ') {
      run.pop_back();
      runs[r + 1].first.insert(runs[r + 1].first.begin(), U' ');
    }
    if (!run.empty()) {
      out.pieces.push_back(run);
      out.lines.push_back(at_line);
    }
  }
}

Result<Pieces> read_pieces(const std::string& utf8, bool presplit) {
  if (utf8.empty()) return {{}, "the text is empty"};
  auto read = read_text(utf8);
  if (!read.ok()) return {{}, read.error};
  const Text& text = read.value;
  if (Index(text.size()) > kMaxBpeChars) {
    return {{},
            "the text has " + count(Index(text.size()), "character") +
                " (line breaks count); at most " + std::to_string(kMaxBpeChars) +
                " are read here, so that every token can be shown"};
  }
  Pieces out;
  for (std::size_t start = 0; start <= text.size();) {
    std::size_t end = text.find(U'\n', start);
    if (end == Text::npos) end = text.size();
    const Text line = text.substr(start, end - start);
    const auto at_line = std::int32_t(out.line_count++);
    if (presplit) {
      split_line(line, at_line, out);
    } else {
      out.pieces.push_back(line);
      out.lines.push_back(at_line);
    }
    out.characters += Index(line.size());
    out.bytes += Index(to_utf8(line).size());
    start = end + 1;
  }
  if (out.characters == 0) return {{}, "the text has only line breaks"};
  return {std::move(out), {}};
}

bool valid_start(const std::string& start) { return start == "characters" || start == "bytes"; }

std::string start_error(const std::string& start) {
  return "start is \"" + start + "\"; it must be \"characters\" or \"bytes\"";
}

// Token sequences, piece by piece, and the one rule of merging: left to right, no overlap.
using Sequence = std::vector<std::vector<std::int32_t>>;

// Merges (left, right) into id in every piece; the places merged, counted across the pieces.
Index merge_pair(Sequence& pieces, std::int32_t left, std::int32_t right, std::int32_t id,
                 std::vector<std::int32_t>* merged_at) {
  Index replaced = 0;
  std::int32_t offset = 0;
  for (auto& piece : pieces) {
    std::vector<std::int32_t> out;
    out.reserve(piece.size());
    for (std::size_t i = 0; i < piece.size();) {
      if (i + 1 < piece.size() && piece[i] == left && piece[i + 1] == right) {
        if (merged_at) merged_at->push_back(offset + std::int32_t(i));
        out.push_back(id);
        ++replaced;
        i += 2;
      } else {
        out.push_back(piece[i++]);
      }
    }
    offset += std::int32_t(piece.size());
    piece = std::move(out);
  }
  return replaced;
}

BpeTokens tokens_of(const Sequence& pieces) {
  BpeTokens out;
  for (const auto& piece : pieces) {
    out.ids.insert(out.ids.end(), piece.begin(), piece.end());
    out.sizes.push_back(std::int32_t(piece.size()));
  }
  out.count = Index(out.ids.size());
  return out;
}

// Every adjacent pair's count and first place, the most frequent first (ties: the first to
// occur), all of them. The pairs are gathered as (left, right, place) and sorted, so that each
// pair's places are together, the first of them first.
std::vector<BpePair> count_pairs(const Sequence& pieces) {
  std::vector<std::pair<std::uint64_t, std::int32_t>> places;  // (left·2³² + right, place)
  std::size_t tokens = 0;
  for (const auto& piece : pieces) tokens += piece.size();
  places.reserve(tokens);
  std::int32_t offset = 0;
  for (const auto& piece : pieces) {
    for (std::size_t i = 0; i + 1 < piece.size(); ++i) {
      const auto key = std::uint64_t(std::uint32_t(piece[i])) << 32 | std::uint32_t(piece[i + 1]);
      places.emplace_back(key, offset + std::int32_t(i));
    }
    offset += std::int32_t(piece.size());
  }
  std::sort(places.begin(), places.end());
  std::vector<BpePair> all;
  all.reserve(places.size());
  for (std::size_t i = 0; i < places.size();) {
    std::size_t j = i;
    while (j < places.size() && places[j].first == places[i].first) ++j;
    const std::uint64_t key = places[i].first;
    all.push_back({Index(std::int32_t(key >> 32)), Index(std::int32_t(key & 0xFFFFFFFFu)),
                   Index(j - i), Index(places[i].second)});
    i = j;
  }
  std::sort(all.begin(), all.end(), [](const BpePair& a, const BpePair& b) {
    return a.count != b.count ? a.count > b.count : a.first < b.first;
  });
  return all;
}

BpeCounts counts_of(const std::vector<BpePair>& all) {
  BpeCounts out;
  out.distinct = Index(all.size());
  out.top.assign(all.begin(), all.begin() + std::min<std::ptrdiff_t>(kBpeTop, all.size()));
  for (const BpePair& p : all) out.tied += p.count == all.front().count ? 1 : 0;
  return out;
}

// The vocabulary's bytes and the pieces' base ids, from characters (with the alphabet, found
// in the text when `grow`, else unknown characters are −1) or from bytes.
struct Base {
  std::vector<std::string> bytes;  // each base symbol's
  std::map<char32_t, std::int32_t> ids;
};

Sequence base_ids(const Pieces& read, bool from_bytes, Base& base, bool grow) {
  Sequence out;
  for (const Text& piece : read.pieces) {
    std::vector<std::int32_t> ids;
    for (const char32_t c : piece) {
      const std::string utf8 = to_utf8(Text(1, c));
      if (from_bytes) {
        for (const char b : utf8) ids.push_back(std::int32_t(static_cast<std::uint8_t>(b)));
        continue;
      }
      auto it = base.ids.find(c);
      if (it == base.ids.end() && grow) {
        it = base.ids.emplace(c, std::int32_t(base.bytes.size())).first;
        base.bytes.push_back(utf8);
      }
      ids.push_back(it == base.ids.end() ? -1 : it->second);
    }
    out.push_back(std::move(ids));
  }
  return out;
}

Base byte_base() {
  Base base;
  for (int b = 0; b < 256; ++b) base.bytes.push_back(std::string(1, char(b)));
  return base;
}

BpeSymbol symbol(Index id, const std::string& bytes, Index left, Index right) {
  BpeSymbol s;
  s.id = id;
  s.hex = hex_of(bytes);
  s.whole = whole_utf8(bytes);
  if (s.whole) s.text = bytes;
  s.bytes = Index(bytes.size());
  s.left = left;
  s.right = right;
  return s;
}

}  // namespace

Result<BpeTrace> bpe_learn(const std::string& text, const BpeOptions& options) {
  if (options.merges < 0 || options.merges > kMaxBpeMerges) {
    return {{}, range_error("merges", options.merges, 0, kMaxBpeMerges)};
  }
  if (!valid_start(options.start)) return {{}, start_error(options.start)};
  auto read = read_pieces(text, options.presplit);
  if (!read.ok()) return {{}, read.error};
  const bool from_bytes = options.start == "bytes";

  BpeTrace out;
  out.start = options.start;
  out.presplit = options.presplit;
  out.merges = options.merges;
  out.characters = read.value.characters;
  out.bytes = read.value.bytes;
  out.lines = read.value.line_count;
  out.segment_lines = read.value.lines;

  Base base = from_bytes ? byte_base() : Base{};
  Sequence pieces = base_ids(read.value, from_bytes, base, !from_bytes);
  if (!from_bytes) {
    for (const std::string& c : base.bytes) out.alphabet += c;  // the alphabet in id order
  }
  out.base = Index(base.bytes.size());
  std::vector<std::string> bytes = base.bytes;
  for (Index id = 0; id < out.base; ++id) {
    out.vocabulary.push_back(symbol(id, bytes[std::size_t(id)], -1, -1));
  }
  out.initial = tokens_of(pieces);

  for (Index k = 0; k < Index(options.merges); ++k) {
    const auto all = count_pairs(pieces);
    if (all.empty() || all.front().count < 2) break;
    BpeStep step;
    step.counts = counts_of(all);
    const BpePair& best = all.front();
    step.left = best.left;
    step.right = best.right;
    step.count = best.count;
    step.id = out.base + k;
    std::int32_t offset = 0;
    for (const auto& piece : pieces) {
      for (std::size_t i = 0; i + 1 < piece.size(); ++i) {
        if (piece[i] == best.left && piece[i + 1] == best.right) {
          step.at.push_back(offset + std::int32_t(i));
        }
      }
      offset += std::int32_t(piece.size());
    }
    step.replaced = merge_pair(pieces, std::int32_t(best.left), std::int32_t(best.right),
                               std::int32_t(step.id), &step.merged_at);
    bytes.push_back(bytes[std::size_t(best.left)] + bytes[std::size_t(best.right)]);
    out.vocabulary.push_back(symbol(step.id, bytes.back(), best.left, best.right));
    step.after = tokens_of(pieces);
    out.steps.push_back(std::move(step));
  }
  out.next = counts_of(count_pairs(pieces));
  return {std::move(out), {}};
}

BpeModel bpe_model(const BpeTrace& trace) {
  BpeModel model;
  model.start = trace.start;
  model.presplit = trace.presplit;
  model.alphabet = trace.alphabet;
  for (const BpeStep& s : trace.steps) model.merges.push_back({{s.left, s.right}});
  return model;
}

Result<BpeEncoded> bpe_encode(const BpeModel& model, const std::string& text) {
  if (!valid_start(model.start)) return {{}, start_error(model.start)};
  const bool from_bytes = model.start == "bytes";
  Base base = from_bytes ? byte_base() : Base{};
  if (from_bytes && !model.alphabet.empty()) {
    return {{}, "the alphabet must be empty from bytes: the 256 bytes are the base"};
  }
  if (!from_bytes) {
    auto alphabet = read_text(model.alphabet);
    if (!alphabet.ok()) return {{}, "the alphabet: " + alphabet.error};
    if (Index(alphabet.value.size()) > kMaxBpeChars) {
      return {{},
              "the alphabet has " + count(Index(alphabet.value.size()), "character") +
                  "; at most " + std::to_string(kMaxBpeChars)};
    }
    for (const char32_t c : alphabet.value) {
      const std::string utf8 = to_utf8(Text(1, c));
      if (c == U'\n') return {{}, "the alphabet holds a line break, which is never a symbol"};
      if (!base.ids.emplace(c, std::int32_t(base.bytes.size())).second) {
        return {{}, "the alphabet holds " + utf8 + " twice"};
      }
      base.bytes.push_back(utf8);
    }
  }
  const auto n_merges = Index(model.merges.size());
  if (n_merges > kMaxBpeMerges) {
    return {{},
            "there are " + count(n_merges, "merge") + "; at most " + std::to_string(kMaxBpeMerges) +
                " are read"};
  }
  const Index n_base = Index(base.bytes.size());
  std::vector<std::string> bytes = base.bytes;
  for (Index k = 0; k < n_merges; ++k) {
    const auto& [left, right] = model.merges[std::size_t(k)];
    const std::string name = "merge " + std::to_string(k + 1) + "'s ";
    for (const auto& [side, id] : {std::pair{"left", left}, std::pair{"right", right}}) {
      if (id < 0 || id >= std::int64_t(n_base + k)) {
        return {{},
                range_error(name + side + " token", id, 0, n_base + k - 1,
                            " (the tokens made before it)")};
      }
    }
    bytes.push_back(bytes[std::size_t(left)] + bytes[std::size_t(right)]);
  }
  auto read = read_pieces(text, model.presplit);
  if (!read.ok()) return {{}, read.error};

  BpeEncoded out;
  out.characters = read.value.characters;
  out.bytes = read.value.bytes;
  out.segment_lines = read.value.lines;
  Sequence pieces = base_ids(read.value, from_bytes, base, false);
  out.initial = tokens_of(pieces);
  for (Index k = 0; k < n_merges; ++k) {
    const auto& [left, right] = model.merges[std::size_t(k)];
    const Index id = n_base + k;
    const Index replaced =
        merge_pair(pieces, std::int32_t(left), std::int32_t(right), std::int32_t(id), nullptr);
    if (replaced > 0) out.applied.push_back({k, id, replaced});
  }
  // each token; an unknown one is the character it stands for, found by counting characters
  for (std::size_t s = 0; s < pieces.size(); ++s) {
    const Text& piece = read.value.pieces[s];
    std::size_t at = 0;  // the character of the piece each token starts at (from characters)
    for (const std::int32_t id : pieces[s]) {
      BpeToken t;
      t.id = id;
      t.segment = Index(s);
      if (id < 0) {
        const std::string utf8 = to_utf8(Text(1, piece[at]));
        t.known = false;
        t.text = utf8;
        t.hex = hex_of(utf8);
        ++out.unknown;
        at += 1;
      } else {
        const std::string& b = bytes[std::size_t(id)];
        t.hex = hex_of(b);
        t.whole = whole_utf8(b);
        if (t.whole) t.text = b;
        if (!from_bytes) at += Text(from_utf8(b)).size();
      }
      out.tokens.push_back(std::move(t));
    }
  }
  out.count = Index(out.tokens.size());
  return {std::move(out), {}};
}

}  // namespace attention
