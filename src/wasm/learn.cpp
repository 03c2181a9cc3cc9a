// learn.cpp: lesson 4's bindings, how attention learns (backward.hpp, learn.hpp): the gradients
// of a call beside its forward trace, and gradient descent as the labs run it.
#include "../learn.hpp"

#include "convert.hpp"
#include "inside.hpp"

namespace {

using attention::Index;
using attention::Matrix;
using namespace attention::wasm;

// { output, weights? }: what the loss gives, dL/d(output) and its own dL/d(weights)
attention::LossGradients read_loss(const val& js) {
  attention::LossGradients loss{Matrix<double>(read_matrix(js["output"]).view()), {}};
  if (!js["weights"].isUndefined()) loss.weights = read_matrix(js["weights"]).view();
  return loss;
}

val attention_backward(val q, val k, val v, val loss, val options) {
  const JsMatrix Q = read_matrix(q), K = read_matrix(k), V = read_matrix(v);
  return to_js(attention::attend_backward(Q.view(), K.view(), V.view(), read_loss(loss),
                                          read_options(options)));
}

val self_attention_backward(val x, val w_q, val w_k, val w_v, val loss, val options) {
  const JsMatrix X = read_matrix(x), W_Q = read_matrix(w_q), W_K = read_matrix(w_k),
                 W_V = read_matrix(w_v);
  return to_js(attention::self_attention_backward(X.view(), W_Q.view(), W_K.view(), W_V.view(),
                                                  read_loss(loss), read_options(options)));
}

val multi_head_backward(val x, val weights, val d_output, val options) {
  const JsMatrix X = read_matrix(x), D = read_matrix(d_output);
  return to_js(attention::multi_head_backward(X.view(), read_weights(weights), D.view(),
                                              read_multi_head_options(options)));
}

val sharpness_descent(val q, val k, val v, double target, double alpha, double eta, double steps) {
  const JsMatrix Q = read_matrix(q), K = read_matrix(k), V = read_matrix(v);
  return to_js(
      attention::sharpness_descent(Q.view(), K.view(), V.view(), target, alpha, eta, Index(steps)));
}

val teach_descent(val x, val w_q, val w_k, val w_v, double row, double key, double eta,
                  double steps) {
  const JsMatrix X = read_matrix(x), W_Q = read_matrix(w_q), W_K = read_matrix(w_k),
                 W_V = read_matrix(w_v);
  return to_js(attention::teach_descent(X.view(), W_Q.view(), W_K.view(), W_V.view(), Index(row),
                                        Index(key), eta, Index(steps)));
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_learn) {
  emscripten::function("attentionBackward", &attention_backward);
  emscripten::function("selfAttentionBackward", &self_attention_backward);
  emscripten::function("multiHeadBackward", &multi_head_backward);
  emscripten::function("sharpnessDescent", &sharpness_descent);
  emscripten::function("teachDescent", &teach_descent);
  register_results<attention::AttentionBackward, attention::MultiHeadBackward,
                   attention::SharpnessStep, attention::TeachRun>();
}
