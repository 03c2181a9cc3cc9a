// why.cpp: lesson 3's bindings, why attention is built this way (why.hpp): the tiled online
// softmax, the 1/√d_k statistics and dropout over many draws. Counts arrive as doubles that
// web/wasm/why.js has checked to be whole numbers.
#include "../why.hpp"

#include "convert.hpp"

namespace {

using attention::Index;
using namespace attention::wasm;

val tiled_attention(val q, val k, val v, double block, val options) {
  const JsMatrix Q = read_matrix(q), K = read_matrix(k), V = read_matrix(v);
  return to_js(attention::tiled_attention(Q.view(), K.view(), V.view(), Index(block),
                                          read_options(options)));
}

val scaling_batch(double d_k, double n_keys, double rows, double seed) {
  return to_js(attention::scaling_batch(Index(d_k), Index(n_keys), Index(rows),
                                        static_cast<std::uint64_t>(seed)));
}

val scaling_stats(double d_k, double n_keys, double rows, double seed) {
  return to_js(attention::scaling_stats(Index(d_k), Index(n_keys), Index(rows),
                                        static_cast<std::uint64_t>(seed)));
}

val dropout_stats(val q, val k, val v, val options, double draws) {
  const JsMatrix Q = read_matrix(q), K = read_matrix(k), V = read_matrix(v);
  return to_js(
      attention::dropout_stats(Q.view(), K.view(), V.view(), read_options(options), Index(draws)));
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_why) {
  emscripten::function("tiledAttention", &tiled_attention);
  emscripten::function("scalingBatch", &scaling_batch);
  emscripten::function("scalingStats", &scaling_stats);
  emscripten::function("dropoutStats", &dropout_stats);
  register_results<attention::TiledTrace, attention::ScalingBatch, attention::ScalingStats,
                   attention::DropoutStats>();
}
