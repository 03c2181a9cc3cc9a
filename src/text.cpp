// text.cpp: a learner's own text to token streams and baselines (text.hpp).
#include "text.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace attention {
namespace {

// 1048576 → "1,048,576"
std::string grouped(std::int64_t n) {
  std::string digits = std::to_string(n), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string hex(std::uint32_t c, int width) {
  static const char* digits = "0123456789ABCDEF";
  std::string out(std::size_t(width), '0');
  for (int k = width - 1; k >= 0; --k, c >>= 4) out[std::size_t(k)] = digits[c & 15];
  return out;
}

// The mean −ln p(b | a) over neighbours (a, b) of a stream.
template <typename P>
double mean_loss(const std::vector<std::int32_t>& stream, const P& p) {
  double sum = 0;
  for (std::size_t i = 1; i < stream.size(); ++i) sum -= std::log(p(stream[i - 1], stream[i]));
  return sum / double(stream.size() - 1);
}

}  // namespace

Result<Text> read_text(const std::string& s) {
  Text out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const auto b = static_cast<unsigned char>(s[i]);
    const std::size_t n = b < 0x80         ? 1
                          : (b >> 5) == 6  ? 2
                          : (b >> 4) == 14 ? 3
                          : (b >> 3) == 30 ? 4
                                           : 0;
    const auto not_utf8 = [&] {
      return Result<Text>{{},
                          "the text is not UTF-8: the bytes from byte " +
                              grouped(std::int64_t(i) + 1) + " (0x" + hex(b, 2) +
                              ") are not a character; is it a binary file?"};
    };
    if (n == 0 || i + n > s.size()) return not_utf8();
    char32_t c = n == 1 ? b : n == 2 ? (b & 0x1F) : n == 3 ? (b & 0x0F) : (b & 0x07);
    for (std::size_t k = 1; k < n; ++k) {
      const auto next = static_cast<unsigned char>(s[i + k]);
      if ((next >> 6) != 2) return not_utf8();
      c = (c << 6) | (next & 0x3F);
    }
    static constexpr char32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
    if (c < smallest[n] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return not_utf8();
    i += n;
    if (c == U'\r') {
      if (i < s.size() && s[i] == '\n') ++i;
      c = U'\n';
    }
    if ((c < 0x20 && c != U'\n' && c != U'\t') || c == 0x7F) {
      return {{},
              "the text holds the control character U+" + hex(std::uint32_t(c), 4) +
                  " at character " + grouped(std::int64_t(out.size()) + 1) +
                  ": is it a binary file?"};
    }
    out.push_back(c);
  }
  return {std::move(out), {}};
}

std::vector<double> unigram_model(std::int32_t vocab, const std::vector<std::int32_t>& train) {
  std::vector<double> unigram(std::size_t(vocab), 1);
  for (const std::int32_t t : train) unigram[std::size_t(t)] += 1;
  for (double& u : unigram) u /= double(train.size() + std::size_t(vocab));
  return unigram;
}

TextBaselines text_baselines(std::int32_t vocab, const std::vector<std::int32_t>& train,
                             const std::vector<std::int32_t>& validation,
                             const std::vector<std::int32_t>& held_out) {
  const auto V = std::size_t(vocab);
  const std::vector<double> unigram = unigram_model(vocab, train);
  // count(a, b) for neighbours in the training stream, and count(a, ·)
  std::unordered_map<std::int64_t, double> pairs;
  std::vector<double> after(V, 0);
  for (std::size_t i = 0; i + 1 < train.size(); ++i) {
    pairs[std::int64_t(train[i]) * vocab + train[i + 1]] += 1;
    after[std::size_t(train[i])] += 1;
  }
  const auto bigram = [&](double lambda) {
    return [&, lambda](std::int32_t a, std::int32_t b) {
      const double u = unigram[std::size_t(b)];
      if (after[std::size_t(a)] == 0) return u;
      const auto found = pairs.find(std::int64_t(a) * vocab + b);
      const double n = found == pairs.end() ? 0 : found->second;
      return lambda * n / after[std::size_t(a)] + (1 - lambda) * u;
    };
  };
  TextBaselines out;
  double best = INFINITY;
  for (int k = 1; k <= 99; ++k) {
    const double lambda = k / 100.0;
    const double loss = mean_loss(validation, bigram(lambda));
    if (loss < best) best = loss, out.lambda = lambda;
  }
  out.uniform = std::log(double(V));
  out.unigram =
      mean_loss(held_out, [&](std::int32_t, std::int32_t b) { return unigram[std::size_t(b)]; });
  out.bigram = mean_loss(held_out, bigram(out.lambda));
  return out;
}

Result<TextCorpus> text_corpus(const std::string& utf8) {
  if (utf8.size() > kMaxTextBytes) {
    return {{},
            "the text has more than " + grouped(kMaxTextBytes) +
                " bytes (1 MiB), the most the lab reads"};
  }
  auto read = read_text(utf8);
  if (!read.ok()) return {{}, read.error};
  const Text& text = read.value;
  TextCorpus out;
  // the pieces, each with whether it ends its line
  std::vector<std::pair<Text, bool>> pieces;
  std::map<char32_t, std::int64_t> seen;
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = text.find(U'\n', start);
    if (end == Text::npos) end = text.size();
    ++out.lines;
    std::size_t at = start;
    do {  // an empty line is one piece too: its end token
      const std::size_t stop = std::min(end, at + kPieceLength);
      pieces.emplace_back(text.substr(at, stop - at), stop == end);
      at = stop;
    } while (at < end);
    for (std::size_t k = start; k < end; ++k) ++seen[text[k]];
    out.characters += std::int64_t(end - start);
    start = end + 1;
  }
  out.distinct = std::int64_t(seen.size());
  out.pieces = std::int64_t(pieces.size());
  std::int64_t blank = 0;
  for (const auto& [c, n] : seen) blank += (c == U' ' || c == U'\t' || c == U'\u3000') ? n : 0;
  if (out.characters == blank) return {{}, "the text is empty: paste or drop a text, or pick one"};
  if (pieces.size() < 10) {
    return {{},
            "the text is too short to hold a tenth of it out: " + grouped(out.lines) +
                (out.lines == 1 ? " line, " : " lines, ") + grouped(out.characters) +
                " characters; it needs 10 lines or 1,000 characters at least"};
  }
  if (seen.size() == 1) {
    return {{},
            "the text is one character only (“" + to_utf8(Text(1, seen.begin()->first)) + "”, " +
                grouped(seen.begin()->second) + " times): a model of it has nothing to learn"};
  }
  std::vector<Text> training;
  for (std::size_t p = 0; p < pieces.size(); ++p)
    if (split_of(p) == Split::kTrain) training.push_back(pieces[p].first);
  Vocabulary vocabulary = build_vocabulary(training);
  if (vocabulary.chars.size() > std::size_t(kMaxVocab)) {
    for (std::size_t t = std::size_t(kMaxVocab); t < vocabulary.chars.size(); ++t)
      vocabulary.ids.erase(vocabulary.chars[t]);
    vocabulary.chars.resize(std::size_t(kMaxVocab));
  }
  if (vocabulary.chars.size() < 4) {
    return {{},
            "only " + std::to_string(vocabulary.chars.size() - 2) + " of the text's " +
                grouped(out.distinct) +
                " characters appear twice in its training part (8 pieces in 10): a model needs "
                "2 at least, or everything it reads is the unknown token"};
  }
  const auto V = std::int32_t(vocabulary.chars.size());
  out.chars = to_utf8(Text(vocabulary.chars.begin() + 2, vocabulary.chars.end()));
  out.counts.assign(std::size_t(V), 0);
  std::vector<std::int32_t>* streams[] = {&out.train, &out.validation, &out.held_out};
  for (std::size_t p = 0; p < pieces.size(); ++p) {
    auto& stream = *streams[int(split_of(p))];
    for (const char32_t c : pieces[p].first) {
      const std::int32_t id = vocabulary.id(c);
      out.unknown += id == kUnknownToken;
      stream.push_back(id);
    }
    if (pieces[p].second) stream.push_back(kEndToken);
  }
  for (const std::int32_t t : out.train) ++out.counts[std::size_t(t)];
  if (out.validation.size() < 2 || out.held_out.size() < 2 || out.train.size() < 2) {
    return {{},
            "the text is too short: its held-out tenth has " +
                grouped(std::int64_t(out.held_out.size())) + " tokens and the part for choosing " +
                grouped(std::int64_t(out.validation.size())) + "; each needs 2 at least"};
  }
  out.unigram = unigram_model(V, out.train);
  out.baselines = text_baselines(V, out.train, out.validation, out.held_out);
  return {std::move(out), {}};
}

}  // namespace attention
