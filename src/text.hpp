// text.hpp: a learner's own text as lesson 5 trains a model on it. Any UTF-8 text up to 1 MiB:
// its lines end in the end token (0, the same token that ends a poem in corpus.hpp), a line
// longer than kPieceLength characters is cut into pieces of that length, and the pieces are
// split as the poems are (split_of: every tenth held out, the one before it for choosing). The
// vocabulary is corpus.hpp's, built from the training pieces, with at most kMaxVocab tokens.
// Beside it, what three simpler models score on the held-out pieces: the levels a model of the
// text must beat.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "attention.hpp"
#include "corpus.hpp"

namespace attention {

inline constexpr std::size_t kMaxTextBytes = 1 << 20;
inline constexpr std::size_t kPieceLength = 100;
inline constexpr std::int32_t kMaxVocab = 2000;

// The held-out loss of three models, each the mean −ln p of every token of the held-out stream
// after its first: uniform (ln V); unigram, the training stream's counts with one more each;
// bigram, λ·count(a, b)/count(a, ·) + (1 − λ)·unigram(b), λ on a grid of 0.01 chosen on the
// validation stream (a token never followed in training: its unigram alone).
struct TextBaselines {
  double uniform = 0, unigram = 0, bigram = 0, lambda = 0;

  static constexpr const char* kName = "TextBaselines";
  static constexpr auto fields() {
    return std::tuple{
        field("uniform", &TextBaselines::uniform, "ln V: every token equally likely"),
        field("unigram", &TextBaselines::unigram, "the held-out loss of the unigram model"),
        field("bigram", &TextBaselines::bigram,
              "the held-out loss of the bigram model mixed with the unigram"),
        field("lambda", &TextBaselines::lambda,
              "the bigram's share λ, on a grid of 0.01, chosen on `validation`")};
  }
};

struct TextCorpus {
  std::string chars;
  std::vector<std::int32_t> counts;
  std::vector<double> unigram;
  std::vector<std::int32_t> train, validation, held_out;
  std::int64_t characters = 0;
  std::int64_t lines = 0, pieces = 0;
  std::int64_t distinct = 0;
  std::int64_t unknown = 0;
  TextBaselines baselines;

  static constexpr const char* kName = "TextCorpus";
  static constexpr auto fields() {
    return std::tuple{
        field("chars", &TextCorpus::chars,
              "the vocabulary from token 2, most frequent first (V − 2 of them)"),
        field("counts", &TextCorpus::counts, "(V) each token's count n in the training stream"),
        field("unigram", &TextCorpus::unigram, "(V) the unigram model's p: (n + 1) / (N + V)"),
        field("train", &TextCorpus::train, "the training stream, token ids"),
        field("validation", &TextCorpus::validation, "the stream for choosing"),
        field("held_out", &TextCorpus::held_out, "the held-out stream"),
        field("characters", &TextCorpus::characters, "in the text, line ends not counted"),
        field("lines", &TextCorpus::lines, "the text's lines"),
        field("pieces", &TextCorpus::pieces, "the lines cut at 100 characters"),
        field("distinct", &TextCorpus::distinct, "characters the text has, known or not"),
        field("unknown", &TextCorpus::unknown, "characters of the text read as the unknown token"),
        field("baselines", &TextCorpus::baselines, "the held-out loss of three simpler models")};
  }
};

// The text as UTF-8 code points, "\r\n" and "\r" read as "\n"; an error that says where the
// bytes are not UTF-8, or where a control character (other than tab and line ends) shows that
// it is not a text.
Result<Text> read_text(const std::string& utf8);

// The corpus of a text, or an error that says what is missing: an empty text, one too short to
// hold a tenth out, one character only, no character seen twice in the training pieces.
Result<TextCorpus> text_corpus(const std::string& utf8);

// The unigram model of a training stream of N tokens below `vocab`: (count + 1) / (N + V).
std::vector<double> unigram_model(std::int32_t vocab, const std::vector<std::int32_t>& train);

// The baselines for streams of tokens below `vocab` (train and validation not empty, held_out
// at least two tokens).
TextBaselines text_baselines(std::int32_t vocab, const std::vector<std::int32_t>& train,
                             const std::vector<std::int32_t>& validation,
                             const std::vector<std::int32_t>& held_out);

}  // namespace attention
