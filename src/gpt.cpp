// gpt.cpp: the small transformer of gpt.hpp. Each layer is a forward function and a backward
// function with the same names; the backward reads what the forward saved. Products, the
// logits' e^x and GELU's tanh are Eigen's and std's, except for float in WebAssembly, where they
// are gpt_kernel.hpp's SIMD kernels; each (sequence, head) attends over its own T×T block.
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

// The tensors of a layer, in the layout's order after wte.
enum LayerTensor {
  kLn1G,
  kLn1B,
  kWq,
  kWk,
  kWv,
  kWo,
  kLn2G,
  kLn2B,
  kWfc,
  kBfc,
  kWproj,
  kBproj,
  kLayerTensors
};

constexpr double kLnEps = 1e-5;
// Every matrix of a model's pass holds at most this many numbers (the logits are the largest).
constexpr std::int64_t kMaxGptValues = std::int64_t{1} << 25;

std::int64_t tensor_index(Index layer, LayerTensor t) { return 1 + layer * kLayerTensors + t; }

template <typename T>
using Map = Eigen::Map<Matrix<T>>;
template <typename T>
using ConstMap = Eigen::Map<const Matrix<T>>;

// A tensor of the flat buffer, as a row-major matrix.
template <typename T>
ConstMap<T> tensor(const std::vector<GptTensor>& layout, const std::vector<T>& flat,
                   std::int64_t index) {
  const GptTensor& t = layout[size_t(index)];
  return ConstMap<T>(flat.data() + t.offset, t.rows, t.cols);
}
template <typename T>
Map<T> tensor(const std::vector<GptTensor>& layout, std::vector<T>& flat, std::int64_t index) {
  const GptTensor& t = layout[size_t(index)];
  return Map<T>(flat.data() + t.offset, t.rows, t.cols);
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
// float goes through the SIMD kernel (Eigen 3.4 has none there); elsewhere, and for double,
// Eigen's product.
template <typename Out, typename A, typename B>
void product(Out&& out, const A& a, const B& b, bool accumulate = false) {
  using O = std::decay_t<Out>;
  if constexpr (std::is_base_of_v<Eigen::PlainObjectBase<O>, O>) {
    if (!accumulate) out.resize(a.rows(), b.cols());
  }
#if defined(__wasm_simd128__)
  if constexpr (std::is_same_v<typename O::Scalar, float>) {
    fast::gemm(view(a), view(b), out.data(), out.outerStride(), accumulate);
    return;
  }
#endif
  if (accumulate) {
    out.noalias() += a * b;
  } else {
    out.noalias() = a * b;
  }
}

// out's row i = e^(in's row i − top)
template <typename T>
void exp_shifted_row(const Matrix<T>& in, Index i, T top, Matrix<T>& out) {
#if defined(__wasm_simd128__)
  if constexpr (std::is_same_v<T, float>) {
    fast::exp_shifted(&in(i, 0), top, &out(i, 0), in.cols());
    return;
  }
#endif
  out.row(i) = (in.row(i).array() - top).exp().matrix();
}

// ---- LayerNorm: h = (x − mean)·rstd ⊙ g + b, row by row ----

template <typename T>
void layernorm_forward(const Matrix<T>& x, const ConstMap<T>& g, const ConstMap<T>& b, Matrix<T>& h,
                       Vector<T>& mean, Vector<T>& rstd) {
  const Index n = x.rows(), c = x.cols();
  h.resize(n, c);
  mean.resize(n);
  rstd.resize(n);
  for (Index i = 0; i < n; ++i) {
    const T m = x.row(i).mean();
    const T var = (x.row(i).array() - m).square().mean();
    const T r = T(1) / std::sqrt(var + T(kLnEps));
    mean(i) = m;
    rstd(i) = r;
    h.row(i) = ((x.row(i).array() - m) * r * g.row(0).array() + b.row(0).array()).matrix();
  }
}

// dh in, dx added to; dg and db added to.
template <typename T>
void layernorm_backward(const Matrix<T>& x, const Vector<T>& mean, const Vector<T>& rstd,
                        const ConstMap<T>& g, const Matrix<T>& dh, Matrix<T>& dx, Map<T> dg,
                        Map<T> db) {
  for (Index i = 0; i < x.rows(); ++i) {
    const auto xhat = ((x.row(i).array() - mean(i)) * rstd(i)).eval();
    const auto dxhat = (dh.row(i).array() * g.row(0).array()).eval();
    dg.row(0).array() += dh.row(i).array() * xhat;
    db.row(0).array() += dh.row(i).array();
    const T mean_d = dxhat.mean(), mean_dx = (dxhat * xhat).mean();
    dx.row(i).array() += rstd(i) * (dxhat - mean_d - xhat * mean_dx);
  }
}

// ---- RoPE on each head's pairs (2i, 2i+1), row r at position r mod T ----

template <typename T>
void rope(Matrix<T>& m, Index length, Index d_head, double base, bool back) {
  for (Index r = 0; r < m.rows(); ++r) {
    const double pos = double(r % length);
    for (Index i = 0; i < d_head / 2; ++i) {
      const double angle = pos * std::pow(base, -2.0 * double(i) / double(d_head));
      const T c = T(std::cos(angle)), s = T(back ? -std::sin(angle) : std::sin(angle));
      for (Index block = 0; block < m.cols(); block += d_head) {
        const T a = m(r, block + 2 * i), b = m(r, block + 2 * i + 1);
        m(r, block + 2 * i) = a * c - b * s;
        m(r, block + 2 * i + 1) = a * s + b * c;
      }
    }
  }
}

// ---- GELU, tanh form: 0.5x(1 + tanh(√(2/π)(x + 0.044715x³))) ----

constexpr double kGeluS = 0.7978845608028654;  // √(2/π)

// t = tanh(√(2/π)(x + 0.044715x³)) for every x of fc: GELU's inner tanh.
template <typename T>
Matrix<T> gelu_tanh(const Matrix<T>& fc) {
  Matrix<T> t = fc.unaryExpr([](T x) { return T(kGeluS) * (x + T(0.044715) * x * x * x); });
#if defined(__wasm_simd128__)
  if constexpr (std::is_same_v<T, float>) {
    fast::tanh_all(t.data(), t.size());
    return t;
  }
#endif
  return t.unaryExpr([](T u) { return std::tanh(u); });
}

template <typename T>
T gelu(T x, T t) {
  return T(0.5) * x * (T(1) + t);
}

template <typename T>
T gelu_slope(T x, T t) {
  return T(0.5) * (T(1) + t) +
         T(0.5) * x * (T(1) - t * t) * T(kGeluS) * (T(1) + T(3 * 0.044715) * x * x);
}

// ---- causal attention over each (sequence, head) block ----

template <typename T>
void attention_forward(GptLayerTrace<T>& L, Index batch, Index length, Index heads) {
  const Index dh = L.q.cols() / heads;
  const T scale = T(1) / std::sqrt(T(dh));
  L.concat.resize(L.q.rows(), L.q.cols());
  L.s.assign(size_t(batch * heads), Matrix<T>());
  L.p.assign(size_t(batch * heads), Matrix<T>());
  for (Index b = 0; b < batch; ++b)
    for (Index h = 0; h < heads; ++h) {
      const auto q = L.q.block(b * length, h * dh, length, dh);
      const auto k = L.k.block(b * length, h * dh, length, dh);
      const auto v = L.v.block(b * length, h * dh, length, dh);
      Matrix<T>& p = L.p[size_t(b * heads + h)];
      Matrix<T>& scores = L.s[size_t(b * heads + h)];
      product(scores, q, k.transpose());  // (T, T)
      scores *= scale;
      p = scores;
      for (Index i = 0; i < length; ++i) {
        // causal: query i sees keys 0..i
        const T top = p.row(i).head(i + 1).maxCoeff();
        T sum = 0;
        for (Index j = 0; j < length; ++j) {
          p(i, j) = j <= i ? std::exp(p(i, j) - top) : T(0);
          sum += p(i, j);
        }
        p.row(i) /= sum;
      }
      product(L.concat.block(b * length, h * dh, length, dh), p, v);
    }
}

// d(concat) in; dq, dk, dv out (before RoPE's transpose).
template <typename T>
void attention_backward(const GptLayerTrace<T>& L, const Matrix<T>& d_concat, Index batch,
                        Index length, Index heads, Matrix<T>& dq, Matrix<T>& dk, Matrix<T>& dv) {
  const Index dh = L.q.cols() / heads;
  const T scale = T(1) / std::sqrt(T(dh));
  dq.setZero(L.q.rows(), L.q.cols());
  dk.setZero(L.k.rows(), L.k.cols());
  dv.setZero(L.v.rows(), L.v.cols());
  for (Index b = 0; b < batch; ++b)
    for (Index h = 0; h < heads; ++h) {
      const Matrix<T>& p = L.p[size_t(b * heads + h)];
      const auto q = L.q.block(b * length, h * dh, length, dh);
      const auto k = L.k.block(b * length, h * dh, length, dh);
      const auto v = L.v.block(b * length, h * dh, length, dh);
      const auto d_out = d_concat.block(b * length, h * dh, length, dh);
      product(dv.block(b * length, h * dh, length, dh), p.transpose(), d_out);
      Matrix<T> dp;
      product(dp, d_out, v.transpose());  // (T, T)
      for (Index i = 0; i < length; ++i) {
        const T dot = (dp.row(i).array() * p.row(i).array()).sum();
        dp.row(i) = (p.row(i).array() * (dp.row(i).array() - dot) * scale).matrix();
      }
      product(dq.block(b * length, h * dh, length, dh), dp, k);
      product(dk.block(b * length, h * dh, length, dh), dp.transpose(), q);
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

}  // namespace

std::vector<GptTensor> gpt_layout(const GptConfig& c) {
  std::vector<GptTensor> out;
  std::int64_t offset = 0;
  const auto add = [&](std::string name, Index rows, Index cols, bool decay) {
    out.push_back({std::move(name), rows, cols, offset, decay});
    offset += std::int64_t(rows) * cols;
  };
  const Index C = c.d_model;
  add("wte", c.vocab, C, true);
  for (Index l = 0; l < c.layers; ++l) {
    const std::string p = "l" + std::to_string(l) + ".";
    add(p + "ln1_g", 1, C, false);
    add(p + "ln1_b", 1, C, false);
    add(p + "w_q", C, C, true);
    add(p + "w_k", C, C, true);
    add(p + "w_v", C, C, true);
    add(p + "w_o", C, C, true);
    add(p + "ln2_g", 1, C, false);
    add(p + "ln2_b", 1, C, false);
    add(p + "w_fc", C, 4 * C, true);
    add(p + "b_fc", 1, 4 * C, false);
    add(p + "w_proj", 4 * C, C, true);
    add(p + "b_proj", 1, C, false);
  }
  add("lnf_g", 1, C, false);
  add("lnf_b", 1, C, false);
  return out;
}

std::int64_t gpt_size(const GptConfig& config) {
  const std::vector<GptTensor> layout = gpt_layout(config);
  return layout.back().offset + std::int64_t(layout.back().rows) * layout.back().cols;
}

std::string check_gpt_config(const GptConfig& c) {
  for (auto [name, value, high] :
       {std::tuple{"vocab", c.vocab, Index(65536)}, std::tuple{"context", c.context, Index(1024)},
        std::tuple{"d_model", c.d_model, Index(1024)}, std::tuple{"layers", c.layers, Index(16)},
        std::tuple{"heads", c.heads, Index(64)}}) {
    if (value < 1 || value > high) return range_error(name, value, 1, high);
  }
  if (c.d_model % c.heads != 0 || (c.d_model / c.heads) % 2 != 0) {
    return "d_model " + std::to_string(c.d_model) +
           " is not heads × an even d_head (heads = " + std::to_string(c.heads) +
           "; RoPE turns pairs)";
  }
  if (!(std::isfinite(c.base) && c.base > 0)) return "base must be a finite number above 0";
  if (gpt_size(c) > kMaxGptValues) {
    return "the model would have " + std::to_string(gpt_size(c)) + " parameters, over " +
           std::to_string(kMaxGptValues);
  }
  return {};
}

template <typename T>
Result<GptTrace<T>> gpt_forward(const GptConfig& config, const std::vector<T>& params,
                                const std::vector<std::int32_t>& tokens, Index batch,
                                const std::vector<std::int32_t>& targets) {
  if (auto e = check_gpt_config(config); !e.empty()) return {{}, e};
  if (std::int64_t(params.size()) != gpt_size(config)) {
    return {{},
            "params has " + count(Index(params.size()), "number") + " but the model has " +
                std::to_string(gpt_size(config))};
  }
  if (auto e = check_tokens(config, tokens, batch, targets); !e.empty()) return {{}, e};
  const std::vector<GptTensor> layout = gpt_layout(config);
  const auto at = [&](std::int64_t i) { return tensor(layout, params, i); };
  const Index n = Index(tokens.size()), C = config.d_model;
  GptTrace<T> t;
  t.batch = batch;
  t.length = n / batch;
  // the embedding: x = wte[tokens] (N, C)
  Matrix<T> x(n, C);
  const auto wte = at(0);
  for (Index i = 0; i < n; ++i) x.row(i) = wte.row(tokens[size_t(i)]);
  for (Index l = 0; l < config.layers; ++l) {
    GptLayerTrace<T> L;
    L.x = x;
    // attention: ln1, the projections, RoPE, the heads, W_O, the residual
    layernorm_forward(L.x, at(tensor_index(l, kLn1G)), at(tensor_index(l, kLn1B)), L.h1, L.mean1,
                      L.rstd1);
    product(L.q, L.h1, at(tensor_index(l, kWq)));
    product(L.k, L.h1, at(tensor_index(l, kWk)));
    product(L.v, L.h1, at(tensor_index(l, kWv)));
    rope(L.q, t.length, C / config.heads, config.base, false);
    rope(L.k, t.length, C / config.heads, config.base, false);
    attention_forward(L, batch, t.length, config.heads);
    L.x_mid = L.x;
    product(L.x_mid, L.concat, at(tensor_index(l, kWo)), true);
    // the MLP: ln2, W_fc + b_fc, GELU, W_proj + b_proj, the residual
    layernorm_forward(L.x_mid, at(tensor_index(l, kLn2G)), at(tensor_index(l, kLn2B)), L.h2,
                      L.mean2, L.rstd2);
    product(L.fc, L.h2, at(tensor_index(l, kWfc)));
    L.fc.rowwise() += at(tensor_index(l, kBfc)).row(0);
    L.gelu_t = gelu_tanh(L.fc);
    L.gelu = L.fc.binaryExpr(L.gelu_t, [](T v, T t) { return gelu(v, t); });
    x = L.x_mid;
    product(x, L.gelu, at(tensor_index(l, kWproj)), true);
    x.rowwise() += at(tensor_index(l, kBproj)).row(0);
    t.layers.push_back(std::move(L));
  }
  t.x_final = std::move(x);
  const std::int64_t last = 1 + config.layers * kLayerTensors;
  layernorm_forward(t.x_final, at(last), at(last + 1), t.hf, t.meanf, t.rstdf);
  // the logits (N, V), tied to the embedding, and their softmax
  product(t.logits, t.hf, wte.transpose());
  t.probs.resize(n, config.vocab);
  t.top.resize(n);
  t.sum.resize(n);
  for (Index i = 0; i < n; ++i) {
    t.top(i) = t.logits.row(i).maxCoeff();
    exp_shifted_row(t.logits, i, t.top(i), t.probs);
    t.sum(i) = t.probs.row(i).sum();
    t.probs.row(i) /= t.sum(i);
  }
  if (!t.logits.allFinite()) return {{}, "the logits overflow: the parameters are too large"};
  Index counted = 0;
  for (Index i = 0; i < Index(targets.size()); ++i) {
    if (targets[size_t(i)] < 0) continue;
    t.loss -= std::log(double(t.probs(i, targets[size_t(i)])));
    ++counted;
  }
  if (counted > 0) t.loss /= double(counted);
  return {std::move(t), {}};
}

template <typename T>
Result<std::vector<T>> gpt_backward(const GptConfig& config, const std::vector<T>& params,
                                    const GptTrace<T>& t, const std::vector<std::int32_t>& tokens,
                                    const std::vector<std::int32_t>& targets) {
  if (targets.size() != tokens.size()) return {{}, "the backward pass needs a target per token"};
  const std::vector<GptTensor> layout = gpt_layout(config);
  const auto at = [&](std::int64_t i) { return tensor(layout, params, i); };
  std::vector<T> grads(params.size(), T(0));
  const auto d = [&](std::int64_t i) { return tensor(layout, grads, i); };
  const Index n = Index(tokens.size()), C = config.d_model;
  // the loss: d(logits) = (probs − one-hot) / rows counted
  Index counted = 0;
  for (const std::int32_t target : targets) counted += target >= 0;
  Matrix<T> d_logits = t.probs;
  for (Index i = 0; i < n; ++i) {
    if (targets[size_t(i)] < 0) {
      d_logits.row(i).setZero();
    } else {
      d_logits(i, targets[size_t(i)]) -= T(1);
    }
  }
  d_logits /= T(std::max<Index>(counted, 1));
  // logits = hf·wteᵀ: d(hf) = d(logits)·wte, d(wte) += d(logits)ᵀ·hf
  Matrix<T> d_hf;
  product(d_hf, d_logits, at(0));
  product(d(0), d_logits.transpose(), t.hf, true);
  const std::int64_t last = 1 + config.layers * kLayerTensors;
  Matrix<T> dx = Matrix<T>::Zero(n, C);
  layernorm_backward(t.x_final, t.meanf, t.rstdf, at(last), d_hf, dx, d(last), d(last + 1));
  for (Index l = config.layers - 1; l >= 0; --l) {
    const GptLayerTrace<T>& L = t.layers[size_t(l)];
    // the MLP's residual: dx flows on; d(proj) = dx
    d(tensor_index(l, kBproj)).row(0) += dx.colwise().sum();
    product(d(tensor_index(l, kWproj)), L.gelu.transpose(), dx, true);
    Matrix<T> d_fc;
    product(d_fc, dx, at(tensor_index(l, kWproj)).transpose());
    d_fc.array() *= L.fc.binaryExpr(L.gelu_t, [](T v, T t) { return gelu_slope(v, t); }).array();
    d(tensor_index(l, kBfc)).row(0) += d_fc.colwise().sum();
    product(d(tensor_index(l, kWfc)), L.h2.transpose(), d_fc, true);
    Matrix<T> d_h2;
    product(d_h2, d_fc, at(tensor_index(l, kWfc)).transpose());
    Matrix<T> d_mid = dx;
    layernorm_backward(L.x_mid, L.mean2, L.rstd2, at(tensor_index(l, kLn2G)), d_h2, d_mid,
                       d(tensor_index(l, kLn2G)), d(tensor_index(l, kLn2B)));
    // the attention's residual: d(concat) = d_mid·W_Oᵀ
    product(d(tensor_index(l, kWo)), L.concat.transpose(), d_mid, true);
    Matrix<T> d_concat;
    product(d_concat, d_mid, at(tensor_index(l, kWo)).transpose());
    Matrix<T> dq, dk, dv;
    attention_backward(L, d_concat, t.batch, t.length, config.heads, dq, dk, dv);
    rope(dq, t.length, C / config.heads, config.base, true);
    rope(dk, t.length, C / config.heads, config.base, true);
    product(d(tensor_index(l, kWq)), L.h1.transpose(), dq, true);
    product(d(tensor_index(l, kWk)), L.h1.transpose(), dk, true);
    product(d(tensor_index(l, kWv)), L.h1.transpose(), dv, true);
    Matrix<T> d_h1;
    product(d_h1, dq, at(tensor_index(l, kWq)).transpose());
    product(d_h1, dk, at(tensor_index(l, kWk)).transpose(), true);
    product(d_h1, dv, at(tensor_index(l, kWv)).transpose(), true);
    dx = d_mid;
    layernorm_backward(L.x, L.mean1, L.rstd1, at(tensor_index(l, kLn1G)), d_h1, dx,
                       d(tensor_index(l, kLn1G)), d(tensor_index(l, kLn1B)));
  }
  // the embedding: d(wte)[token] += dx
  auto d_wte = d(0);
  for (Index i = 0; i < n; ++i) d_wte.row(tokens[size_t(i)]) += dx.row(i);
  for (const T g : grads) {
    if (!std::isfinite(double(g))) return {{}, "a gradient overflows: the loss is too steep"};
  }
  return {std::move(grads), {}};
}

template <typename T>
std::vector<T> gpt_init(const GptConfig& config, std::uint64_t seed) {
  const std::vector<GptTensor> layout = gpt_layout(config);
  std::vector<T> params(size_t(gpt_size(config)), T(0));
  SplitMix64 random(seed);
  const double residual = 0.02 / std::sqrt(2.0 * double(config.layers));
  for (const GptTensor& t : layout) {
    const bool gain = t.name.find("_g") != std::string::npos;
    const bool scaled =
        t.name.find("w_o") != std::string::npos || t.name.find("w_proj") != std::string::npos;
    for (std::int64_t i = 0; i < std::int64_t(t.rows) * t.cols; ++i) {
      T& p = params[size_t(t.offset + i)];
      if (gain)
        p = T(1);
      else if (t.decay)
        p = T(random.normal() * (scaled ? residual : 0.02));
    }
  }
  return params;
}

template <typename T>
void adamw_step(const GptConfig& config, const AdamW& adam, double lr, std::vector<T>& params,
                const std::vector<T>& grads, AdamState<T>& s) {
  if (s.m.empty()) {
    s.m.assign(params.size(), T(0));
    s.v.assign(params.size(), T(0));
  }
  ++s.step;
  const double c1 = 1 - std::pow(adam.beta1, double(s.step));
  const double c2 = 1 - std::pow(adam.beta2, double(s.step));
  for (const GptTensor& t : gpt_layout(config)) {
    const double decay = t.decay ? adam.weight_decay : 0.0;
    for (std::int64_t i = t.offset; i < t.offset + std::int64_t(t.rows) * t.cols; ++i) {
      const double g = double(grads[size_t(i)]);
      const double m = adam.beta1 * double(s.m[size_t(i)]) + (1 - adam.beta1) * g;
      const double v = adam.beta2 * double(s.v[size_t(i)]) + (1 - adam.beta2) * g * g;
      s.m[size_t(i)] = T(m);
      s.v[size_t(i)] = T(v);
      const double p = double(params[size_t(i)]);
      params[size_t(i)] = T(p - lr * ((m / c1) / (std::sqrt(v / c2) + adam.eps) + decay * p));
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

template <typename T>
Result<GptTrainer<T>> gpt_trainer(const GptConfig& config, std::vector<std::int32_t> data,
                                  Index batch, double lr, std::int64_t total, std::uint64_t seed,
                                  std::vector<T> params) {
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
  if (params.empty()) params = gpt_init<T>(config, seed);
  if (std::int64_t(params.size()) != gpt_size(config)) {
    return {{},
            "params has " + count(Index(params.size()), "number") + " but the model has " +
                std::to_string(gpt_size(config))};
  }
  GptTrainer<T> t;
  t.config = config;
  t.params = std::move(params);
  t.data = std::move(data);
  t.batch = batch;
  t.lr = lr;
  t.total = std::max<std::int64_t>(1, total);
  t.pick = SplitMix64(seed + 1);
  return {std::move(t), {}};
}

template <typename T>
Result<std::optional<double>> gpt_train_slice(GptTrainer<T>& t, Index sequences) {
  const GptConfig& c = t.config;
  if (sequences < 1) return {{}, range_error("sequences", sequences, 1, t.batch)};
  if (t.done == 0) {
    t.tokens.clear();
    t.targets.clear();
    for (Index b = 0; b < t.batch; ++b) {
      const auto at = long(t.pick.uniform() * double(t.data.size() - size_t(c.context) - 1));
      t.tokens.insert(t.tokens.end(), t.data.begin() + at, t.data.begin() + at + c.context);
      t.targets.insert(t.targets.end(), t.data.begin() + at + 1,
                       t.data.begin() + at + 1 + c.context);
    }
    t.grads.assign(t.params.size(), T(0));
    t.loss = 0;
  }
  const Index n = std::min(sequences, t.batch - t.done);
  const auto from = long(t.done * c.context), to = long((t.done + n) * c.context);
  const std::vector<std::int32_t> tokens(t.tokens.begin() + from, t.tokens.begin() + to);
  const std::vector<std::int32_t> targets(t.targets.begin() + from, t.targets.begin() + to);
  auto forward = gpt_forward<T>(c, t.params, tokens, n, targets);
  if (!forward.ok()) return {{}, forward.error};
  auto grads = gpt_backward<T>(c, t.params, forward.value, tokens, targets);
  if (!grads.ok()) return {{}, grads.error};
  // every sequence has T targets: the batch's mean is the slices' means weighted by size
  const T share = T(double(n) / double(t.batch));
  for (size_t i = 0; i < t.grads.size(); ++i) t.grads[i] += share * grads.value[i];
  t.loss += double(share) * forward.value.loss;
  t.done += n;
  if (t.done < t.batch) return {std::nullopt, {}};
  adamw_step(c, t.adam, gpt_learning_rate(t.lr, t.total, t.steps), t.params, t.grads, t.state);
  ++t.steps;
  t.done = 0;
  return {t.loss, {}};
}

template <typename T>
Result<double> gpt_train_step(GptTrainer<T>& t) {
  auto r = gpt_train_slice(t, t.batch);
  if (!r.ok()) return {{}, r.error};
  return {*r.value, {}};
}

template <typename T>
Result<GptLossGradient<T>> gpt_loss_gradient(const GptConfig& c, const std::vector<T>& params,
                                             const std::vector<std::int32_t>& tokens, Index batch,
                                             const std::vector<std::int32_t>& targets) {
  const auto r = gpt_forward<T>(c, params, tokens, batch, targets);
  if (!r.ok()) return {{}, r.error};
  auto g = gpt_backward<T>(c, params, r.value, tokens, targets);
  if (!g.ok()) return {{}, g.error};
  return {{r.value.loss, std::move(g.value)}, {}};
}

template <typename T>
Result<double> gpt_stream_loss(const GptConfig& c, const std::vector<T>& params,
                               const std::vector<std::int32_t>& stream) {
  double sum = 0;
  Index counted = 0;
  for (size_t at = 0; at + 1 < stream.size(); at += size_t(c.context)) {
    const size_t n = std::min<size_t>(size_t(c.context), stream.size() - 1 - at);
    const std::vector<std::int32_t> tokens(stream.begin() + long(at),
                                           stream.begin() + long(at + n));
    const std::vector<std::int32_t> targets(stream.begin() + long(at + 1),
                                            stream.begin() + long(at + n + 1));
    const auto r = gpt_forward<T>(c, params, tokens, 1, targets);
    if (!r.ok()) return {{}, r.error};
    sum += r.value.loss * double(n);
    counted += Index(n);
  }
  if (counted == 0) return {{}, "the stream has fewer than 2 tokens"};
  return {sum / double(counted), {}};
}

template <typename T>
Result<std::vector<std::int32_t>> gpt_generate(const GptConfig& c, const std::vector<T>& params,
                                               std::vector<std::int32_t> prompt, Index steps,
                                               double temperature, std::uint64_t seed,
                                               std::int32_t end_token, std::int32_t unknown_token) {
  if (prompt.empty()) return {{}, "the prompt is empty: give it at least one token"};
  if (!(std::isfinite(temperature) && temperature >= 0)) {
    return {{}, "temperature is " + number(temperature) + "; it must be 0 or above"};
  }
  if (steps < 0 || steps > 1024) return {{}, range_error("steps", steps, 0, 1024)};
  SplitMix64 random(seed);
  std::vector<std::int32_t> out;
  for (Index k = 0; k < steps; ++k) {
    const size_t from = prompt.size() > size_t(c.context) ? prompt.size() - size_t(c.context) : 0;
    const std::vector<std::int32_t> window(prompt.begin() + long(from), prompt.end());
    const auto r = gpt_forward<T>(c, params, window, 1);
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

#define ATTENTION_GPT_TRAINING(T)                                                                  \
  template Result<GptTrainer<T>> gpt_trainer(const GptConfig&, std::vector<std::int32_t>, Index,   \
                                             double, std::int64_t, std::uint64_t, std::vector<T>); \
  template Result<double> gpt_train_step(GptTrainer<T>&);                                          \
  template Result<std::optional<double>> gpt_train_slice(GptTrainer<T>&, Index);                   \
  template Result<GptLossGradient<T>> gpt_loss_gradient(const GptConfig&, const std::vector<T>&,   \
                                                        const std::vector<std::int32_t>&, Index,   \
                                                        const std::vector<std::int32_t>&);         \
  template Result<double> gpt_stream_loss(const GptConfig&, const std::vector<T>&,                 \
                                          const std::vector<std::int32_t>&);                       \
  template Result<std::vector<std::int32_t>> gpt_generate(                                         \
      const GptConfig&, const std::vector<T>&, std::vector<std::int32_t>, Index, double,           \
      std::uint64_t, std::int32_t, std::int32_t);
ATTENTION_GPT_TRAINING(float)
ATTENTION_GPT_TRAINING(double)
#undef ATTENTION_GPT_TRAINING

}  // namespace attention
