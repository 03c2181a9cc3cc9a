// backward.cpp: the gradients of backward.hpp, written from the forward trace's saved steps,
// one numbered pass per step, last step first.
#include "backward.hpp"

#include <string>
#include <utility>

#include "random.hpp"
#include "support.hpp"

namespace attention {
namespace {

// "dL/d(weights)": how messages name a gradient.
std::string d(const std::string& name) { return "dL/d(" + name + ")"; }

// A gradient the loss gives against the step it belongs to: its shape, and finite numbers.
std::string check_given(const std::string& name, const MatrixRef<double>& given,
                        const Matrix<double>& step) {
  if (given.rows() != step.rows() || given.cols() != step.cols()) {
    return d(name) + " is " + shape(given.rows(), given.cols()) + " but " + name + " is " +
           shape(step.rows(), step.cols()) + " (one gradient per number)";
  }
  return check_finite(d(name), given.data(), given.rows(), given.cols());
}

std::string check_loss(const LossGradients& loss, const Trace<double>& t) {
  if (auto e = check_given("output", loss.output, t.output); !e.empty()) return e;
  return loss.weights.size() > 0 ? check_given("weights", loss.weights, t.weights) : "";
}

// The first gradient that overflowed, named with its step, cell and formula.
template <typename Formula>
std::string overflowed(const std::string& where, const std::string& name, const Matrix<double>& m,
                       Formula formula) {
  return check_overflow(d(name), m, formula, where);
}

// pass 5, output = (dropped or weights)·V: dV = (dropped or weights)ᵀ·dO, d(weights) = dO·Vᵀ,
// through the forward's own kept cells when there is dropout, plus the loss's own d(weights).
std::string output_back(const Trace<double>& t, const MatrixRef<double>& V, const Options& options,
                        const LossGradients& loss, AttentionGradients& g,
                        const std::string& where) {
  const Index n_q = t.weights.rows(), n_k = t.weights.cols();
  const bool dropout = options.dropout_p > 0;
  g.output = loss.output;
  const Matrix<double> dO_Vt = g.output.lazyProduct(V.transpose());  // (n_q, n_k)
  const std::string first = dropout ? "dropped" : "weights";
  if (auto e = overflowed(where, first, dO_Vt,
                          [&](Index i, Index j) { return d("output") + row(i) + "·V" + row(j); });
      !e.empty()) {
    return e;
  }
  if (dropout) {
    SplitMix64 rng(options.seed);
    const Mask keep = dropout_keep(rng, options.dropout_p, n_q, n_k);
    g.dropped = dO_Vt;
    g.weights = keep.select(dO_Vt / (1.0 - options.dropout_p), 0.0);
    if (auto e =
            overflowed(where, "weights", g.weights,
                       [](Index i, Index j) { return d("dropped") + cell(i, j) + " / (1 − p)"; });
        !e.empty()) {
      return e;
    }
  } else {
    g.weights = dO_Vt;
  }
  if (loss.weights.size() > 0) {
    g.weights += loss.weights;
    if (auto e = overflowed(where, "weights", g.weights,
                            [](Index i, Index j) {
                              return d("output") + row(i) + "·V" + row(j) + " + the loss's own";
                            });
        !e.empty()) {
      return e;
    }
  }
  const Matrix<double>& P = dropout ? t.dropped : t.weights;
  g.v = P.transpose().lazyProduct(g.output);  // (n_k, d_v)
  if (auto e = overflowed(where, "V", g.v,
                          [&](Index i, Index j) {
                            return "Σ " + first + "[k]" + row(i) + "·" + d("output") + "[k]" +
                                   row(j);
                          });
      !e.empty()) {
    return e;
  }
  return {};
}

// pass 4, weights = softmax(logits): d(logits) = weights ⊙ (d(weights) − row_dot). A weight
// of 0 (a key masked with −∞, every key of a blocked row) passes no gradient.
std::string softmax_back(const Trace<double>& t, AttentionGradients& g, const std::string& where,
                         Matrix<double>& d_logits) {
  const Index n_q = t.weights.rows(), n_k = t.weights.cols();
  g.row_dot = (t.weights.array() * g.weights.array()).rowwise().sum();
  d_logits.resize(n_q, n_k);
  for (Index i = 0; i < n_q; ++i)
    for (Index j = 0; j < n_k; ++j)
      d_logits(i, j) =
          t.weights(i, j) == 0 ? 0.0 : t.weights(i, j) * (g.weights(i, j) - g.row_dot(i));
  const std::string logits = t.masked.size() > 0 ? "masked" : "scaled";
  if (auto e = overflowed(where, logits, d_logits,
                          [&](Index i, Index j) {
                            return "weights" + cell(i, j) + "·(" + d("weights") + cell(i, j) +
                                   " − Σ_k weights" + row(i) + "[k]·" + d("weights") + row(i) +
                                   "[k])";
                          });
      !e.empty()) {
    return e;
  }
  return {};
}

// The passes 5 … 1 on the forward trace t of Q (n_q, d_k), K (n_k, d_k) and V (n_k, d_v), with
// dO (n_q, d_v). `where` prefixes messages ("head 2: ").
std::string run_backward(const Trace<double>& t, const MatrixRef<double>& Q,
                         const MatrixRef<double>& K, const MatrixRef<double>& V,
                         const Options& options, const LossGradients& loss, AttentionGradients& g,
                         const std::string& where = "") {
  if (auto e = output_back(t, V, options, loss, g, where); !e.empty()) return e;
  Matrix<double> d_logits;
  if (auto e = softmax_back(t, g, where, d_logits); !e.empty()) return e;
  const Index n_q = Q.rows(), n_k = K.rows();
  // pass 3, masked: a cell the mask replaced does not depend on its scaled score
  if (t.masked.size() > 0) {
    g.masked = d_logits;
    for (Index i = 0; i < n_q; ++i)
      for (Index j = 0; j < n_k; ++j)
        if (blocked(options, i, j)) d_logits(i, j) = 0;
  }
  g.scaled = std::move(d_logits);

  // pass 2, scaled = scores × scale
  g.scores = g.scaled * t.scale;
  if (auto e = overflowed(where, "scores", g.scores,
                          [](Index i, Index j) { return d("scaled") + cell(i, j) + " × scale"; });
      !e.empty()) {
    return e;
  }

  // pass 1, scores = Q·Kᵀ: dQ = d(scores)·K (n_q, d_k), dK = d(scores)ᵀ·Q (n_k, d_k)
  g.q = g.scores.lazyProduct(K);
  g.k = g.scores.transpose().lazyProduct(Q);
  if (auto e = overflowed(where, "Q", g.q,
                          [](Index i, Index j) {
                            return d("scores") + row(i) + "·(column " + std::to_string(j + 1) +
                                   " of K)";
                          });
      !e.empty()) {
    return e;
  }
  return overflowed(where, "K", g.k, [](Index i, Index j) {
    return "Σ " + d("scores") + "[k]" + row(i) + "·Q[k]" + row(j);
  });
}

// The projections of X (n, d_model): dW = Xᵀ·d(X·W) for each, and dX = Σ d(X·W)·Wᵀ.
std::string project_back(const Matrix<double>& X, const Matrix<double>& d_q,
                         const Matrix<double>& d_k, const Matrix<double>& d_v,
                         const MatrixRef<double>& W_Q, const MatrixRef<double>& W_K,
                         const MatrixRef<double>& W_V, Matrix<double>& d_wq, Matrix<double>& d_wk,
                         Matrix<double>& d_wv, Matrix<double>& d_x) {
  d_wq = X.transpose().lazyProduct(d_q);
  d_wk = X.transpose().lazyProduct(d_k);
  d_wv = X.transpose().lazyProduct(d_v);
  d_x = d_q.lazyProduct(W_Q.transpose()) + d_k.lazyProduct(W_K.transpose()) +
        d_v.lazyProduct(W_V.transpose());
  for (auto [name, m, of] : {std::tuple{"W_Q", &d_wq, "Q"}, std::tuple{"W_K", &d_wk, "K"},
                             std::tuple{"W_V", &d_wv, "V"}}) {
    if (auto e = overflowed("", name, *m,
                            [of = std::string(of)](Index i, Index j) {
                              return "Σ X[k]" + row(i) + "·" + d(of) + "[k]" + row(j);
                            });
        !e.empty()) {
      return e;
    }
  }
  return overflowed("", "X", d_x, [](Index i, Index j) {
    return d("Q") + row(i) + "·W_Q" + row(j) + " + " + d("K") + row(i) + "·W_K" + row(j) + " + " +
           d("V") + row(i) + "·W_V" + row(j);
  });
}

// RoPE's rotation transposed: each pair (a, b) of d(rotated) turns back by the same angle.
Matrix<double> unrotate(const Matrix<double>& d_rotated, const RotaryTrace& rotary, Index d_head) {
  Matrix<double> out(d_rotated.rows(), d_rotated.cols());
  for (Index p = 0; p < d_rotated.rows(); ++p)
    for (Index block = 0; block < d_rotated.cols(); block += d_head)
      for (Index i = 0; i < d_head / 2; ++i) {
        const double a = d_rotated(p, block + 2 * i), b = d_rotated(p, block + 2 * i + 1);
        const double c = rotary.angles.cos(p, i), s = rotary.angles.sin(p, i);
        out(p, block + 2 * i) = a * c + b * s;
        out(p, block + 2 * i + 1) = -a * s + b * c;
      }
  return out;
}

}  // namespace

Result<AttentionBackward> attend_backward(const MatrixRef<double>& Q, const MatrixRef<double>& K,
                                          const MatrixRef<double>& V, const LossGradients& loss,
                                          const Options& options) {
  Result<Trace<double>> forward = attend<double>(Q, K, V, options);
  if (!forward.ok()) return {{}, forward.error};
  AttentionBackward out{std::move(forward.value), {}};
  if (auto e = check_loss(loss, out.trace); !e.empty()) return {{}, e};
  if (auto e = run_backward(out.trace, Q, K, V, options, loss, out.gradients); !e.empty()) {
    return {{}, e};
  }
  return {std::move(out), {}};
}

Result<AttentionBackward> self_attention_backward(
    const MatrixRef<double>& X, const MatrixRef<double>& W_Q, const MatrixRef<double>& W_K,
    const MatrixRef<double>& W_V, const LossGradients& loss, const Options& options) {
  Result<Trace<double>> forward = self_attention<double>(X, W_Q, W_K, W_V, options);
  if (!forward.ok()) return {{}, forward.error};
  AttentionBackward out{std::move(forward.value), {}};
  const Trace<double>& t = out.trace;
  AttentionGradients& g = out.gradients;
  if (auto e = check_loss(loss, t); !e.empty()) return {{}, e};
  if (auto e = run_backward(t, t.q, t.k, t.v, options, loss, g); !e.empty()) return {{}, e};
  if (auto e = project_back(X, g.q, g.k, g.v, W_Q, W_K, W_V, g.w_q, g.w_k, g.w_v, g.x);
      !e.empty()) {
    return {{}, e};
  }
  return {std::move(out), {}};
}

Result<MultiHeadBackward> multi_head_backward(const MatrixRef<double>& X,
                                              const MultiHeadWeights& weights,
                                              const MatrixRef<double>& d_output,
                                              const MultiHeadOptions& options) {
  Result<MultiHeadTrace> forward = multi_head_attention(X, weights, options);
  if (!forward.ok()) return {{}, forward.error};
  MultiHeadBackward out{std::move(forward.value), {}};
  const MultiHeadTrace& t = out.trace;
  MultiHeadGradients& g = out.gradients;
  if (auto e = check_given("output", d_output, t.output); !e.empty()) return {{}, e};
  const Index n = t.x.rows(), dh = t.d_head;
  // output = concat·W_O: dW_O = concatᵀ·dO (h·d_head, d_model), d(concat) = dO·W_Oᵀ (n, h·d_head)
  g.output = d_output;
  g.w_o = t.concat.transpose().lazyProduct(g.output);
  g.concat = g.output.lazyProduct(weights.W_O.transpose());
  if (auto e = overflowed("", "concat", g.concat,
                          [](Index i, Index j) { return d("output") + row(i) + "·W_O" + row(j); });
      !e.empty()) {
    return {{}, e};
  }
  // each head on its own columns; the key-value heads' gradients summed over their query heads
  Options head_options;
  head_options.scale = options.scale;
  head_options.mask_kind = options.causal ? MaskKind::kCausal : MaskKind::kNone;
  Matrix<double> d_q = Matrix<double>::Zero(n, t.heads * dh);     // (n, h·d_head)
  Matrix<double> d_k = Matrix<double>::Zero(n, t.kv_heads * dh);  // (n, h_kv·d_head)
  Matrix<double> d_v = Matrix<double>::Zero(n, t.kv_heads * dh);  // (n, h_kv·d_head)
  g.head.resize(size_t(t.heads));
  for (Index i = 0; i < t.heads; ++i) {
    const Trace<double>& head = t.head[size_t(i)];
    const LossGradients d_out{g.concat.middleCols(i * dh, dh), {}};
    AttentionGradients& hg = g.head[size_t(i)];
    if (auto e = run_backward(head, head.q, head.k, head.v, head_options, d_out, hg,
                              "head " + std::to_string(i + 1) + ": ");
        !e.empty()) {
      return {{}, e};
    }
    const Index kv = t.kv_head[size_t(i)];
    d_q.middleCols(i * dh, dh) = hg.q;
    d_k.middleCols(kv * dh, dh) += hg.k;
    d_v.middleCols(kv * dh, dh) += hg.v;
  }
  // RoPE rotated q and k: their gradients turn back
  if (t.q_rotated) {
    g.q_rotated = std::move(d_q);
    g.k_rotated = std::move(d_k);
    g.q = unrotate(g.q_rotated, *t.q_rotated, dh);
    g.k = unrotate(g.k_rotated, *t.k_rotated, dh);
  } else {
    g.q = std::move(d_q);
    g.k = std::move(d_k);
  }
  g.v = std::move(d_v);
  for (auto [name, m] : {std::pair{"Q", &g.q}, std::pair{"K", &g.k}, std::pair{"V", &g.v}}) {
    if (auto e = overflowed(
            "", name, *m, [](Index i, Index j) { return "the heads' gradients at" + cell(i, j); });
        !e.empty()) {
      return {{}, e};
    }
  }
  if (auto e = project_back(t.x, g.q, g.k, g.v, weights.W_Q, weights.W_K, weights.W_V, g.w_q, g.w_k,
                            g.w_v, g.x);
      !e.empty()) {
    return {{}, e};
  }
  if (auto e = overflowed("", "W_O", g.w_o,
                          [](Index i, Index j) {
                            return "Σ concat[k]" + row(i) + "·" + d("output") + "[k]" + row(j);
                          });
      !e.empty()) {
    return {{}, e};
  }
  return {std::move(out), {}};
}

}  // namespace attention
