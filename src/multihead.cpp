// multihead.cpp: multi-head and grouped-query attention, a decoding step on a KV cache, and
// position encodings, built on attend() from attention.cpp: every head is one scaled
// dot-product attention with its own trace.
#include "multihead.hpp"

#include <cmath>
#include <string>
#include <tuple>
#include <utility>

#include "support.hpp"

namespace attention {
namespace {

// h, h_kv, the base and the scale.
std::string check_options(const MultiHeadOptions& o) {
  if (o.heads < 1) return "h is " + std::to_string(o.heads) + "; it must be at least 1 head";
  if (o.kv_heads < 0 || o.kv_heads > o.heads || o.heads % o.kv_heads != 0) {
    return "h_kv is " + std::to_string(o.kv_heads) +
           ", which does not divide h = " + std::to_string(o.heads) +
           " (each key-value head serves h/h_kv query heads)";
  }
  if (!(std::isfinite(o.base) && o.base > 0)) return "base must be a finite number above 0";
  if (o.scale && !std::isfinite(*o.scale)) return "scale must be a finite number";
  if (!std::isfinite(o.pe_scale)) return "peScale must be a finite number";
  return {};
}

// The weights against X's d_model and the options; sets d_head.
std::string check_weights(Index d_model, const MultiHeadWeights& w, const MultiHeadOptions& o,
                          Index& d_head) {
  for (auto [name, m] : {std::pair{"W_Q", &w.W_Q}, std::pair{"W_K", &w.W_K},
                         std::pair{"W_V", &w.W_V}, std::pair{"W_O", &w.W_O}}) {
    if (auto error = check_input<double>(name, *m); !error.empty()) return error;
  }
  for (auto [name, m] :
       {std::pair{"W_Q", &w.W_Q}, std::pair{"W_K", &w.W_K}, std::pair{"W_V", &w.W_V}}) {
    if (m->rows() != d_model) {
      return std::string(name) + " has " + count(m->rows(), "row") + " but X has " +
             count(d_model, "column") + " (X·" + name + " needs them equal)";
    }
  }
  if (w.W_Q.cols() % o.heads != 0) {
    return "W_Q has " + count(w.W_Q.cols(), "column") +
           ", which is not h·d_head for h = " + std::to_string(o.heads) + " heads (a multiple of " +
           std::to_string(o.heads) + ")";
  }
  d_head = w.W_Q.cols() / o.heads;
  const Index kv_width = o.kv_heads * d_head;
  for (auto [name, m] : {std::pair{"W_K", &w.W_K}, std::pair{"W_V", &w.W_V}}) {
    if (m->cols() != kv_width) {
      return std::string(name) + " has " + count(m->cols(), "column") + " but h_kv·d_head is " +
             std::to_string(kv_width) + " (h_kv = " + std::to_string(o.kv_heads) +
             ", d_head = " + std::to_string(d_head) + ")";
    }
  }
  if (w.W_O.rows() != w.W_Q.cols()) {
    return "W_O has " + count(w.W_O.rows(), "row") + " but h·d_head is " +
           std::to_string(w.W_Q.cols()) + " (one row per column of the concatenation)";
  }
  if (w.W_O.cols() != d_model) {
    return "W_O has " + count(w.W_O.cols(), "column") + " but X has " + std::to_string(d_model) +
           " (the output has d_model columns)";
  }
  if (o.positions == Positions::kRotary && d_head % 2 != 0) {
    return "RoPE rotates pairs of columns, so d_head must be even, but it is " +
           std::to_string(d_head);
  }
  return {};
}

std::string check_positions(const std::vector<double>& positions) {
  for (size_t p = 0; p < positions.size(); ++p) {
    if (!std::isfinite(positions[p])) {
      return "positions[" + std::to_string(p + 1) + "] is not a finite number";
    }
  }
  return {};
}

// Every angle pos·θ_i must be a finite number: with a base below 1, θ_i grows with i, and a large
// position times it overflows.
std::string check_angles(const std::vector<double>& positions, Index d, double base) {
  for (Index i = 0; i < (d + 1) / 2; ++i) {
    const double theta = std::pow(base, -2.0 * double(i) / double(d));
    for (size_t p = 0; p < positions.size(); ++p) {
      if (!std::isfinite(positions[p] * theta)) {
        return "positions[" + std::to_string(p + 1) + "] × θ_" + std::to_string(i) + " = " +
               number(positions[p]) + " × " + number(theta) +
               " overflows: every angle must be a finite number (base " + number(base) +
               " is below 1, so θ grows with i)";
      }
    }
  }
  return {};
}

// θ_i = base^(−2i/d) for i = 0 … ⌈d/2⌉−1, and the angles pos·θ_i of every row.
PositionTrace angles_of(const std::vector<double>& positions, Index d, double base) {
  PositionTrace t;
  t.positions = positions;
  const Index pairs = (d + 1) / 2, n = Index(positions.size());
  t.theta.resize(pairs);
  for (Index i = 0; i < pairs; ++i) t.theta(i) = std::pow(base, -2.0 * double(i) / double(d));
  t.angles.resize(n, pairs);
  for (Index p = 0; p < n; ++p)
    for (Index i = 0; i < pairs; ++i) t.angles(p, i) = positions[p] * t.theta(i);
  t.cos = t.angles.array().cos();
  t.sin = t.angles.array().sin();
  return t;
}

SinusoidalTrace sinusoidal(const std::vector<double>& positions, Index d_model, double base) {
  SinusoidalTrace t{angles_of(positions, d_model, base), {}};
  t.encoding.resize(Index(positions.size()), d_model);
  for (Index p = 0; p < t.encoding.rows(); ++p)
    for (Index c = 0; c < d_model; ++c)
      t.encoding(p, c) = c % 2 == 0 ? t.angles.sin(p, c / 2) : t.angles.cos(p, c / 2);
  return t;
}

// Rotates the pairs (2i, 2i+1) of every d_head block of M's rows.
RotaryTrace rotate(const Matrix<double>& M, const std::vector<double>& positions, Index d_head,
                   double base) {
  RotaryTrace t{angles_of(positions, d_head, base), M};
  for (Index p = 0; p < M.rows(); ++p)
    for (Index block = 0; block < M.cols(); block += d_head)
      for (Index i = 0; i < d_head / 2; ++i) {
        const double a = M(p, block + 2 * i), b = M(p, block + 2 * i + 1);
        const double c = t.angles.cos(p, i), s = t.angles.sin(p, i);
        t.rotated(p, block + 2 * i) = a * c - b * s;
        t.rotated(p, block + 2 * i + 1) = a * s + b * c;
      }
  return t;
}

std::vector<double> range(Index from, Index n) {
  std::vector<double> positions(static_cast<size_t>(n));
  for (Index p = 0; p < n; ++p) positions[size_t(p)] = double(from + p);
  return positions;
}

// The layer on the rows of t.x, at `positions`, after `k_cache` and `v_cache` (rows before
// them, already projected and rotated). Numbered as on the page.
std::string run_layer(MultiHeadTrace& t, const MultiHeadWeights& w, const MultiHeadOptions& o,
                      const std::vector<double>& positions, const MatrixRef<double>& k_cache,
                      const MatrixRef<double>& v_cache, bool causal) {
  const Index d = t.d_head;
  // 1. the projections: Q (n, h·d_head), K and V (n, h_kv·d_head)
  t.q = t.x.lazyProduct(w.W_Q);
  t.k = t.x.lazyProduct(w.W_K);
  t.v = t.x.lazyProduct(w.W_V);
  for (auto [name, m, weight] :
       {std::tuple{"Q", &t.q, "W_Q"}, std::tuple{"K", &t.k, "W_K"}, std::tuple{"V", &t.v, "W_V"}}) {
    if (auto error = check_overflow(
            name, *m, [w = weight](Index i, Index j) { return product_formula("X", i, w, j); });
        !error.empty()) {
      return error;
    }
  }
  // 2. RoPE: rotate q and k by their positions
  if (o.positions == Positions::kRotary) {
    t.q_rotated = rotate(t.q, positions, d, o.base);
    t.k_rotated = rotate(t.k, positions, d, o.base);
  }
  const Matrix<double>& Q = t.q_rotated ? t.q_rotated->rotated : t.q;  // (n, h·d_head)
  const Matrix<double>& K_new = t.k_rotated ? t.k_rotated->rotated : t.k;
  Matrix<double> K(k_cache.rows() + K_new.rows(), K_new.cols());  // (cache + n, h_kv·d_head)
  K << k_cache, K_new;
  Matrix<double> V(v_cache.rows() + t.v.rows(), t.v.cols());  // (cache + n, h_kv·d_head)
  V << v_cache, t.v;

  // 3. every query head i attends with key-value head ⌊i·h_kv/h⌋
  Options head_options;
  head_options.scale = o.scale;
  head_options.mask_kind = causal ? MaskKind::kCausal : MaskKind::kNone;
  t.concat.resize(Q.rows(), t.heads * d);
  for (Index i = 0; i < t.heads; ++i) {
    const Index g = t.kv_head[size_t(i)];
    Matrix<double> q = Q.middleCols(i * d, d), k = K.middleCols(g * d, d),
                   v = V.middleCols(g * d, d);
    Result<Trace<double>> head = attend<double>(q, k, v, head_options);
    if (!head.ok()) return "head " + std::to_string(i + 1) + ": " + head.error;
    head.value.q = std::move(q);
    head.value.k = std::move(k);
    head.value.v = std::move(v);
    // 4. the concatenation: head i's output is columns i·d_head+1 … (i+1)·d_head
    t.concat.middleCols(i * d, d) = head.value.output;
    t.head.push_back(std::move(head.value));
  }
  // 5. output = concat·W_O, (n, d_model)
  t.output = t.concat.lazyProduct(w.W_O);
  return check_overflow("output", t.output,
                        [](Index i, Index j) { return product_formula("concat", i, "W_O", j); });
}

// Checks, then the trace with its shapes and the input rows (positions added).
std::string start(MultiHeadTrace& t, const MatrixRef<double>& X, const MultiHeadWeights& w,
                  MultiHeadOptions& o, Index first_position) {
  if (auto error = check_options(o); !error.empty()) return error;
  if (auto error = check_input<double>("X", X); !error.empty()) return error;
  if (auto error = check_weights(X.cols(), w, o, t.d_head); !error.empty()) return error;
  // a base far below 1 makes θ so large that even these positions' angles overflow
  const auto angles = o.positions == Positions::kSinusoidal
                          ? check_angles(range(first_position, X.rows()), X.cols(), o.base)
                      : o.positions == Positions::kRotary
                          ? check_angles(range(0, first_position + X.rows()), t.d_head, o.base)
                          : std::string();
  if (!angles.empty()) return angles;
  t.heads = o.heads;
  t.kv_heads = o.kv_heads;
  for (Index i = 0; i < o.heads; ++i) t.kv_head.push_back(i * o.kv_heads / o.heads);
  t.x = X;
  if (o.positions == Positions::kSinusoidal) {
    t.sinusoidal = sinusoidal(range(first_position, X.rows()), X.cols(), o.base);
    t.x += o.pe_scale * t.sinusoidal->encoding;
  }
  return {};
}

MultiHeadOptions with_kv_heads(MultiHeadOptions o) {
  if (o.kv_heads == 0) o.kv_heads = o.heads;
  return o;
}

}  // namespace

Result<MultiHeadTrace> multi_head_attention(const MatrixRef<double>& X,
                                            const MultiHeadWeights& weights,
                                            const MultiHeadOptions& options) {
  MultiHeadOptions o = with_kv_heads(options);
  MultiHeadTrace t;
  if (auto error = start(t, X, weights, o, 0); !error.empty()) return {{}, error};
  const Matrix<double> none(0, o.kv_heads * t.d_head);
  if (auto error = run_layer(t, weights, o, range(0, X.rows()), none, none, o.causal);
      !error.empty()) {
    return {{}, error};
  }
  return {std::move(t), {}};
}

Result<DecodeStep> decode_step(const MatrixRef<double>& x, const MatrixRef<double>& k_cache,
                               const MatrixRef<double>& v_cache, const MultiHeadWeights& weights,
                               const MultiHeadOptions& options) {
  MultiHeadOptions o = with_kv_heads(options);
  DecodeStep step;
  MultiHeadTrace& t = step.trace;
  const Index length = k_cache.rows();
  if (auto error = start(t, x, weights, o, length); !error.empty()) return {{}, error};
  if (x.rows() != 1) {
    return {{}, "x has " + count(x.rows(), "row") + " but a decoding step takes one token row"};
  }
  const Index width = o.kv_heads * t.d_head;
  for (auto [name, m] : {std::pair{"K cache", &k_cache}, std::pair{"V cache", &v_cache}}) {
    if (auto error = check_input<double>(name, *m, true); !error.empty()) return {{}, error};
    if (m->rows() > 0 && m->cols() != width) {
      return {{},
              std::string(name) + " has " + count(m->cols(), "column") + " but h_kv·d_head is " +
                  std::to_string(width)};
    }
  }
  if (v_cache.rows() != length) {
    return {{},
            "V cache has " + count(v_cache.rows(), "row") + " but K cache has " +
                std::to_string(length) + " (one value row per cached key)"};
  }
  if (length + 1 > kMaxDim) {
    return {{},
            "the cache holds " + std::to_string(length) + " tokens, the limit is " +
                std::to_string(kMaxDim)};
  }
  step.position = length;
  const Matrix<double> K = k_cache.rows() > 0 ? Matrix<double>(k_cache) : Matrix<double>(0, width);
  const Matrix<double> V = v_cache.rows() > 0 ? Matrix<double>(v_cache) : Matrix<double>(0, width);
  if (auto error = run_layer(t, weights, o, range(length, 1), K, V, false); !error.empty()) {
    return {{}, error};
  }
  step.k_cache.resize(length + 1, width);
  step.k_cache << K, (t.k_rotated ? t.k_rotated->rotated : t.k);
  step.v_cache.resize(length + 1, width);
  step.v_cache << V, t.v;

  // The multiply-adds: this step's one row, against a causal pass over all n = length+1 rows.
  const std::int64_t d_model = x.cols(), d = t.d_head, h = o.heads, h_kv = o.kv_heads;
  const std::int64_t n = length + 1, pairs = n * (n + 1) / 2;
  step.cost = decode_cost(d_model, h, h_kv, d, n);
  const std::int64_t projection = step.cost.projections;
  step.full = {n * projection, h * pairs * d, h * pairs * d, n * h * d * d_model, 0};
  step.full.total =
      step.full.projections + step.full.scores + step.full.weighted_sum + step.full.output;
  return {std::move(step), {}};
}

Cost decode_cost(std::int64_t d_model, std::int64_t h, std::int64_t h_kv, std::int64_t d_head,
                 std::int64_t n) {
  Cost c{d_model * (h + 2 * h_kv) * d_head, h * n * d_head, h * n * d_head, h * d_head * d_model,
         0};
  c.total = c.projections + c.scores + c.weighted_sum + c.output;
  return c;
}

Result<SinusoidalTrace> sinusoidal_positions(const std::vector<double>& positions, Index d_model,
                                             double base) {
  if (auto error = check_positions(positions); !error.empty()) return {{}, error};
  if (d_model < 1 || d_model > kMaxDim) {
    return {{}, range_error("d_model", d_model, 1, kMaxDim)};
  }
  if (positions.size() > size_t(kMaxDim)) {
    return {{},
            "positions has " + count(std::int64_t(positions.size()), "number") +
                ", over the limit of " + std::to_string(kMaxDim)};
  }
  if (!(std::isfinite(base) && base > 0)) return {{}, "base must be a finite number above 0"};
  if (auto error = check_angles(positions, d_model, base); !error.empty()) return {{}, error};
  return {sinusoidal(positions, d_model, base), {}};
}

Result<RotaryTrace> rotary(const MatrixRef<double>& M, const std::vector<double>& positions,
                           Index d_head, double base) {
  if (auto error = check_input<double>("M", M); !error.empty()) return {{}, error};
  if (auto error = check_positions(positions); !error.empty()) return {{}, error};
  if (Index(positions.size()) != M.rows()) {
    return {{},
            "positions has " + std::to_string(positions.size()) + " numbers but M has " +
                count(M.rows(), "row")};
  }
  if (d_head < 2 || d_head % 2 != 0 || M.cols() % d_head != 0) {
    return {{},
            "RoPE rotates pairs of columns in blocks of d_head: d_head must be even and divide "
            "M's " +
                count(M.cols(), "column") + ", but it is " + std::to_string(d_head)};
  }
  if (!(std::isfinite(base) && base > 0)) return {{}, "base must be a finite number above 0"};
  if (auto error = check_angles(positions, d_head, base); !error.empty()) return {{}, error};
  RotaryTrace t = rotate(M, positions, d_head, base);
  // A pair (a, b) turns into (a·cos θ − b·sin θ, a·sin θ + b·cos θ): up to √2 times the larger.
  const auto turned = [](Index i, Index j) {
    const std::string a = "M" + cell(i, j - j % 2), b = "M" + cell(i, j - j % 2 + 1);
    return j % 2 == 0 ? a + "·cos θ − " + b + "·sin θ" : a + "·sin θ + " + b + "·cos θ";
  };
  if (auto error = check_overflow("rotated", t.rotated, turned); !error.empty()) return {{}, error};
  return {std::move(t), {}};
}

}  // namespace attention
