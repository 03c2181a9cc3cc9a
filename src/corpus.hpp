// corpus.hpp: the text the small model learns from, as token ids. Debian's fortunes-zh holds
// 唐诗三百首 (tang300), 宋诗一百首 (song100, a hundred Song-dynasty poems, not ci) and classical
// quotations (chinese) as fortune files: entries separated by lines of "%", titles and authors
// wrapped in ANSI colour codes. An entry's body is kept: its Han characters and the punctuation
// that carries the lines' structure (，。？！、：；“”《》); the titles, the authors and everything
// else go.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace attention {

// A text as Unicode code points.
using Text = std::u32string;

// The bodies of the entries of a fortune file, in order.
std::vector<Text> fortune_bodies(const std::string& file_text);

// A misprint of the package, and what the anthology prints: in the poem at `poem` (from 0),
// `printed` stands for `right` (docs/model.md, "The text, and its terms").
struct Erratum {
  std::size_t poem;
  Text printed, right;
};

// fortunes-zh 2.98's tang300: poem 10, 孟浩然's 《宿业师山房待丁大不至》, transposes two
// characters of its fifth line, 樵人归尽欲 for 唐诗三百首's 樵人归欲尽. Corrected in the own-text
// lab's preset; the real model's held-out text keeps the package's line (docs/model.md).
inline const std::vector<Erratum> kTang300Errata = {{9, U"樵人归尽欲", U"樵人归欲尽"}};

// Each erratum applied where its poem prints it (a package that prints the line right is left
// as it is); returns how many were applied.
std::size_t correct(std::vector<Text>& poems, const std::vector<Erratum>& errata);

// UTF-8 in and out.
Text from_utf8(const std::string& s);
std::string to_utf8(const Text& t);

// The three fixed splits of whole poems, by index: every tenth (index mod 10 = 9) is held out,
// reported and never used to choose; the one before it (mod 10 = 8) is for choosing when to
// stop; the rest train.
enum class Split { kTrain, kValidation, kHeldOut };
Split split_of(std::size_t poem);

// The line length of a regular poem: 5 (五言) or 7 (七言) when every line is that many Han
// characters and one mark of ，。？！；：, and at least two lines; otherwise 0.
int regular_line(const Text& poem);

// Token 0 ends a poem; token 1 is the unknown character; then every character that the
// training text has at least twice, the most frequent first (ties by code point). A character
// seen once in training is unknown, so that the unknown token is trained too.
struct Vocabulary {
  std::vector<char32_t> chars;  // chars[id] for ids from 2; chars[0] = '\n', chars[1] = U+FFFD
  std::map<char32_t, std::int32_t> ids;
  std::int32_t id(char32_t c) const;
};
inline constexpr std::int32_t kEndToken = 0, kUnknownToken = 1;

Vocabulary build_vocabulary(const std::vector<Text>& training);

// Poems as one stream of ids, each poem followed by the end token.
std::vector<std::int32_t> encode(const Vocabulary& v, const std::vector<Text>& poems);

}  // namespace attention
