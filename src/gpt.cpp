// gpt.cpp: the small transformer of gpt.hpp. The parameters are read through named views of
// the flat buffer (GptParams, llm.c's ParameterTensors); each layer is a forward function and a
// backward function with the same names, their inputs and outputs as arguments; the backward
// reads what the forward saved, and both passes write into a GptWork's buffers, which a trainer
// keeps from one step to the next. Products, the softmaxes, LayerNorm, GELU and AdamW are
// Eigen's and std's, except for float in WebAssembly, where they are gpt_kernel.hpp's SIMD
// kernels, each with the bits of the Eigen code beside it (and the products read the weights'
// transposes, made once a step); each (sequence, head) attends over its own T×T block.
#include "gpt.hpp"

#include <cmath>
#include <limits>
#include <type_traits>
#include <utility>

#include "gpt_kernel.hpp"
#include "random.hpp"
#include "support.hpp"

namespace attention {
namespace {

constexpr double kLnEps = 1e-5;
// Every matrix of a model's pass holds at most this many numbers (the logits are the largest).
constexpr std::int64_t kMaxGptValues = std::int64_t{1} << 25;
constexpr const char* kGradientOverflow = "a gradient overflows: the loss is too steep";

// ---- the parameters ----

// A layer's tensors, in the layout's order: their shape in units of C (0 rows: a vector, one
// row), whether AdamW decays them, and how they start.
struct LayerTensor {
  const char* name;
  Index rows, cols;
  bool decay;
  GptInit init;
  bool mlp;  // the MLP's: absent from a model without MLPs
};
constexpr LayerTensor kLayerTensors[] = {
    {"ln1_g", 0, 1, false, GptInit::kOne, false},
    {"ln1_b", 0, 1, false, GptInit::kZero, false},
    {"w_q", 1, 1, true, GptInit::kNormal, false},
    {"w_k", 1, 1, true, GptInit::kNormal, false},
    {"w_v", 1, 1, true, GptInit::kNormal, false},
    {"w_o", 1, 1, true, GptInit::kResidual, false},
    {"ln2_g", 0, 1, false, GptInit::kOne, true},
    {"ln2_b", 0, 1, false, GptInit::kZero, true},
    {"w_fc", 1, 4, true, GptInit::kNormal, true},
    {"b_fc", 0, 4, false, GptInit::kZero, true},
    {"w_proj", 4, 1, true, GptInit::kResidual, true},
    {"b_proj", 0, 1, false, GptInit::kZero, true},
};

// A tensor of the flat buffer as a row-major matrix: P is const F for the parameters, F for
// their gradients.
template <typename P>
using View = Eigen::Map<
    std::conditional_t<std::is_const_v<P>, const Matrix<std::remove_const_t<P>>, Matrix<P>>>;

// One layer's tensors, by name (gpt.hpp's layout).
template <typename P>
struct LayerParams {
  View<P> ln1_g, ln1_b;        // (1, C)
  View<P> w_q, w_k, w_v, w_o;  // (C, C)
  View<P> ln2_g, ln2_b;        // (1, C)
  View<P> w_fc, b_fc;          // (C, 4C), (1, 4C)
  View<P> w_proj, b_proj;      // (4C, C), (1, C)
};

// Every tensor of a flat buffer, by name, as llm.c's ParameterTensors: p.layers[l].w_q is the
// layout's "l<l>.w_q".
template <typename P>
struct GptParams {
  View<P> wte;  // (V, C)
  std::vector<LayerParams<P>> layers;
  View<P> lnf_g, lnf_b;  // (1, C)
};

template <typename P>
GptParams<P> params_of(const GptConfig& config, P* flat) {
  const std::vector<GptTensor> layout = gpt_layout(config);
  // A name the layout lacks would give an empty view, which every gradient check meets at once.
  const auto at = [&](const std::string& name) {
    for (const GptTensor& t : layout)
      if (t.name == name) return View<P>(flat + t.offset, t.rows, t.cols);
    return View<P>(flat, 0, 0);
  };
  GptParams<P> p{at("wte"), {}, at("lnf_g"), at("lnf_b")};
  for (Index l = 0; l < config.layers; ++l) {
    const std::string n = "l" + std::to_string(l) + ".";
    p.layers.push_back({at(n + "ln1_g"), at(n + "ln1_b"), at(n + "w_q"), at(n + "w_k"),
                        at(n + "w_v"), at(n + "w_o"), at(n + "ln2_g"), at(n + "ln2_b"),
                        at(n + "w_fc"), at(n + "b_fc"), at(n + "w_proj"), at(n + "b_proj")});
  }
  return p;
}

// ---- products ----

// An Eigen matrix, block, map or transpose as the SIMD kernel's strided view.
template <typename E>
fast::View view(const E& e) {
  const Index rs = E::IsRowMajor ? e.outerStride() : e.innerStride();
  const Index cs = E::IsRowMajor ? e.innerStride() : e.outerStride();
  return {e.data(), e.rows(), e.cols(), rs, cs};
}

// out = a·b, or out += a·b when `accumulate`; a Matrix `out` is sized first. In WebAssembly
// float goes through the SIMD kernel (Eigen 3.4 has none there), which skips the terms of a's
// known zeros (`zeros`, a causal head's); elsewhere, and for double, Eigen's product.
template <typename Out, typename A, typename B>
void product(Out&& out, const A& a, const B& b, bool accumulate = false,
             [[maybe_unused]] fast::Zeros zeros = fast::Zeros::kNone) {
  using O = std::decay_t<Out>;
  if constexpr (std::is_base_of_v<Eigen::PlainObjectBase<O>, O>) {
    if (!accumulate) out.resize(a.rows(), b.cols());
  }
#if defined(__wasm_simd128__)
  if constexpr (std::is_same_v<typename O::Scalar, float>) {
    fast::gemm(view(a), view(b), out.data(), out.outerStride(), accumulate, zeros);
    return;
  }
#endif
  if (accumulate) {
    out.noalias() += a * b;
  } else {
    out.noalias() = a * b;
  }
}

// Whether float in WebAssembly, where the element-wise steps below are gpt_kernel.hpp's SIMD
// (the same bits as Eigen's scalar code there); elsewhere, and for double, Eigen's.
template <typename F>
constexpr bool kFast =
#if defined(__wasm_simd128__)
    std::is_same_v<F, float>;
#else
    false;
#endif

// ---- the weights' transposes (WASM) ----

// Every matrix of the flat layout transposed into w.transposed, unless it holds them already.
template <typename F>
void transpose_weights(const GptConfig& config, const GptParams<const F>& p, GptWork<F>& w) {
  if (w.transposed_current) return;
  const F* const flat = p.wte.data();  // wte is the layout's first tensor
  w.transposed.resize(size_t(gpt_size(config)));
  for (const GptTensor& t : gpt_layout(config)) {
    if (t.rows == 1) continue;  // a vector
    F* const out = w.transposed.data() + t.offset;
    for (Index r = 0; r < t.rows; ++r)
      for (Index c = 0; c < t.cols; ++c) out[c * t.rows + r] = flat[t.offset + r * t.cols + c];
  }
  w.transposed_current = true;
}

// mᵀ for a weight matrix m of the parameters p: in WASM w's row-major copy (transpose_weights'),
// elsewhere Eigen's view of m.
template <typename F>
auto transposed(const View<const F>& m, [[maybe_unused]] const GptParams<const F>& p,
                [[maybe_unused]] const GptWork<F>& w) {
  if constexpr (kFast<F>) {
    return View<const F>(w.transposed.data() + (m.data() - p.wte.data()), m.cols(), m.rows());
  } else {
    return m.transpose();
  }
}

// out's row i = e^(in's row i − top)
template <typename F>
void exp_shifted_row(const Matrix<F>& in, Index i, F top, Matrix<F>& out) {
  if constexpr (kFast<F>) {
    fast::exp_shifted(&in(i, 0), top, &out(i, 0), in.cols());
  } else {
    out.row(i) = (in.row(i).array() - top).exp().matrix();
  }
}

// The largest of m's row i, over its first n columns.
template <typename F>
F row_max(const Matrix<F>& m, Index i, Index n) {
  if constexpr (kFast<F>) {
    return fast::max_of(&m(i, 0), n);
  } else {
    return m.row(i).head(n).maxCoeff();
  }
}

// m's row i divided by d.
template <typename F>
void divide_row(Matrix<F>& m, Index i, F d) {
  if constexpr (kFast<F>) {
    fast::divide(&m(i, 0), m.cols(), d);
  } else {
    m.row(i) /= d;
  }
}

// y += a·x, element by element, unless an x is not finite: then false (and in WASM y partly
// added to, one pass over both; the step it belongs to cannot finish, its every try failing
// here).
template <typename F>
bool add_scaled_finite(std::vector<F>& y, F a, const std::vector<F>& x) {
  if constexpr (kFast<F>) {
    return fast::add_scaled_finite(y.data(), a, x.data(), Index(x.size()));
  } else {
    if (!Eigen::Map<const Vector<F>>(x.data(), Index(x.size())).allFinite()) return false;
    for (size_t i = 0; i < y.size(); ++i) y[i] += a * x[i];
    return true;
  }
}

// Whether every x[j], j < n, is finite.
template <typename F>
bool all_finite(const F* x, Index n) {
  if constexpr (kFast<F>) {
    return fast::all_finite(x, n);
  } else {
    return Eigen::Map<const Vector<F>>(x, n).allFinite();
  }
}

// ---- LayerNorm: h = (x − mean)·rstd ⊙ g + b, row by row ----

template <typename F>
void layernorm_forward(const Matrix<F>& x, const View<const F>& g, const View<const F>& b,
                       Matrix<F>& h, Vector<F>& mean, Vector<F>& rstd) {
  const Index n = x.rows(), c = x.cols();
  h.resize(n, c);
  mean.resize(n);
  rstd.resize(n);
  if constexpr (kFast<F>) {
    fast::layernorm_forward(x.data(), n, c, g.data(), b.data(), h.data(), mean.data(), rstd.data());
    return;
  }
  for (Index i = 0; i < n; ++i) {
    const F m = x.row(i).mean();
    const F var = (x.row(i).array() - m).square().mean();
    const F r = F(1) / std::sqrt(var + F(kLnEps));
    mean(i) = m;
    rstd(i) = r;
    h.row(i) = ((x.row(i).array() - m) * r * g.row(0).array() + b.row(0).array()).matrix();
  }
}

// dh in, dx added to; dg and db added to.
template <typename F>
void layernorm_backward(const Matrix<F>& x, const Vector<F>& mean, const Vector<F>& rstd,
                        const View<const F>& g, const Matrix<F>& dh, Matrix<F>& dx, View<F> dg,
                        View<F> db) {
  if constexpr (kFast<F>) {
    fast::layernorm_backward(x.data(), mean.data(), rstd.data(), g.data(), dh.data(), x.rows(),
                             x.cols(), dx.data(), dg.data(), db.data());
    return;
  }
  for (Index i = 0; i < x.rows(); ++i) {
    const auto xhat = ((x.row(i).array() - mean(i)) * rstd(i)).eval();
    const auto dxhat = (dh.row(i).array() * g.row(0).array()).eval();
    dg.row(0).array() += dh.row(i).array() * xhat;
    db.row(0).array() += dh.row(i).array();
    const F mean_d = dxhat.mean(), mean_dx = (dxhat * xhat).mean();
    dx.row(i).array() += rstd(i) * (dxhat - mean_d - xhat * mean_dx);
  }
}

// ---- RoPE on each head's pairs (2i, 2i+1), row r at position r mod T ----

// The cosines and sines of every (position, pair) angle, pos·base^(−2i/d_head), into the work's
// table, unless it holds them already.
template <typename F>
void rope_table(GptWork<F>& w, Index length, Index d_head, double base) {
  if (w.rope_length == length && w.rope_d_head == d_head && w.rope_base == base) return;
  const Index pairs = d_head / 2;
  w.rope_cos.resize(size_t(length * pairs));
  w.rope_sin.resize(size_t(length * pairs));
  for (Index pos = 0; pos < length; ++pos)
    for (Index i = 0; i < pairs; ++i) {
      const double angle = double(pos) * std::pow(base, -2.0 * double(i) / double(d_head));
      w.rope_cos[size_t(pos * pairs + i)] = F(std::cos(angle));
      w.rope_sin[size_t(pos * pairs + i)] = F(std::sin(angle));
    }
  w.rope_length = length;
  w.rope_d_head = d_head;
  w.rope_base = base;
}

// Turns each pair by its angle (rope_table's), or back by minus it.
template <typename F>
void rope(Matrix<F>& m, const GptWork<F>& w, bool back) {
  const Index length = w.rope_length, d_head = w.rope_d_head;
  for (Index r = 0; r < m.rows(); ++r) {
    const Index pos = r % length;
    for (Index i = 0; i < d_head / 2; ++i) {
      const F c = w.rope_cos[size_t(pos * (d_head / 2) + i)];
      const F sine = w.rope_sin[size_t(pos * (d_head / 2) + i)], s = back ? -sine : sine;
      for (Index block = 0; block < m.cols(); block += d_head) {
        const F a = m(r, block + 2 * i), b = m(r, block + 2 * i + 1);
        m(r, block + 2 * i) = a * c - b * s;
        m(r, block + 2 * i + 1) = a * s + b * c;
      }
    }
  }
}

// ---- GELU, tanh form: 0.5x(1 + tanh(√(2/π)(x + 0.044715x³))) ----

constexpr double kGeluS = 0.7978845608028654;  // √(2/π)

// t = tanh(√(2/π)(x + 0.044715x³)) for every x of fc, GELU's inner tanh, and g = GELU(fc).
template <typename F>
void gelu_forward(const Matrix<F>& fc, Matrix<F>& t, Matrix<F>& g) {
  t.resize(fc.rows(), fc.cols());
  g.resize(fc.rows(), fc.cols());
  if constexpr (kFast<F>) {
    fast::gelu_forward(fc.data(), t.data(), g.data(), fc.size());
  } else {
    t = fc.unaryExpr([](F x) { return F(kGeluS) * (x + F(0.044715) * x * x * x); });
    t = t.unaryExpr([](F u) { return std::tanh(u); });
    g = fc.binaryExpr(t, [](F x, F u) { return F(0.5) * x * (F(1) + u); });
  }
}

// d ⊙= GELU's slope at fc, from its t (gelu_forward's).
template <typename F>
void gelu_backward(const Matrix<F>& fc, const Matrix<F>& t, Matrix<F>& d) {
  if constexpr (kFast<F>) {
    fast::gelu_backward(fc.data(), t.data(), d.data(), fc.size());
  } else {
    d.array() *= fc.binaryExpr(t, [](F x, F u) {
                     return F(0.5) * (F(1) + u) + F(0.5) * x * (F(1) - u * u) * F(kGeluS) *
                                                      (F(1) + F(3 * 0.044715) * x * x);
                   }).array();
  }
}

// ---- causal attention over each (sequence, head) block ----

// q, k, v (N, C), the heads side by side, N = B·T rows (B = batch, T = length): each head's scores
// and weights ((B·H) × (T, T)) and out (N, C). The steps numbered as in attention.cpp: 1 scores, 2
// scaled, 3 masked (causal), 4 weights, 5 output.
template <typename F>
void attention_forward(const Matrix<F>& q, const Matrix<F>& k, const Matrix<F>& v, Index batch,
                       Index length, Index heads, std::vector<Matrix<F>>& scores,
                       std::vector<Matrix<F>>& weights, Matrix<F>& out) {
  const Index dh = q.cols() / heads;
  const F scale = F(1) / std::sqrt(F(dh));
  out.resize(q.rows(), q.cols());
  scores.resize(size_t(batch * heads));
  weights.resize(size_t(batch * heads));
  for (Index b = 0; b < batch; ++b)
    for (Index h = 0; h < heads; ++h) {
      const auto qh = q.block(b * length, h * dh, length, dh);
      const auto kh = k.block(b * length, h * dh, length, dh);
      const auto vh = v.block(b * length, h * dh, length, dh);
      Matrix<F>& s = scores[size_t(b * heads + h)];
      Matrix<F>& p = weights[size_t(b * heads + h)];
      // 1 scores = q·kᵀ and 2 scaled by 1/√d_head, (T, T)
      product(s, qh, kh.transpose());
      // 3 causal: query i sees keys 0..i; 4 weights, each row's softmax over those
      if constexpr (kFast<F>) {
        p.resize(length, length);
        fast::causal_softmax(s.data(), p.data(), length, scale);
      } else {
        s *= scale;
        p = s;
        for (Index i = 0; i < length; ++i) {
          const F top = row_max(p, i, i + 1);
          F sum = 0;
          for (Index j = 0; j < length; ++j) {
            p(i, j) = j <= i ? std::exp(p(i, j) - top) : F(0);
            sum += p(i, j);
          }
          divide_row(p, i, sum);
        }
      }
      // 5 output = weights·v, (T, d_head), into the head's columns
      product(out.block(b * length, h * dh, length, dh), p, vh, false, fast::Zeros::kAbove);
    }
}

// The steps back, 5 to 1: d_out (N, C) in; dq, dk, dv (N, C) out, before RoPE's inverse; dp
// (T, T) a head's gradient for its weights, then its scores.
template <typename F>
void attention_backward(const Matrix<F>& q, const Matrix<F>& k, const Matrix<F>& v,
                        const std::vector<Matrix<F>>& weights, const Matrix<F>& d_out, Index batch,
                        Index length, Index heads, Matrix<F>& dq, Matrix<F>& dk, Matrix<F>& dv,
                        Matrix<F>& dp) {
  const Index dh = q.cols() / heads;
  const F scale = F(1) / std::sqrt(F(dh));
  // every head's block is written whole below
  dq.resize(q.rows(), q.cols());
  dk.resize(k.rows(), k.cols());
  dv.resize(v.rows(), v.cols());
  for (Index b = 0; b < batch; ++b)
    for (Index h = 0; h < heads; ++h) {
      const Matrix<F>& p = weights[size_t(b * heads + h)];
      const auto qh = q.block(b * length, h * dh, length, dh);
      const auto kh = k.block(b * length, h * dh, length, dh);
      const auto vh = v.block(b * length, h * dh, length, dh);
      const auto d_oh = d_out.block(b * length, h * dh, length, dh);
      // 5 output = p·v: dv = pᵀ·d_out, dp = d_out·vᵀ
      product(dv.block(b * length, h * dh, length, dh), p.transpose(), d_oh, false,
              fast::Zeros::kBelow);
      product(dp, d_oh, vh.transpose());  // (T, T)
      // 4 and 3: the softmax's rows, d(scaled) = p ⊙ (dp − Σ dp ⊙ p); 2: times the scale
      if constexpr (kFast<F>) {
        fast::causal_softmax_backward(p.data(), dp.data(), length, scale);
      } else {
        for (Index i = 0; i < length; ++i) {
          const F dot = (dp.row(i).array() * p.row(i).array()).sum();
          dp.row(i) = (p.row(i).array() * (dp.row(i).array() - dot) * scale).matrix();
        }
      }
      // 1 scores = q·kᵀ: dq = d(scores)·k, dk = d(scores)ᵀ·q
      product(dq.block(b * length, h * dh, length, dh), dp, kh, false, fast::Zeros::kAbove);
      product(dk.block(b * length, h * dh, length, dh), dp.transpose(), qh, false,
              fast::Zeros::kBelow);
    }
}

std::string check_tokens(const GptConfig& config, const std::vector<std::int32_t>& tokens,
                         Index batch, const std::vector<std::int32_t>& targets) {
  if (batch < 1) return "batch is " + std::to_string(batch) + "; it must be at least 1";
  const Index n = Index(tokens.size());
  if (n == 0 || n % batch != 0) {
    return "tokens has " + count(n, "number") + ", which is not batch×length for batch " +
           std::to_string(batch);
  }
  if (n / batch > config.context) {
    return "each sequence has " + std::to_string(n / batch) + " tokens, over the context of " +
           std::to_string(config.context);
  }
  if (n * config.vocab > kMaxGptValues) {
    return "the logits would be " + shape(n, config.vocab) + ", over the limit of " +
           std::to_string(kMaxGptValues) + " values";
  }
  for (Index i = 0; i < n; ++i) {
    if (tokens[size_t(i)] < 0 || tokens[size_t(i)] >= config.vocab) {
      return "tokens" + row(i) + " is " + std::to_string(tokens[size_t(i)]) +
             "; it must be from 0 to " + std::to_string(config.vocab - 1) + " (the vocabulary)";
    }
  }
  if (!targets.empty() && targets.size() != tokens.size()) {
    return "targets has " + count(Index(targets.size()), "number") + " but tokens has " +
           std::to_string(n);
  }
  for (size_t i = 0; i < targets.size(); ++i) {
    if (targets[i] < -1 || targets[i] >= config.vocab) {
      return "targets" + row(Index(i)) + " is " + std::to_string(targets[i]) +
             "; it must be −1 (none) or from 0 to " + std::to_string(config.vocab - 1);
    }
  }
  return {};
}

// ---- the logits' softmax and the cross-entropy, fused ----

// How many rows have a target.
Index counted_targets(const std::vector<std::int32_t>& targets) {
  Index counted = 0;
  for (const std::int32_t target : targets) counted += target >= 0;
  return counted;
}

// Row i of the softmax, (probs − one-hot(target)) / counted: the mean loss's gradient for the
// row's logits; a row without a target has none.
template <typename F>
void cross_entropy_gradient_row(Matrix<F>& probs, Index i, std::int32_t target, Index counted) {
  if (target < 0) {
    probs.row(i).setZero();
    return;
  }
  probs(i, target) -= F(1);
  divide_row(probs, i, F(std::max<Index>(counted, 1)));
}

// Row by row, while the row is at hand: the logits' largest (top), Σ e^(logit − top) (sum) and
// softmax (out); with targets, the mean −log softmax[target], returned; when `gradient`, out
// then becomes the loss's gradient for the logits (cross_entropy_gradient_row) and the softmax
// is not kept. An error when a logit overflows.
template <typename F>
Result<double> softmax_cross_entropy(const Matrix<F>& logits,
                                     const std::vector<std::int32_t>& targets, Vector<F>& top,
                                     Vector<F>& sum, Matrix<F>& out, bool gradient) {
  const Index n = logits.rows();
  const char* const overflow = "the logits overflow: the parameters are too large";
  out.resize(n, logits.cols());
  top.resize(n);
  sum.resize(n);
  const Index counted = counted_targets(targets);
  double loss = 0;
  if constexpr (kFast<F>) {
    if (!fast::softmax_cross_entropy(
            logits.data(), n, logits.cols(), targets.empty() ? nullptr : targets.data(),
            F(std::max<Index>(counted, 1)), gradient, out.data(), top.data(), sum.data(), loss))
      return {{}, overflow};
    if (counted > 0) loss /= double(counted);
    return {loss, {}};
  }
  if (!all_finite(logits.data(), logits.size())) return {{}, overflow};
  for (Index i = 0; i < n; ++i) {
    top(i) = row_max(logits, i, logits.cols());
    exp_shifted_row(logits, i, top(i), out);
    sum(i) = out.row(i).sum();
    divide_row(out, i, sum(i));
    const std::int32_t target = i < Index(targets.size()) ? targets[size_t(i)] : -1;
    if (target >= 0) loss -= std::log(double(out(i, target)));
    if (gradient) cross_entropy_gradient_row(out, i, target, counted);
  }
  if (counted > 0) loss /= double(counted);
  return {loss, {}};
}

// ---- the passes, into a work's buffers ----

// The forward pass into w.trace (checked inputs). With `gradient`, the loss's gradient for the
// logits goes into w.d_logits at once, and the trace keeps no probabilities.
template <typename F>
std::string forward_into(const GptConfig& config, const GptParams<const F>& p,
                         const std::vector<std::int32_t>& tokens, Index batch,
                         const std::vector<std::int32_t>& targets, GptWork<F>& w, bool gradient) {
  const Index n = Index(tokens.size()), C = config.d_model;
  GptTrace<F>& t = w.trace;
  t.batch = batch;
  t.length = n / batch;
  t.layers.resize(size_t(config.layers));
  rope_table(w, t.length, C / config.heads, config.base);
  if constexpr (kFast<F>) transpose_weights(config, p, w);
  // the embedding: x = wte[tokens], (N, C)
  Matrix<F>& x0 = t.layers[0].x;
  x0.resize(n, C);
  for (Index i = 0; i < n; ++i) x0.row(i) = p.wte.row(tokens[size_t(i)]);
  Matrix<F>& projected = w.projected;
  for (Index l = 0; l < config.layers; ++l) {
    const LayerParams<const F>& wl = p.layers[size_t(l)];
    GptLayerTrace<F>& L = t.layers[size_t(l)];
    // the residual stream after this layer: the next layer's input, or the last
    Matrix<F>& next = l + 1 < config.layers ? t.layers[size_t(l + 1)].x : t.x_final;
    // attention: ln1, the projections, RoPE, the heads, W_O
    layernorm_forward(L.x, wl.ln1_g, wl.ln1_b, L.h1, L.mean1, L.rstd1);
    product(L.q, L.h1, wl.w_q);
    product(L.k, L.h1, wl.w_k);
    product(L.v, L.h1, wl.w_v);
    rope(L.q, w, false);
    rope(L.k, w, false);
    attention_forward(L.q, L.k, L.v, batch, t.length, config.heads, L.s, L.p, L.concat);
    product(projected, L.concat, wl.w_o);
    // the residual stream
    L.x_mid = L.x + projected;
    if (config.mlp) {
      // the MLP: ln2, W_fc + b_fc, GELU, W_proj + b_proj
      layernorm_forward(L.x_mid, wl.ln2_g, wl.ln2_b, L.h2, L.mean2, L.rstd2);
      product(L.fc, L.h2, wl.w_fc);
      L.fc.rowwise() += wl.b_fc.row(0);
      gelu_forward(L.fc, L.gelu_t, L.gelu);
      product(projected, L.gelu, wl.w_proj);
      projected.rowwise() += wl.b_proj.row(0);
      // the residual stream
      next = L.x_mid + projected;
    } else {
      next = L.x_mid;
    }
  }
  layernorm_forward(t.x_final, p.lnf_g, p.lnf_b, t.hf, t.meanf, t.rstdf);
  // the logits (N, V), tied to the embedding, their softmax, and the loss
  product(t.logits, t.hf, transposed(p.wte, p, w));
  if (gradient) t.probs.resize(0, 0);
  auto loss = softmax_cross_entropy(t.logits, targets, t.top, t.sum,
                                    gradient ? w.d_logits : t.probs, gradient);
  if (!loss.ok()) return loss.error;
  t.loss = loss.value;
  return {};
}

// The backward pass of trace t from w.d_logits, the loss's gradient for the logits: every
// parameter's gradient into grads (sized as params), not checked finite. Each matrix's gradient
// is written whole by its product (c = a·b: the bits of c = 0, then c += a·b), each vector's
// added to zeros.
template <typename F>
void backward_into(const GptConfig& config, const GptParams<const F>& p, const GptTrace<F>& t,
                   const std::vector<std::int32_t>& tokens, GptWork<F>& w, std::vector<F>& grads) {
  GptParams<F> d = params_of(config, grads.data());
  d.lnf_g.setZero();
  d.lnf_b.setZero();
  for (LayerParams<F>& dw : d.layers) {
    dw.ln1_g.setZero();
    dw.ln1_b.setZero();
    if (config.mlp) {
      dw.ln2_g.setZero();
      dw.ln2_b.setZero();
      dw.b_fc.setZero();
      dw.b_proj.setZero();
    }
  }
  const Index n = Index(tokens.size()), C = config.d_model;
  rope_table(w, t.length, C / config.heads, config.base);
  if constexpr (kFast<F>) transpose_weights(config, p, w);
  // logits = hf·wteᵀ: d(hf) = d(logits)·wte, d(wte) += d(logits)ᵀ·hf
  product(w.d_hf, w.d_logits, p.wte);
  product(d.wte, w.d_logits.transpose(), t.hf);
  Matrix<F>& dx = w.dx;
  dx.setZero(n, C);
  layernorm_backward(t.x_final, t.meanf, t.rstdf, p.lnf_g, w.d_hf, dx, d.lnf_g, d.lnf_b);
  for (Index l = config.layers - 1; l >= 0; --l) {
    const GptLayerTrace<F>& L = t.layers[size_t(l)];
    const LayerParams<const F>& wl = p.layers[size_t(l)];
    LayerParams<F>& dw = d.layers[size_t(l)];
    // the residual stream, x = x_mid + proj: dx reaches x_mid and proj as it is
    Matrix<F>& d_mid = w.d_mid;
    d_mid = dx;
    if (config.mlp) {
      // the MLP: proj = gelu·W_proj + b_proj, gelu = GELU(fc), fc = h2·W_fc + b_fc, h2 = ln2(x_mid)
      dw.b_proj.row(0) += dx.colwise().sum();
      product(dw.w_proj, L.gelu.transpose(), dx);
      product(w.d_fc, dx, transposed(wl.w_proj, p, w));
      gelu_backward(L.fc, L.gelu_t, w.d_fc);
      dw.b_fc.row(0) += w.d_fc.colwise().sum();
      product(dw.w_fc, L.h2.transpose(), w.d_fc);
      product(w.d_h2, w.d_fc, transposed(wl.w_fc, p, w));
      layernorm_backward(L.x_mid, L.mean2, L.rstd2, wl.ln2_g, w.d_h2, d_mid, dw.ln2_g, dw.ln2_b);
    }
    // the residual stream, x_mid = x + concat·W_O: d_mid reaches x and the projection
    product(dw.w_o, L.concat.transpose(), d_mid);
    product(w.d_concat, d_mid, transposed(wl.w_o, p, w));
    attention_backward(L.q, L.k, L.v, L.p, w.d_concat, t.batch, t.length, config.heads, w.dq, w.dk,
                       w.dv, w.dp);
    rope(w.dq, w, true);
    rope(w.dk, w, true);
    product(dw.w_q, L.h1.transpose(), w.dq);
    product(dw.w_k, L.h1.transpose(), w.dk);
    product(dw.w_v, L.h1.transpose(), w.dv);
    product(w.d_h1, w.dq, transposed(wl.w_q, p, w));
    product(w.d_h1, w.dk, transposed(wl.w_k, p, w), true);
    product(w.d_h1, w.dv, transposed(wl.w_v, p, w), true);
    dx = d_mid;
    layernorm_backward(L.x, L.mean1, L.rstd1, wl.ln1_g, w.d_h1, dx, dw.ln1_g, dw.ln1_b);
  }
  // the embedding: d(wte)[token] += dx
  for (Index i = 0; i < n; ++i) d.wte.row(tokens[size_t(i)]) += dx.row(i);
}

// The checks of a forward pass's inputs.
template <typename F>
std::string check_forward(const GptConfig& config, const std::vector<F>& params,
                          const std::vector<std::int32_t>& tokens, Index batch,
                          const std::vector<std::int32_t>& targets) {
  if (auto e = check_gpt_config(config); !e.empty()) return e;
  if (std::int64_t(params.size()) != gpt_size(config)) {
    return "params has " + count(Index(params.size()), "number") + " but the model has " +
           std::to_string(gpt_size(config));
  }
  return check_tokens(config, tokens, batch, targets);
}

}  // namespace

std::vector<GptTensor> gpt_layout(const GptConfig& c) {
  std::vector<GptTensor> out;
  std::int64_t offset = 0;
  const auto add = [&](std::string name, Index rows, Index cols, bool decay, GptInit init) {
    out.push_back({std::move(name), rows, cols, offset, decay, init});
    offset += std::int64_t(rows) * cols;
  };
  const Index C = c.d_model;
  add("wte", c.vocab, C, true, GptInit::kNormal);
  for (Index l = 0; l < c.layers; ++l) {
    for (const LayerTensor& t : kLayerTensors) {
      if (t.mlp && !c.mlp) continue;
      add("l" + std::to_string(l) + "." + t.name, t.rows == 0 ? 1 : t.rows * C, t.cols * C, t.decay,
          t.init);
    }
  }
  add("lnf_g", 1, C, false, GptInit::kOne);
  add("lnf_b", 1, C, false, GptInit::kZero);
  return out;
}

std::int64_t gpt_size(const GptConfig& config) {
  const std::vector<GptTensor> layout = gpt_layout(config);
  return layout.back().offset + std::int64_t(layout.back().rows) * layout.back().cols;
}

std::string check_gpt_config(const GptConfig& c, const GptConfigNames& names) {
  for (auto [name, value, high] : {std::tuple{names.vocab, c.vocab, Index(65536)},
                                   std::tuple{names.context, c.context, Index(1024)},
                                   std::tuple{names.d_model, c.d_model, Index(1024)},
                                   std::tuple{names.layers, c.layers, Index(16)},
                                   std::tuple{names.heads, c.heads, Index(64)}}) {
    if (value < 1 || value > high) return range_error(name, value, 1, high);
  }
  if (c.d_model % c.heads != 0 || (c.d_model / c.heads) % 2 != 0) {
    return std::string(names.d_model) + " " + std::to_string(c.d_model) + " is not " + names.heads +
           " × an even d_head (" + names.heads + " = " + std::to_string(c.heads) +
           "; RoPE turns pairs)";
  }
  if (!(std::isfinite(c.base) && c.base > 0)) {
    return std::string(names.base) + " must be a finite number above 0";
  }
  // The parameters are one matrix of the pass: vocab × d_model for the embedding, then each
  // layer's 4·d_model² (q, k, v, o) and 2·d_model (LayerNorm), with the MLP 8·d_model² and
  // 7·d_model more (its matrices, biases and second LayerNorm), and 2·d_model at the end.
  if (gpt_size(c) > kMaxGptValues) {
    const std::string layer =
        c.mlp ? "(12·" + std::string(names.d_model) + "² + 9·" + names.d_model + ")"
              : "(4·" + std::string(names.d_model) + "² + 2·" + names.d_model + ")";
    return "the model would have " + std::to_string(gpt_size(c)) + " parameters (" + names.vocab +
           " × " + names.d_model + " + " + names.layers + " × " + layer + " + 2·" + names.d_model +
           "), over the limit of " + std::to_string(kMaxGptValues) + " values a matrix";
  }
  // A model must run at its own context: its logits there, context × vocab, are the largest
  // matrix of a pass.
  if (std::int64_t(c.context) * c.vocab > kMaxGptValues) {
    return std::string(names.context) + " × " + names.vocab + " is " +
           std::to_string(std::int64_t(c.context) * c.vocab) +
           ": the logits of one sequence at its full context would pass the limit of " +
           std::to_string(kMaxGptValues) + " values a matrix";
  }
  return {};
}

template <typename F>
Result<GptTrace<F>> gpt_forward(const GptConfig& config, const std::vector<F>& params,
                                const std::vector<std::int32_t>& tokens, Index batch,
                                const std::vector<std::int32_t>& targets) {
  if (auto e = check_forward(config, params, tokens, batch, targets); !e.empty()) return {{}, e};
  GptWork<F> w;
  const auto e =
      forward_into(config, params_of(config, params.data()), tokens, batch, targets, w, false);
  if (!e.empty()) return {{}, e};
  return {std::move(w.trace), {}};
}

template <typename F>
Result<std::vector<F>> gpt_backward(const GptConfig& config, const std::vector<F>& params,
                                    const GptTrace<F>& t, const std::vector<std::int32_t>& tokens,
                                    const std::vector<std::int32_t>& targets) {
  if (targets.size() != tokens.size()) return {{}, "the backward pass needs a target per token"};
  GptWork<F> w;
  // the loss: d(logits) = (probs − one-hot) / rows counted
  w.d_logits = t.probs;
  const Index counted = counted_targets(targets);
  for (Index i = 0; i < Index(tokens.size()); ++i) {
    cross_entropy_gradient_row(w.d_logits, i, targets[size_t(i)], counted);
  }
  std::vector<F> grads(params.size());
  backward_into(config, params_of(config, params.data()), t, tokens, w, grads);
  if (!all_finite(grads.data(), Index(grads.size()))) return {{}, kGradientOverflow};
  return {std::move(grads), {}};
}

template <typename F>
std::vector<F> gpt_init(const GptConfig& config, std::uint64_t seed) {
  std::vector<F> params(size_t(gpt_size(config)), F(0));
  SplitMix64 random(seed);
  const double residual = 0.02 / std::sqrt(2.0 * double(config.layers));
  for (const GptTensor& t : gpt_layout(config)) {
    for (std::int64_t i = 0; i < std::int64_t(t.rows) * t.cols; ++i) {
      F& p = params[size_t(t.offset + i)];
      switch (t.init) {
        case GptInit::kNormal:
          p = F(random.normal() * 0.02);
          break;
        case GptInit::kResidual:
          p = F(random.normal() * residual);
          break;
        case GptInit::kOne:
          p = F(1);
          break;
        case GptInit::kZero:
          break;
      }
    }
  }
  return params;
}

template <typename F>
void adamw_step(const GptConfig& config, const AdamW& adam, double lr, std::vector<F>& params,
                const std::vector<F>& grads, AdamState<F>& s) {
  if (s.m.empty()) {
    s.m.assign(params.size(), F(0));
    s.v.assign(params.size(), F(0));
  }
  ++s.step;
  const double c1 = 1 - std::pow(adam.beta1, double(s.step));
  const double c2 = 1 - std::pow(adam.beta2, double(s.step));
  for (const GptTensor& t : gpt_layout(config)) {
    const double decay = t.decay ? adam.weight_decay : 0.0;
    if constexpr (kFast<F>) {
      const size_t at = size_t(t.offset);
      fast::adamw(&params[at], &grads[at], &s.m[at], &s.v[at], t.rows * t.cols,
                  {adam.beta1, adam.beta2, c1, c2, lr, adam.eps, decay});
    } else {
      for (std::int64_t i = t.offset; i < t.offset + std::int64_t(t.rows) * t.cols; ++i) {
        const double g = double(grads[size_t(i)]);
        const double m = adam.beta1 * double(s.m[size_t(i)]) + (1 - adam.beta1) * g;
        const double v = adam.beta2 * double(s.v[size_t(i)]) + (1 - adam.beta2) * g * g;
        s.m[size_t(i)] = F(m);
        s.v[size_t(i)] = F(v);
        const double p = double(params[size_t(i)]);
        params[size_t(i)] = F(p - lr * ((m / c1) / (std::sqrt(v / c2) + adam.eps) + decay * p));
      }
    }
  }
}

template Result<GptTrace<float>> gpt_forward(const GptConfig&, const std::vector<float>&,
                                             const std::vector<std::int32_t>&, Index,
                                             const std::vector<std::int32_t>&);
template Result<GptTrace<double>> gpt_forward(const GptConfig&, const std::vector<double>&,
                                              const std::vector<std::int32_t>&, Index,
                                              const std::vector<std::int32_t>&);
template Result<std::vector<float>> gpt_backward(const GptConfig&, const std::vector<float>&,
                                                 const GptTrace<float>&,
                                                 const std::vector<std::int32_t>&,
                                                 const std::vector<std::int32_t>&);
template Result<std::vector<double>> gpt_backward(const GptConfig&, const std::vector<double>&,
                                                  const GptTrace<double>&,
                                                  const std::vector<std::int32_t>&,
                                                  const std::vector<std::int32_t>&);
template std::vector<float> gpt_init(const GptConfig&, std::uint64_t);
template std::vector<double> gpt_init(const GptConfig&, std::uint64_t);
template void adamw_step(const GptConfig&, const AdamW&, double, std::vector<float>&,
                         const std::vector<float>&, AdamState<float>&);
template void adamw_step(const GptConfig&, const AdamW&, double, std::vector<double>&,
                         const std::vector<double>&, AdamState<double>&);

}  // namespace attention

