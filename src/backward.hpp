// backward.hpp: how attention learns. Given dL/d(output), the gradient of a loss L with respect
// to every step of the forward trace and every input, in double, so that a learner can check
// each number by hand. Each gradient is named as the forward step it belongs to:
// gradients.scores is dL/d(scores). The passes run the forward steps backwards:
//   5 output:   dV = weightsᵀ·dO            d(weights) = dO·Vᵀ
//               (with dropout: dV = droppedᵀ·dO, d(dropped) = dO·Vᵀ,
//                d(weights) = d(dropped) ⊙ keep/(1−p), the forward's own kept cells)
//   4 weights:  d(logits) = weights ⊙ (d(weights) − row_dot), row_dot = Σ_j weights ⊙ d(weights)
//   3 masked:   d(scaled) = d(masked), 0 where the mask replaced the cell
//   2 scaled:   d(scores) = scale · d(scaled)
//   1 scores:   dQ = d(scores)·K            dK = d(scores)ᵀ·Q
//   projections (self-attention): dW_Q = Xᵀ·dQ, dW_K = Xᵀ·dK, dW_V = Xᵀ·dV,
//               dX = dQ·W_Qᵀ + dK·W_Kᵀ + dV·W_Vᵀ
// A loss may also put a gradient on the weights themselves (a cross-entropy of a row of weights
// against the key it should attend to): LossGradients::weights is added to dO·Vᵀ in pass 5.
// A cell masked with −∞ has weight 0, so its d(logits) is 0; a row whose keys are all masked
// with −∞ has d(logits), d(scores) and dQ of 0, never NaN. With a finite mask value (−1e9) such
// a row is an ordinary softmax row: its weights and d(masked) are not 0.
//
// Same conventions as attention.hpp: no exceptions, a Result whose error names the argument,
// the step and the cell (rows and columns from 1).
#pragma once

#include <vector>

#include "attention.hpp"
#include "multihead.hpp"

namespace attention {

struct AttentionGradients {
  Matrix<double> output;
  Matrix<double> dropped;
  Matrix<double> weights;
  Vector<double> row_dot;
  Matrix<double> masked;
  Matrix<double> scaled;
  Matrix<double> scores;
  Matrix<double> q;
  Matrix<double> k;
  Matrix<double> v;
  // self_attention_backward only
  Matrix<double> x;
  Matrix<double> w_q, w_k, w_v;

  static constexpr const char* kName = "AttentionGradients";
  static constexpr auto fields() {
    return std::tuple{
        field("output", &AttentionGradients::output, "(n_q, d_v) dL/d(output), as given"),
        sometimes("dropped", &AttentionGradients::dropped, "Only with dropout."),
        field("weights", &AttentionGradients::weights,
              "(n_q, n_k) dO·Vᵀ (with dropout, dropped ⊙ keep/(1−p)), plus the loss's own "
              "dL/d(weights)"),
        field("row_dot", &AttentionGradients::row_dot,
              "Σ_j weights ⊙ d(weights), for each query row."),
        sometimes(
            "masked", &AttentionGradients::masked,
            "Only with a mask: the gradient of the logits, before the mask's cells are zeroed."),
        field("scaled", &AttentionGradients::scaled,
              "(n_q, n_k) dL/d(logits): weights ⊙ (d(weights) − rowDot), 0 where the mask replaced "
              "a cell"),
        field("scores", &AttentionGradients::scores, "(n_q, n_k) scale · d(scaled)"),
        field("q", &AttentionGradients::q, "(n_q, d_k) d(scores)·K"),
        field("k", &AttentionGradients::k, "(n_k, d_k) d(scores)ᵀ·Q"),
        field("v", &AttentionGradients::v, "(n_k, d_v) (dropped or weights)ᵀ·dO"),
        sometimes("x", &AttentionGradients::x,
                  "(n, d_model) selfAttentionBackward's only, as wq, wk and wv (see "
                  "SelfAttentionGradients)"),
        sometimes("wq", &AttentionGradients::w_q,
                  "(d_model, d_k) Xᵀ·dQ: `selfAttentionBackward` only"),
        sometimes("wk", &AttentionGradients::w_k,
                  "(d_model, d_k) Xᵀ·dK: `selfAttentionBackward` only"),
        sometimes("wv", &AttentionGradients::w_v,
                  "(d_model, d_v) Xᵀ·dV: `selfAttentionBackward` only")};
  }
};

// The forward trace and the gradients of one call.
struct AttentionBackward {
  Trace<double> trace;
  AttentionGradients gradients;

