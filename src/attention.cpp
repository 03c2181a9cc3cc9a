// attention.cpp: one templated implementation of scaled dot-product attention, the readable
// reference. The teaching path instantiates it for double, the batched reference for float;
// the batched path's fast kernel is kernel.cpp, which this file plans, checks and calls.
#include "attention.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>
#include <tuple>
#include <type_traits>
#include <utility>

#include "kernel.hpp"
#include "random.hpp"
#include "support.hpp"

namespace attention {
namespace {

std::string check_options(Index n_q, Index n_k, const Options& options);

// Q (n_q, d_k), K (n_k, d_k), V (n_k, d_v): shapes, limits and options, before any arithmetic.
std::string check_shapes(Index n_q, Index d_k, Index n_k, Index d_k_of_k, Index n_v, Index d_v,
                         const Options& options) {
  for (auto [name, rows, cols] :
       {std::tuple{"Q", n_q, d_k}, std::tuple{"K", n_k, d_k_of_k}, std::tuple{"V", n_v, d_v}}) {
    if (auto error = check_size(name, rows, cols); !error.empty()) return error;
  }
  if (d_k == 0) return "Q has 0 columns: d_k must be at least 1";
  if (d_k_of_k != d_k) {
    return "K has " + count(d_k_of_k, "column") + " but Q has " + std::to_string(d_k) +
           " (d_k must match)";
  }
  if (n_v != n_k) {
    return "V has " + count(n_v, "row") + " but K has " + std::to_string(n_k) +
           " (one value row per key)";
  }
  if (d_v == 0) return "V has 0 columns: d_v must be at least 1";
  if (std::int64_t(n_q) * n_k > kMaxValues) {
    return "Q·Kᵀ would be " + shape(n_q, n_k) + ", over the limit of " +
           std::to_string(kMaxValues) + " values";
  }
  return check_options(n_q, n_k, options);
}

// The mask's shape, the scale and the dropout probability.
std::string check_options(Index n_q, Index n_k, const Options& options) {
  if (options.mask_kind == MaskKind::kExplicit &&
      (options.mask.rows() != n_q || options.mask.cols() != n_k)) {
    return "mask is " + shape(options.mask.rows(), options.mask.cols()) + " but the scores are " +
           shape(n_q, n_k) + " (n_q×n_k)";
  }
  if (std::isnan(options.mask_value) ||
      options.mask_value == std::numeric_limits<double>::infinity()) {
    return "mask value is " + number(options.mask_value) +
           "; it must be -Infinity or a finite number";
  }
  if (options.scale && !std::isfinite(*options.scale)) {
    return "scale is " + number(*options.scale) + "; it must be a finite number";
  }
  if (!(options.dropout_p >= 0.0 && options.dropout_p < 1.0)) {
    return "dropout p is " + number(options.dropout_p) + "; it must be at least 0 and below 1";
  }
  return {};
}

// How a cell of each step that can overflow is computed, as messages write it.
std::string scores_formula(Index i, Index j) { return "Q" + row(i) + "·K" + row(j); }
std::string scaled_formula(Index i, Index j) { return "scores" + cell(i, j) + " × scale"; }
std::string output_formula(const std::string& weights, Index i, Index j) {
  return "Σ " + weights + row(i) + "[k]·V[k]" + row(j);
}

// The steps that can overflow on finite input, in the order they are computed. exp and the
// weights cannot: every logit minus its row's max is at most 0.
template <typename T>
std::string check_steps(const Matrix<T>& scores, const Matrix<T>& scaled, const Matrix<T>& output,
                        bool dropout, const std::string& where) {
  if (auto e = check_overflow("scores", scores, scores_formula, where); !e.empty()) return e;
  if (auto e = check_overflow("scaled", scaled, scaled_formula, where); !e.empty()) return e;
  const std::string weights = dropout ? "dropped" : "weights";
  return check_overflow(
      "output", output, [&weights](Index i, Index j) { return output_formula(weights, i, j); },
      where);
}

template <typename T>
std::string check_trace(const Trace<T>& t, const std::string& where = "") {
  return check_steps(t.scores, t.scaled, t.output, t.dropped.size() > 0, where);
}

// A double matrix as float32 holds it.
Matrix<float> as_float32(const Matrix<double>& m) { return m.unaryExpr(&fast::to_float32); }

// Head h of a batch, counted from 1 as messages do: "batch 1, head 2: ".
std::string head_name(Index h, Index heads) {
  return "batch " + std::to_string(h / heads + 1) + ", head " + std::to_string(h % heads + 1) +
         ": ";
}

// The steps, on input that has been checked. Numbered and named as in Trace, the README and the
// page: 1 scores, 2 scaled, 3 masked, 4 weights (and dropout), 5 output.
template <typename T>
Trace<T> compute(const MatrixRef<T>& Q, const MatrixRef<T>& K, const MatrixRef<T>& V,
                 const Options& options, SplitMix64& rng) {
  const Index n_q = Q.rows(), n_k = K.rows();
  Trace<T> t;
  t.scale = static_cast<T>(options.scale.value_or(1.0 / std::sqrt(double(Q.cols()))));

  // step 1: scores = Q·Kᵀ, (n_q, n_k). lazyProduct: plain dot products, so that the WASM
  // module carries no general matrix-product kernels; the teaching path's matrices are small.
  t.scores.noalias() = Q.lazyProduct(K.transpose());
  // step 2: scaled = scores × scale
  t.scaled = t.scores * t.scale;
  // step 3: mask, −∞ where blocked
  if (options.mask_kind != MaskKind::kNone) {
    t.masked = t.scaled;
    for (Index i = 0; i < n_q; ++i)
      for (Index j = 0; j < n_k; ++j)
        if (blocked(options, i, j)) t.masked(i, j) = static_cast<T>(options.mask_value);
  }
  const Matrix<T>& logits = options.mask_kind == MaskKind::kNone ? t.scaled : t.masked;

  // step 4: weights, the softmax of each row: subtract the row max, exp, sum, divide
  t.row_max = logits.rowwise().maxCoeff();
  t.exp.resize(n_q, n_k);
  t.row_sum.resize(n_q);
  t.weights.resize(n_q, n_k);
  for (Index i = 0; i < n_q; ++i) {
    if (t.row_max(i) == -std::numeric_limits<T>::infinity()) {
      t.exp.row(i).setZero();
      t.row_sum(i) = 0;
      t.weights.row(i).setZero();
      t.blocked_rows.push_back(i);
      continue;
    }
    // Eigen's vectorised exp clamps −∞ to a denormal, so a blocked cell is set to 0 exactly.
    const auto row = logits.row(i).array();
    t.exp.row(i) =
        (row == -std::numeric_limits<T>::infinity()).select(T(0), (row - t.row_max(i)).exp());
    t.row_sum(i) = t.exp.row(i).sum();
    t.weights.row(i) = t.exp.row(i) / t.row_sum(i);
  }

  // step 4, with dropout: the weights dropped, inverted scaling so the expected weight stays
  if (options.dropout_p > 0) {
    const T keep_scale = static_cast<T>(1.0 / (1.0 - options.dropout_p));
    const Mask keep = dropout_keep(rng, options.dropout_p, n_q, n_k);
    t.dropped = keep.select(t.weights * keep_scale, T(0));
  }

  // step 5: output = weights·V (dropped·V with dropout), (n_q, d_v)
  t.output.noalias() = (options.dropout_p > 0 ? t.dropped : t.weights).lazyProduct(V);
  return t;
}

template <typename T>
std::string check_inputs(const MatrixRef<T>& Q, const MatrixRef<T>& K, const MatrixRef<T>& V,
                         const Options& options) {
  if (auto error =
          check_shapes(Q.rows(), Q.cols(), K.rows(), K.cols(), V.rows(), V.cols(), options);
      !error.empty()) {
    return error;
  }
  for (auto [name, m] : {std::pair{"Q", &Q}, std::pair{"K", &K}, std::pair{"V", &V}}) {
    if (auto error = check_finite(name, m->data(), m->rows(), m->cols()); !error.empty()) {
      return error;
    }
  }
  return {};
}

}  // namespace

template <typename T>
Result<Trace<T>> attend(const MatrixRef<T>& Q, const MatrixRef<T>& K, const MatrixRef<T>& V,
                        const Options& options) {
  if (auto error = check_inputs(Q, K, V, options); !error.empty()) return {{}, error};
  SplitMix64 rng(options.seed);
  Trace<T> t = compute(Q, K, V, options, rng);
  if (auto error = check_trace(t); !error.empty()) return {{}, error};
  return {std::move(t), {}};
}

template <typename T>
Result<Trace<T>> self_attention(const MatrixRef<T>& X, const MatrixRef<T>& W_Q,
                                const MatrixRef<T>& W_K, const MatrixRef<T>& W_V,
                                const Options& options) {
  for (auto [name, m] : {std::pair{"X", &X}, std::pair{"W_Q", &W_Q}, std::pair{"W_K", &W_K},
                         std::pair{"W_V", &W_V}}) {
    if (auto error = check_input<T>(name, *m); !error.empty()) return {{}, error};
  }
  for (auto [name, m] : {std::pair{"W_Q", &W_Q}, std::pair{"W_K", &W_K}, std::pair{"W_V", &W_V}}) {
    if (m->rows() != X.cols()) {
      return {{},
              std::string(name) + " has " + count(m->rows(), "row") + " but X has " +
                  count(X.cols(), "column") + " (X·" + name + " needs them equal)"};
    }
  }
  if (W_K.cols() != W_Q.cols()) {
    return {{},
            "W_K has " + count(W_K.cols(), "column") + " but W_Q has " +
                std::to_string(W_Q.cols()) + " (d_k must match)"};
  }
  // Every size is known before the projections are made.
  for (auto [name, m] : {std::pair{"Q = X·W_Q", &W_Q}, std::pair{"V = X·W_V", &W_V}}) {
    if (X.rows() * m->cols() > kMaxValues) {
      return {{},
              std::string(name) + " would be " + shape(X.rows(), m->cols()) +
                  ", over the limit of " + std::to_string(kMaxValues) + " values"};
    }
  }
  if (auto error =
          check_shapes(X.rows(), W_Q.cols(), X.rows(), W_K.cols(), X.rows(), W_V.cols(), options);
      !error.empty()) {
    return {{}, error};
  }
  // the projections: Q = X·W_Q (n, d_k), K = X·W_K (n, d_k), V = X·W_V (n, d_v)
  Matrix<T> q = X.lazyProduct(W_Q), k = X.lazyProduct(W_K), v = X.lazyProduct(W_V);
  for (auto [name, m, w] :
       {std::tuple{"Q", &q, "W_Q"}, std::tuple{"K", &k, "W_K"}, std::tuple{"V", &v, "W_V"}}) {
    if (auto error = check_overflow(
            name, *m, [w = w](Index i, Index j) { return product_formula("X", i, w, j); });
        !error.empty()) {
      return {{}, error};
    }
  }
  Result<Trace<T>> result = attend<T>(q, k, v, options);
  if (!result.ok()) return result;
  result.value.q = std::move(q);
  result.value.k = std::move(k);
  result.value.v = std::move(v);
  return result;
}

// ---- batched float32 ----

namespace {

// The buffers of a batched call, for its limits and messages.
struct BufferSize {
  const char* name;
  std::int64_t floats;
  const char* formula;
};

std::string bytes(std::int64_t n) { return std::to_string(n) + " bytes"; }

const std::string kMaxBytesText = "the limit of " + bytes(kMaxBytes) + " (1 GiB of WASM memory)";

// Every input of every head is finite: else the first that is not, in the reference's order.
std::string check_batch_finite(const BatchShape& shape, const BatchBuffers& buffers) {
  const std::int64_t heads = shape.batch * shape.heads;
  struct Input {
    const char* name;
    const float* data;
    Index rows, cols;
  };
  const Input inputs[] = {{"Q", buffers.q, Index(shape.n_q), Index(shape.d_k)},
                          {"K", buffers.k, Index(shape.n_k), Index(shape.d_k)},
                          {"V", buffers.v, Index(shape.n_k), Index(shape.d_v)}};
  for (const Input& in : inputs) {
    for (std::int64_t h = 0; h < heads; ++h) {
      if (auto error = check_finite(in.name, in.data + h * in.rows * in.cols, in.rows, in.cols,
                                    head_name(Index(h), Index(shape.heads)));
          !error.empty()) {
        return error;
      }
    }
  }
  return {};
}

// The reference: compute() head by head in double, the teaching path's own code, with the
// steps that would overflow float32 named as a float32 computation would meet them.
std::string run_reference(const BatchShape& shape, const Options& options,
                          const BatchBuffers& buffers) {
  if (auto error = check_batch_finite(shape, buffers); !error.empty()) return error;
  const std::int64_t heads = shape.batch * shape.heads;
  const Index n_q = shape.n_q, n_k = shape.n_k, d_k = shape.d_k, d_v = shape.d_v;
  using Map = Eigen::Map<const Matrix<float>>;
  SplitMix64 rng(options.seed);
  for (std::int64_t h = 0; h < heads; ++h) {
    // one head: Q (n_q, d_k), K (n_k, d_k), V (n_k, d_v)
    const Matrix<double> Q = Map(buffers.q + h * n_q * d_k, n_q, d_k).cast<double>();
    const Matrix<double> K = Map(buffers.k + h * n_k * d_k, n_k, d_k).cast<double>();
    const Matrix<double> V = Map(buffers.v + h * n_k * d_v, n_k, d_v).cast<double>();
    const Trace<double> t = compute<double>(Q, K, V, options, rng);
    const Matrix<float> output = as_float32(t.output);
    if (auto error = check_steps(as_float32(t.scores), as_float32(t.scaled), output,
                                 options.dropout_p > 0, head_name(Index(h), Index(shape.heads)));
        !error.empty()) {
      return error;
    }
    std::copy_n(output.data(), output.size(), buffers.output + h * n_q * d_v);
    if (buffers.weights != nullptr) {
      const Matrix<double>& weights = options.dropout_p > 0 ? t.dropped : t.weights;
      std::transform(weights.data(), weights.data() + weights.size(),
                     buffers.weights + h * n_q * n_k, fast::to_float32);
    }
  }
  return {};
}

// The fast kernel, head by head. It checks its inputs as it goes; when one is not finite, or a
// head overflows, the whole batch is checked first so that the message is the reference's.
std::string run_fast(const BatchShape& shape, const Options& options, const BatchBuffers& buffers) {
  const std::int64_t heads = shape.batch * shape.heads;
  const std::int64_t n_q = shape.n_q, n_k = shape.n_k, d_k = shape.d_k, d_v = shape.d_v;
  const fast::Dims dims{
      n_q, n_k, d_k, d_v, options.mask_kind == MaskKind::kCausal, buffers.weights != nullptr};
  const double scale = options.scale.value_or(1.0 / std::sqrt(double(d_k)));
  for (std::int64_t h = 0; h < heads; ++h) {
    const fast::Head head{buffers.q + h * n_q * d_k, buffers.k + h * n_k * d_k,
                          buffers.v + h * n_k * d_v, buffers.output + h * n_q * d_v,
                          dims.weights ? buffers.weights + h * n_q * n_k : nullptr};
    fast::Overflow overflow;
    const fast::Outcome outcome = fast::attend_head(head, dims, scale, buffers.workspace, overflow);
    if (outcome == fast::Outcome::kDone) continue;
    if (auto error = check_batch_finite(shape, buffers); !error.empty()) return error;
    const Index i = overflow.row, j = overflow.col;
    const double x = overflow.negative ? -HUGE_VAL : HUGE_VAL;
    const std::string where = head_name(Index(h), Index(shape.heads));
    switch (overflow.step) {
      case fast::Overflow::Step::kScores:
        return overflow_message(where, "scores", i, j, scores_formula(i, j), x, true);
      case fast::Overflow::Step::kScaled:
        return overflow_message(where, "scaled", i, j, scaled_formula(i, j), x, true);
      default:
        return overflow_message(where, "output", i, j, output_formula("weights", i, j), x, true);
    }
  }
  return {};
}

}  // namespace

Result<BatchPlan> plan_batched(const BatchShape& shape, std::int64_t q_size, std::int64_t k_size,
                               std::int64_t v_size, const Options& options,
                               const BatchOptions& batch) {
  for (auto [name, value] : {std::pair{"batch", shape.batch}, std::pair{"heads", shape.heads},
                             std::pair{"nQ", shape.n_q}, std::pair{"nK", shape.n_k},
                             std::pair{"dK", shape.d_k}, std::pair{"dV", shape.d_v}}) {
    if (value < 1 || value > kMaxDim) {
      return {{}, range_error("shape." + std::string(name), value, 1, kMaxDim)};
    }
  }
  // Every dimension is now at most kMaxDim, so the products below fit in 64 bits.
  const std::int64_t heads = shape.batch * shape.heads;
  const std::int64_t n_q = shape.n_q, n_k = shape.n_k, d_k = shape.d_k, d_v = shape.d_v;
  if (auto error = check_options(Index(n_q), Index(n_k), options); !error.empty()) {
    return {{}, error};
  }
  // the batched path computes in float32, its fast kernel with scale·log2 e: a scale past
  // float's range there would be ±∞ (found by the fuzzer: 0 × −1e308 gave NaN)
  constexpr double kLargestScale = double(std::numeric_limits<float>::max()) / 1.4426950408889634;
  if (options.scale && std::fabs(*options.scale) > kLargestScale) {
    return {{},
            "scale is " + number(*options.scale) +
                ", too large for the batched path, which computes in float32 (|scale| at most "
                "2.3e38)"};
  }
  BatchPlan plan;
  plan.fast = !batch.reference && options.mask_kind != MaskKind::kExplicit &&
              options.dropout_p == 0 &&
              (options.mask_kind == MaskKind::kNone || std::isinf(options.mask_value));
  plan.q = heads * n_q * d_k;
  plan.k = heads * n_k * d_k;
  plan.v = heads * n_k * d_v;
  plan.output = heads * n_q * d_v;
  plan.weights = batch.weights ? heads * n_q * n_k : 0;
  const BufferSize buffers[] = {{"Q", plan.q, "batch×heads×nQ×dK"},
                                {"K", plan.k, "batch×heads×nK×dK"},
                                {"V", plan.v, "batch×heads×nK×dV"},
                                {"the output", plan.output, "batch×heads×nQ×dV"},
                                {"the weights", plan.weights, "batch×heads×nQ×nK"}};
  const std::int64_t sizes[] = {q_size, k_size, v_size};
  // the limits first, each buffer's and then all of them together; then the inputs' sizes
  for (const BufferSize& b : buffers) {
    if (b.floats * 4 > kMaxBytes) {
      return {{},
              std::string(b.name) + " would take " + bytes(b.floats * 4) + " (" + b.formula +
                  "×4), over " + kMaxBytesText};
    }
  }
  if (plan.fast) {
    plan.workspace = fast::workspace_floats(
        {n_q, n_k, d_k, d_v, options.mask_kind == MaskKind::kCausal, batch.weights});
  } else {
    // one head in double: Q, K, V, a trace of up to six (n_q, n_k) matrices and the output;
    // as float32, the scores, the scaled scores and the output; room for Eigen's blocks
    plan.reference = (n_q * d_k + n_k * d_k + n_k * d_v + 6 * n_q * n_k + n_q * d_v + 4 * n_q) * 8 +
                     (2 * n_q * n_k + n_q * d_v) * 4 + (std::int64_t{4} << 20);
  }
  // everything together, and the largest part to name
  const std::pair<const char*, std::int64_t> parts[] = {
      {"Q", plan.q * 4},
      {"K", plan.k * 4},
      {"V", plan.v * 4},
      {"the output", plan.output * 4},
      {"the weights", plan.weights * 4},
      {"the kernel's tiles", plan.workspace * 4},
      {"the reference's trace of one head", plan.reference}};
  std::int64_t total = 0;
  for (const auto& part : parts) total += part.second;
  if (total > kMaxBytes) {
    std::string what;
    const std::pair<const char*, std::int64_t>* largest = &parts[0];
    for (const auto& part : parts) {
      if (part.second == 0) continue;
      largest = part.second > largest->second ? &part : largest;
      what += (what.empty() ? "" : ", ") + std::string(part.first);
    }
    what.replace(what.rfind(", "), 2, " and ");
    return {{},
            what + " would take " + bytes(total) + " together, over " + kMaxBytesText + "; " +
                largest->first + " alone would take " + bytes(largest->second)};
  }
  for (int b = 0; b < 3; ++b) {
    if (sizes[b] != buffers[b].floats) {
      return {{},
              std::string(buffers[b].name) + " has " + count(sizes[b], "value") +
                  " but the shape needs " + std::to_string(buffers[b].floats) + " (" +
                  buffers[b].formula + ")"};
    }
  }
  return {plan, {}};
}

std::string run_batched(const BatchShape& shape, const Options& options, const BatchPlan& plan,
                        const BatchBuffers& buffers) {
  return plan.fast ? run_fast(shape, options, buffers) : run_reference(shape, options, buffers);
}

Result<Batch> attend_batched(const std::vector<float>& q, const std::vector<float>& k,
                             const std::vector<float>& v, const BatchShape& shape,
                             const Options& options, const BatchOptions& batch) {
  const Result<BatchPlan> plan = plan_batched(shape, std::int64_t(q.size()), std::int64_t(k.size()),
                                              std::int64_t(v.size()), options, batch);
  if (!plan.ok()) return {{}, plan.error};
  Batch out;
  out.output.resize(plan.value.output);
  out.weights.resize(plan.value.weights);
  // 16-byte aligned: a vector of 4-float blocks
  struct alignas(16) Block {
    float x[4];
  };
  std::vector<Block> workspace((plan.value.workspace + 3) / 4);
  const BatchBuffers buffers{q.data(),
                             k.data(),
                             v.data(),
                             out.output.data(),
                             batch.weights ? out.weights.data() : nullptr,
                             workspace.empty() ? nullptr : workspace.front().x};
  if (auto error = run_batched(shape, options, plan.value, buffers); !error.empty()) {
    return {{}, error};
  }
  return {std::move(out), {}};
}

template Result<Trace<double>> attend(const MatrixRef<double>&, const MatrixRef<double>&,
                                      const MatrixRef<double>&, const Options&);
template Result<Trace<double>> self_attention(const MatrixRef<double>&, const MatrixRef<double>&,
                                              const MatrixRef<double>&, const MatrixRef<double>&,
                                              const Options&);

}  // namespace attention