namespace attention {

double gpt_learning_rate(double lr, std::int64_t total, std::int64_t s) {
  const std::int64_t warm = std::min<std::int64_t>(100, total / 10 + 1);
  if (s < warm) return lr * double(s + 1) / double(warm);
  const double progress = double(s - warm) / double(std::max<std::int64_t>(1, total - warm));
  return lr * (0.1 + 0.45 * (1 + std::cos(3.141592653589793 * std::min(1.0, progress))));
}

template <typename F>
Result<GptTrainer<F>> gpt_trainer(const GptConfig& config, std::vector<std::int32_t> data,
                                  Index batch, double lr, std::int64_t total, std::uint64_t seed,
                                  std::vector<F> params) {
  if (auto e = check_gpt_config(config); !e.empty()) return {{}, e};
  if (Index(data.size()) < config.context + 2) {
    return {{},
            "the training data has " + count(Index(data.size()), "token") + "; a window needs " +
                std::to_string(config.context + 1)};
  }
  for (size_t i = 0; i < data.size(); ++i) {
    if (data[i] < 0 || data[i] >= config.vocab) {
      return {{},
              "data" + row(Index(i)) + " is " + std::to_string(data[i]) +
                  "; it must be from 0 to " + std::to_string(config.vocab - 1)};
    }
  }
  if (batch < 1 || batch * config.context * config.vocab > kMaxGptValues) {
    return {{}, "batch is " + std::to_string(batch) + "; the logits of a step must fit"};
  }
  if (!(std::isfinite(lr) && lr > 0)) return {{}, "the learning rate must be a number above 0"};
  if (params.empty()) params = gpt_init<F>(config, seed);
  if (std::int64_t(params.size()) != gpt_size(config)) {
    return {{},
            "params has " + count(Index(params.size()), "number") + " but the model has " +
                std::to_string(gpt_size(config))};
  }
  GptTrainer<F> t;
  t.config = config;
  t.params = std::move(params);
  t.data = std::move(data);
  t.batch = batch;
  t.lr = lr;
  t.total = std::max<std::int64_t>(1, total);
  t.pick = SplitMix64(seed + 1);
  return {std::move(t), {}};
}

template <typename F>
void gpt_train_draw(GptTrainer<F>& t) {
  if (t.drawn) return;
  const GptConfig& c = t.config;
  t.tokens.clear();
  t.targets.clear();
  if (t.draw) t.draw(t.pick, t.batch, t.tokens, t.targets);
  for (Index b = 0; b < t.batch && !t.draw; ++b) {
    const auto at = long(t.pick.uniform() * double(t.data.size() - size_t(c.context) - 1));
    t.tokens.insert(t.tokens.end(), t.data.begin() + at, t.data.begin() + at + c.context);
    t.targets.insert(t.targets.end(), t.data.begin() + at + 1, t.data.begin() + at + 1 + c.context);
  }
  t.grads.assign(t.params.size(), F(0));
  t.loss = 0;
  t.work.transposed_current = false;  // the weights the last step changed
  t.drawn = true;
}

template <typename F>
std::string gpt_slice_gradient(const GptConfig& c, const std::vector<F>& params, Index sequences,
                               GptWork<F>& w) {
  if (auto e = check_forward(c, params, w.tokens, sequences, w.targets); !e.empty()) return e;
  const GptParams<const F> p = params_of(c, static_cast<const F*>(params.data()));
  if (auto e = forward_into(c, p, w.tokens, sequences, w.targets, w, true); !e.empty()) return e;
  w.grads.resize(params.size());
  backward_into(c, p, w.trace, w.tokens, w, w.grads);
  return {};
}

template <typename F>
Result<std::optional<double>> gpt_train_add(GptTrainer<F>& t, Index sequences, double loss,
                                            const std::vector<F>& grads) {
  if (!t.drawn) return {{}, "no step is under way: its batch is drawn first"};
  if (sequences < 1 || sequences > t.batch - t.done) {
    return {{}, range_error("sequences", sequences, 1, t.batch - t.done)};
  }
  if (grads.size() != t.params.size()) {
    return {{},
            "gradients has " + count(Index(grads.size()), "number") + " but the model has " +
                std::to_string(t.params.size()) + " parameters"};
  }
  // every sequence has T targets: the batch's mean is the slices' means weighted by size
  // checked whole first: a slice refused leaves the step as it was
  if (!all_finite(grads.data(), Index(grads.size()))) return {{}, kGradientOverflow};
  const F share = F(double(sequences) / double(t.batch));
  add_scaled_finite(t.grads, share, grads);
  t.loss += double(share) * loss;
  t.done += sequences;
  if (t.done < t.batch) return {std::nullopt, {}};
  adamw_step(t.config, t.adam, gpt_learning_rate(t.lr, t.total, t.steps), t.params, t.grads,
             t.state);
  ++t.steps;
  t.done = 0;
  t.drawn = false;
  return {t.loss, {}};
}

template <typename F>
Result<std::optional<double>> gpt_train_slice(GptTrainer<F>& t, Index sequences) {
  if (sequences < 1) return {{}, range_error("sequences", sequences, 1, t.batch)};
  gpt_train_draw(t);
  const Index n = std::min(sequences, t.batch - t.done);
  const auto from = long(t.done * t.config.context), to = long((t.done + n) * t.config.context);
  GptWork<F>& w = t.work;
  w.tokens.assign(t.tokens.begin() + from, t.tokens.begin() + to);
  w.targets.assign(t.targets.begin() + from, t.targets.begin() + to);
  if (auto e = gpt_slice_gradient(t.config, t.params, n, w); !e.empty()) return {{}, e};
  return gpt_train_add(t, n, w.trace.loss, w.grads);
}

template <typename F>
Result<double> gpt_train_step(GptTrainer<F>& t) {
  auto r = gpt_train_slice(t, t.batch);
  if (!r.ok()) return {{}, r.error};
  return {*r.value, {}};
}

template <typename F>
Result<GptLossGradient<F>> gpt_loss_gradient(const GptConfig& c, const std::vector<F>& params,
                                             const std::vector<std::int32_t>& tokens, Index batch,
                                             const std::vector<std::int32_t>& targets) {
  const auto r = gpt_forward<F>(c, params, tokens, batch, targets);
  if (!r.ok()) return {{}, r.error};
  auto g = gpt_backward<F>(c, params, r.value, tokens, targets);
  if (!g.ok()) return {{}, g.error};
  return {{r.value.loss, std::move(g.value)}, {}};
}

template <typename F>
Result<double> gpt_stream_loss(const GptConfig& c, const std::vector<F>& params,
                               const std::vector<std::int32_t>& stream) {
  double sum = 0;
  Index counted = 0;
  for (size_t at = 0; at + 1 < stream.size(); at += size_t(c.context)) {
    const size_t n = std::min<size_t>(size_t(c.context), stream.size() - 1 - at);
    const std::vector<std::int32_t> tokens(stream.begin() + long(at),
                                           stream.begin() + long(at + n));
    const std::vector<std::int32_t> targets(stream.begin() + long(at + 1),
                                            stream.begin() + long(at + n + 1));
    const auto r = gpt_forward<F>(c, params, tokens, 1, targets);
    if (!r.ok()) return {{}, r.error};
    sum += r.value.loss * double(n);
    counted += Index(n);
  }
  if (counted == 0) return {{}, "the stream has fewer than 2 tokens"};
  return {sum / double(counted), {}};
}

template <typename F>
Result<std::vector<std::int32_t>> gpt_generate(const GptConfig& c, const std::vector<F>& params,
                                               std::vector<std::int32_t> prompt, Index count,
                                               double temperature, std::uint64_t seed,
                                               std::int32_t end_token, std::int32_t unknown_token) {
  if (prompt.empty()) return {{}, "the prompt is empty: give it at least one token"};
  if (!(std::isfinite(temperature) && temperature >= 0)) {
    return {{}, "temperature is " + number(temperature) + "; it must be 0 or above"};
  }
  if (count < 0 || count > 1024) return {{}, range_error("count", count, 0, 1024)};
  SplitMix64 random(seed);
  std::vector<std::int32_t> out;
  for (Index k = 0; k < count; ++k) {
    const size_t from = prompt.size() > size_t(c.context) ? prompt.size() - size_t(c.context) : 0;
    const std::vector<std::int32_t> window(prompt.begin() + long(from), prompt.end());
    const auto r = gpt_forward<F>(c, params, window, 1);
    if (!r.ok()) return {{}, r.error};
    Vector<double> z =
        r.value.logits.row(r.value.logits.rows() - 1).transpose().template cast<double>();
    if (unknown_token >= 0 && unknown_token < c.vocab) z(unknown_token) = -INFINITY;
    Index next = 0;
    if (temperature == 0) {
      z.maxCoeff(&next);
    } else {
      const double top = z.maxCoeff();
      std::vector<double> p(size_t(c.vocab));
      double sum = 0;
      for (Index j = 0; j < c.vocab; ++j)
        sum += p[size_t(j)] = std::exp((z(j) - top) / temperature);
      double u = random.uniform() * sum;
      for (next = 0; next < c.vocab - 1 && u >= p[size_t(next)]; ++next) u -= p[size_t(next)];
    }
    out.push_back(std::int32_t(next));
    prompt.push_back(std::int32_t(next));
    if (std::int32_t(next) == end_token) break;
  }
  return {std::move(out), {}};
}

#define ATTENTION_GPT_TRAINING(F)                                                                  \
  template Result<GptTrainer<F>> gpt_trainer(const GptConfig&, std::vector<std::int32_t>, Index,   \
                                             double, std::int64_t, std::uint64_t, std::vector<F>); \
  template Result<double> gpt_train_step(GptTrainer<F>&);                                          \
  template Result<std::optional<double>> gpt_train_slice(GptTrainer<F>&, Index);                   \
  template void gpt_train_draw(GptTrainer<F>&);                                                    \
  template std::string gpt_slice_gradient(const GptConfig&, const std::vector<F>&, Index,          \
                                          GptWork<F>&);                                            \
  template Result<std::optional<double>> gpt_train_add(GptTrainer<F>&, Index, double,              \
                                                       const std::vector<F>&);                     \
  template Result<GptLossGradient<F>> gpt_loss_gradient(const GptConfig&, const std::vector<F>&,   \
                                                        const std::vector<std::int32_t>&, Index,   \
                                                        const std::vector<std::int32_t>&);         \
  template Result<double> gpt_stream_loss(const GptConfig&, const std::vector<F>&,                 \
                                          const std::vector<std::int32_t>&);                       \
  template Result<std::vector<std::int32_t>> gpt_generate(                                         \
      const GptConfig&, const std::vector<F>&, std::vector<std::int32_t>, Index, double,           \
      std::uint64_t, std::int32_t, std::int32_t);
ATTENTION_GPT_TRAINING(float)
ATTENTION_GPT_TRAINING(double)
#undef ATTENTION_GPT_TRAINING

}  // namespace attention
