// inside.cpp: lesson 2's bindings, attention inside a model (multihead.hpp): multi-head and
// grouped-query attention, a step of the KV cache, sinusoidal positions and RoPE.
#include "inside.hpp"

#include "../multihead.hpp"
#include "convert.hpp"

namespace attention::wasm {

// { heads, kvHeads, causal, positions: 0 none | 1 sinusoidal | 2 rotary, base, peScale, scale? }
MultiHeadOptions read_multi_head_options(const val& js) {
  MultiHeadOptions o;
  o.heads = js["heads"].as<Index>();
  o.kv_heads = js["kvHeads"].as<Index>();
  o.causal = js["causal"].as<bool>();
  o.positions = static_cast<Positions>(js["positions"].as<int>());
  o.base = js["base"].as<double>();
  o.pe_scale = js["peScale"].as<double>();
  if (!js["scale"].isUndefined()) o.scale = js["scale"].as<double>();
  return o;
}

// { wq, wk, wv, wo }, each { rows, cols, data }
MultiHeadWeights read_weights(const val& w) {
  const auto full = [](const val& js) { return Matrix<double>(read_matrix(js).view()); };
  return {full(w["wq"]), full(w["wk"]), full(w["wv"]), full(w["wo"])};
}

}  // namespace attention::wasm

namespace {

using namespace attention::wasm;

val multi_head_attention(val x, val weights, val options) {
  const JsMatrix X = read_matrix(x);
  return to_js(attention::multi_head_attention(X.view(), read_weights(weights),
                                               read_multi_head_options(options)));
}

val decode_step(val x, val k_cache, val v_cache, val weights, val options) {
  const JsMatrix X = read_matrix(x), K = read_matrix(k_cache), V = read_matrix(v_cache);
  return to_js(attention::decode_step(X.view(), K.view(), V.view(), read_weights(weights),
                                      read_multi_head_options(options)));
}

val sinusoidal_positions(val positions, int d_model, double base) {
  return to_js(attention::sinusoidal_positions(read_numbers<double>(positions), d_model, base));
}

val rotary(val m, val positions, int d_head, double base) {
  const JsMatrix M = read_matrix(m);
  return to_js(attention::rotary(M.view(), read_numbers<double>(positions), d_head, base));
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_inside) {
  emscripten::function("multiHeadAttention", &multi_head_attention);
  emscripten::function("decodeStep", &decode_step);
  emscripten::function("sinusoidalPositions", &sinusoidal_positions);
  emscripten::function("rotary", &rotary);
  register_results<attention::MultiHeadTrace, attention::DecodeStep, attention::SinusoidalTrace,
                   attention::RotaryTrace>();
}
