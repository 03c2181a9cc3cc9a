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
  Matrix<double> output;   // (n_q, d_v)  dO = dL/d(output), as given
  Matrix<double> dropped;  // (n_q, n_k)  dO·Vᵀ; empty without dropout
  Matrix<double> weights;  // (n_q, n_k)  dO·Vᵀ, with dropout ⊙ keep/(1−p); + the loss's own
  Vector<double> row_dot;  // (n_q)       Σ_j weights ⊙ d(weights)
  Matrix<double> masked;   // (n_q, n_k)  d(logits) when there is a mask; empty without one
  Matrix<double> scaled;   // (n_q, n_k)  d(logits), 0 where the mask replaced the cell
  Matrix<double> scores;   // (n_q, n_k)  scale · d(scaled)
  Matrix<double> q;        // (n_q, d_k)  d(scores)·K
  Matrix<double> k;        // (n_k, d_k)  d(scores)ᵀ·Q
  Matrix<double> v;        // (n_k, d_v)  (dropped or weights)ᵀ·dO
  // self_attention_backward only
  Matrix<double> x;              // (n, d_model)
  Matrix<double> w_q, w_k, w_v;  // (d_model, d_k), (d_model, d_k), (d_model, d_v)

  static constexpr const char* kName = "AttentionGradients";
  static constexpr auto fields() {
    return std::tuple{field("output", &AttentionGradients::output),
                      field("dropped", &AttentionGradients::dropped),
                      field("weights", &AttentionGradients::weights),
                      field("row_dot", &AttentionGradients::row_dot),
                      field("masked", &AttentionGradients::masked),
                      field("scaled", &AttentionGradients::scaled),
                      field("scores", &AttentionGradients::scores),
                      field("q", &AttentionGradients::q),
                      field("k", &AttentionGradients::k),
                      field("v", &AttentionGradients::v),
                      field("x", &AttentionGradients::x),
                      field("wq", &AttentionGradients::w_q),
                      field("wk", &AttentionGradients::w_k),
                      field("wv", &AttentionGradients::w_v)};
  }
};

// The forward trace and the gradients of one call.
struct AttentionBackward {
  Trace<double> trace;
  AttentionGradients gradients;

  static constexpr const char* kName = "AttentionBackward";
  static constexpr auto fields() {
    return std::tuple{field("trace", &AttentionBackward::trace),
                      field("gradients", &AttentionBackward::gradients)};
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
  Matrix<double> output;                 // (n, d_model)       dO, as given
  Matrix<double> w_o;                    // (h·d_head, d_model) concatᵀ·dO
  Matrix<double> concat;                 // (n, h·d_head)      dO·W_Oᵀ
  std::vector<AttentionGradients> head;  // (h) on each head's q, k, v
  Matrix<double> q_rotated, k_rotated;   // (n, h·d_head), (n, h_kv·d_head) with RoPE; else empty
  Matrix<double> q, k, v;                // d of X·W_Q (n, h·d_head), X·W_K and X·W_V
  Matrix<double> w_q, w_k, w_v;          // (d_model, h·d_head), (d_model, h_kv·d_head) ×2
  Matrix<double> x;                      // (n, d_model): also d of X + PE with sinusoidal positions

  static constexpr const char* kName = "MultiHeadGradients";
  static constexpr auto fields() {
    return std::tuple{field("output", &MultiHeadGradients::output),
                      field("wo", &MultiHeadGradients::w_o),
                      field("concat", &MultiHeadGradients::concat),
                      field("q_rotated", &MultiHeadGradients::q_rotated),
                      field("k_rotated", &MultiHeadGradients::k_rotated),
                      field("q", &MultiHeadGradients::q),
                      field("k", &MultiHeadGradients::k),
                      field("v", &MultiHeadGradients::v),
                      field("wq", &MultiHeadGradients::w_q),
                      field("wk", &MultiHeadGradients::w_k),
                      field("wv", &MultiHeadGradients::w_v),
                      field("x", &MultiHeadGradients::x),
                      field("heads", &MultiHeadGradients::head)};
  }
};

struct MultiHeadBackward {
  MultiHeadTrace trace;
  MultiHeadGradients gradients;

  static constexpr const char* kName = "MultiHeadBackward";
  static constexpr auto fields() {
    return std::tuple{field("trace", &MultiHeadBackward::trace),
                      field("gradients", &MultiHeadBackward::gradients)};
  }
};

Result<MultiHeadBackward> multi_head_backward(const MatrixRef<double>& X,
                                              const MultiHeadWeights& weights,
                                              const MatrixRef<double>& d_output,
                                              const MultiHeadOptions& options = {});

}  // namespace attention