  static constexpr const char* kName = "AttentionBackward";
  static constexpr auto fields() {
    return std::tuple{
        field("trace", &AttentionBackward::trace, "the forward pass, as `attention()` returns it"),
        field("gradients", &AttentionBackward::gradients, "dL/d of every step and input")};
  }
};

// What the loss gives directly: dL/d(output) (n_q, d_v), and optionally dL/d(weights) (n_q, n_k)
// for a loss on the weights themselves (empty: none).
struct LossGradients {
  Matrix<double> output;
  Matrix<double> weights;
};

// Q (n_q, d_k), K (n_k, d_k), V (n_k, d_v). Options as attend()'s.
Result<AttentionBackward> attend_backward(const MatrixRef<double>& Q, const MatrixRef<double>& K,
                                          const MatrixRef<double>& V, const LossGradients& loss,
                                          const Options& options = {});

// X (n, d_model) and the weights as self_attention's.
Result<AttentionBackward> self_attention_backward(
    const MatrixRef<double>& X, const MatrixRef<double>& W_Q, const MatrixRef<double>& W_K,
    const MatrixRef<double>& W_V, const LossGradients& loss, const Options& options = {});

// The gradients of a multi-head layer (multihead.hpp), dO (n, d_model) given:
//   d(concat) = dO·W_Oᵀ, dW_O = concatᵀ·dO; each head's attention gradients on its own q, k
//   and v (after RoPE); the heads' dK and dV summed over the query heads that share a
//   key-value head; RoPE's rotation transposed; then the projections as above.
struct MultiHeadGradients {
  Matrix<double> output;
  Matrix<double> w_o;
  Matrix<double> concat;
  std::vector<AttentionGradients> head;
  Matrix<double> q_rotated, k_rotated;
  Matrix<double> q, k, v;
  Matrix<double> w_q, w_k, w_v;
  Matrix<double> x;

  static constexpr const char* kName = "MultiHeadGradients";
  static constexpr auto fields() {
    return std::tuple{
        field("output", &MultiHeadGradients::output, "(n, d_model) dL/d(output), as given"),
        field("wo", &MultiHeadGradients::w_o, "concatᵀ·dO"),
        field("concat", &MultiHeadGradients::concat, "dO·W_Oᵀ"),
        sometimes("q_rotated", &MultiHeadGradients::q_rotated,
                  "With RoPE: dL/d of the rotated Q and K (the heads' K gradients summed per "
                  "key-value head)."),
        sometimes("k_rotated", &MultiHeadGradients::k_rotated,
                  "(n, h_kv·d_head) with RoPE: dL/d of the rotated K, the heads' summed per "
                  "key-value head"),
        field("q", &MultiHeadGradients::q,
              "dL/d of X·W_Q, X·W_K and X·W_V (RoPE's rotation turned back)."),
        field("k", &MultiHeadGradients::k,
              "(n, h_kv·d_head) dL/d(X·W_K), RoPE's rotation turned back"),
        field("v", &MultiHeadGradients::v, "(n, h_kv·d_head) dL/d(X·W_V)"),
        field("wq", &MultiHeadGradients::w_q, "(d_model, h·d_head)"),
        field("wk", &MultiHeadGradients::w_k, "(d_model, h_kv·d_head)"),
        field("wv", &MultiHeadGradients::w_v, "(d_model, h_kv·d_head)"),
        field("x", &MultiHeadGradients::x,
              "(n, d_model); also dL/d(X + PE) with sinusoidal positions"),
        field("heads", &MultiHeadGradients::head,
              "Each query head's, on its own q, k and v (after RoPE).")};
  }
};

struct MultiHeadBackward {
  MultiHeadTrace trace;
  MultiHeadGradients gradients;

  static constexpr const char* kName = "MultiHeadBackward";
  static constexpr auto fields() {
    return std::tuple{field("trace", &MultiHeadBackward::trace,
                            "the forward pass, as `multiHeadAttention()` returns it"),
                      field("gradients", &MultiHeadBackward::gradients, "the layer's gradients")};
  }
};

Result<MultiHeadBackward> multi_head_backward(const MatrixRef<double>& X,
                                              const MultiHeadWeights& weights,
                                              const MatrixRef<double>& d_output,
                                              const MultiHeadOptions& options = {});

}  // namespace attention
