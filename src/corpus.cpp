// corpus.cpp: fortune files to poems, poems to token ids (corpus.hpp).
#include "corpus.hpp"

#include <algorithm>
#include <sstream>

namespace attention {
namespace {

bool kept(char32_t c) {
  static const Text punctuation = U"，。？！、：；“”《》";
  return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) ||
         punctuation.find(c) != Text::npos;
}

}  // namespace

Text from_utf8(const std::string& s) {
  Text out;
  for (std::size_t i = 0; i < s.size();) {
    const unsigned char b = static_cast<unsigned char>(s[i]);
    const int n = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
    char32_t c = n == 1 ? b : n == 2 ? (b & 0x1F) : n == 3 ? (b & 0x0F) : (b & 0x07);
    for (int k = 1; k < n && i + std::size_t(k) < s.size(); ++k) {
      c = (c << 6) | (static_cast<unsigned char>(s[i + std::size_t(k)]) & 0x3F);
    }
    out.push_back(c);
    i += std::size_t(n);
  }
  return out;
}

std::string to_utf8(const Text& t) {
  std::string out;
  for (const char32_t c : t) {
    if (c < 0x80) {
      out.push_back(char(c));
    } else if (c < 0x800) {
      out.push_back(char(0xC0 | (c >> 6)));
      out.push_back(char(0x80 | (c & 0x3F)));
    } else if (c < 0x10000) {
      out.push_back(char(0xE0 | (c >> 12)));
      out.push_back(char(0x80 | ((c >> 6) & 0x3F)));
      out.push_back(char(0x80 | (c & 0x3F)));
    } else {
      out.push_back(char(0xF0 | (c >> 18)));
      out.push_back(char(0x80 | ((c >> 12) & 0x3F)));
      out.push_back(char(0x80 | ((c >> 6) & 0x3F)));
      out.push_back(char(0x80 | (c & 0x3F)));
    }
  }
  return out;
}

std::vector<Text> fortune_bodies(const std::string& file_text) {
  std::vector<Text> out;
  Text body;
  std::istringstream lines(file_text);
  std::string line;
  const auto finish = [&] {
    if (!body.empty()) out.push_back(body);
    body.clear();
  };
  while (std::getline(lines, line)) {
    if (line == "%") {
      finish();
      continue;
    }
    // a title or an author, in colour; the lines of a poem are plain
    if (line.find('\x1b') != std::string::npos) continue;
    for (const char32_t c : from_utf8(line))
      if (kept(c)) body.push_back(c);
  }
  finish();
  return out;
}

std::size_t correct(std::vector<Text>& poems, const std::vector<Erratum>& errata) {
  std::size_t applied = 0;
  for (const Erratum& e : errata) {
    if (e.poem >= poems.size()) continue;
    const std::size_t at = poems[e.poem].find(e.printed);
    if (at == Text::npos) continue;
    poems[e.poem].replace(at, e.printed.size(), e.right);
    ++applied;
  }
  return applied;
}

int regular_line(const Text& poem) {
  static const Text marks = U"，。？！；：";
  const std::size_t first = poem.find_first_of(marks);
  if (first != 5 && first != 7) return 0;
  const std::size_t n = first + 1;
  if (poem.size() % n != 0 || poem.size() < 2 * n) return 0;
  for (std::size_t i = 0; i < poem.size(); ++i) {
    const bool end = i % n == n - 1;
    if (end ? marks.find(poem[i]) == Text::npos : poem[i] < 0x3400) return 0;  // Han from U+3400
  }
  return int(first);
}

Split split_of(std::size_t poem) {
  return poem % 10 == 9 ? Split::kHeldOut : poem % 10 == 8 ? Split::kValidation : Split::kTrain;
}

std::int32_t Vocabulary::id(char32_t c) const {
  const auto found = ids.find(c);
  return found == ids.end() ? kUnknownToken : found->second;
}

Vocabulary build_vocabulary(const std::vector<Text>& training) {
  std::map<char32_t, std::int64_t> counts;
  for (const Text& poem : training)
    for (const char32_t c : poem) ++counts[c];
  std::vector<std::pair<char32_t, std::int64_t>> seen;
  for (const auto& [c, n] : counts)
    if (n >= 2) seen.emplace_back(c, n);
  std::stable_sort(seen.begin(), seen.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  Vocabulary v;
  v.chars = {U'\n', U'\uFFFD'};
  for (const auto& [c, n] : seen) {
    v.ids[c] = std::int32_t(v.chars.size());
    v.chars.push_back(c);
  }
  return v;
}

std::vector<std::int32_t> encode(const Vocabulary& v, const std::vector<Text>& poems) {
  std::vector<std::int32_t> out;
  for (const Text& poem : poems) {
    for (const char32_t c : poem) out.push_back(v.id(c));
    out.push_back(kEndToken);
  }
  return out;
}

}  // namespace attention
