// real.cpp: lesson 6's bindings, the models people use: how a real tokenizer's tokens cover a
// text (tokenized.hpp) and the sizes of a real model from its configuration (sizes.hpp).
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

}  // namespace

EMSCRIPTEN_BINDINGS(attention_real) {
  emscripten::function("tokenized", &tokenized);
  emscripten::function("modelSize", &model_size);
  register_results<attention::Tokenized, attention::ModelSize, attention::ModelShape>();
}
