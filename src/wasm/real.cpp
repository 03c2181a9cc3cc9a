// real.cpp: lesson 6's bindings, the models people use: how a real tokenizer's tokens cover a
// text (tokenized.hpp), the sizes of a real model from its configuration (sizes.hpp), and a
// vocabulary learned by byte-pair encoding (bpe.hpp).
#include "../bpe.hpp"
#include "../sizes.hpp"
#include "../tokenized.hpp"
#include "convert.hpp"

namespace {

using attention::Index;
using namespace attention::wasm;

// text, the tokens' bytes (a Uint8Array, one token after another), their lengths
val tokenized(std::string text, val bytes, val lengths, double context) {
  const auto counts = read_numbers<double>(lengths);
  return to_js(attention::tokenized(text, read_numbers<std::uint8_t>(bytes),
                                    std::vector<Index>(counts.begin(), counts.end()),
                                    Index(context)));
}

val model_size(val shape, double n, double bytes_per_value) {
  return to_js(attention::model_size(read_fields<attention::ModelShape>(shape), Index(n),
                                     Index(bytes_per_value)));
}

// text, { merges, start, presplit }
val bpe_learn(std::string text, val options) {
  return to_js(attention::bpe_learn(text, read_fields<attention::BpeOptions>(options)));
}

// { start, presplit, alphabet }, the merges' token ids (left, right, left, right …: whole numbers
// that web/wasm/real.js has checked), the text
val bpe_encode(val learned, val merges, std::string text) {
  attention::BpeModel model;
  model.start = learned["start"].as<std::string>();
  model.presplit = learned["presplit"].as<bool>();
  model.alphabet = learned["alphabet"].as<std::string>();
  const auto ids = read_numbers<double>(merges);
  for (std::size_t k = 0; k + 1 < ids.size(); k += 2) {
    model.merges.push_back({{std::int64_t(ids[k]), std::int64_t(ids[k + 1])}});
  }
  return to_js(attention::bpe_encode(model, text));
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_real) {
  emscripten::function("tokenized", &tokenized);
  emscripten::function("modelSize", &model_size);
  emscripten::function("bpeLearn", &bpe_learn);
  emscripten::function("bpeEncode", &bpe_encode);
  register_results<attention::Tokenized, attention::ModelSize, attention::ModelShape,
                   attention::BpeTrace, attention::BpeEncoded>();
  register_inputs<attention::ModelShape, attention::BpeOptions>();
}
