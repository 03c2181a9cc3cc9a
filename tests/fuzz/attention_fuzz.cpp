// attention_fuzz.cpp: a libFuzzer target over every entry point of the core. The input bytes
// choose the entry point, the shapes (small ones, and sizes at and just past the limits), the
// values (hostile ones among them: NaN, ±Inf, −0, denormals, ±1e38, ±1e308) and the options.
// Whatever they are, the core must not crash, and its answer must be either an error message
// or a trace that keeps the promises of attention:
//   - no input that is NaN or infinite is accepted;
//   - every number of the trace is finite (a blocked cell's logit is −∞, nothing else);
//   - each weight row sums to 1, or is a row of zeros listed in blocked_rows;
//   - each output lies within its V column's range (with dropout, within range/(1−p)).
// The gradients (backward.hpp), asked for after a forward call that succeeded: every gradient is
// finite or the call is an error; a weight of 0 passes no gradient to its logit; each row of
// d(logits) sums to 0 (to rounding); the trace is the forward's.
// The labs' entry points (multihead.hpp, why.hpp) keep their own promises: multi-head outputs are
// the heads' outputs times W_O; a decoding step extends the cache it was given; position
// encodings stay within [−1, 1] and rotations keep each pair's length; the tiled softmax
// equals the whole row's; statistics are finite and within their ranges.
// The small model (gpt.hpp, gpt_file.hpp): any configuration is refused or valid; any token id
// outside the vocabulary is refused; an accepted forward pass has finite logits, probability
// rows that sum to 1 and a finite loss; any bytes as a weights file are refused or read as
// finite parameters of the right size, and what is read writes a file that is read back the same;
// a model's files (configuration, characters, weights) are read only when each fits the others;
// a trainer's steps on a tiny model give finite losses.
// The induction task (induction.hpp): any task is refused or valid; a valid task's sequences
// hold their tokens in the vocabulary and repeat their segment; scores are weights' means
// (within [0, 1]) and finite losses; a trainer whose configuration is not the task's is refused.
// A learner's own text (text.hpp): any bytes are refused with a message or read into streams
// that keep the text's characters and lines, with a vocabulary, counts and baselines that hold.
// Byte-pair encoding (bpe.hpp): any bytes and options are refused with a message or learned into
// steps whose tokens always spell the text line by line, each merge of a pair counted at least
// twice, merged at most as often as counted, taking away as many tokens as it merged; the learned
// merges read the text back as the last step's tokens, and any other text without losing a byte.
// Built with clang's -fsanitize=fuzzer,address,undefined (CMake option ATTENTION_FUZZ).
#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "attention.hpp"
#include "backward.hpp"
#include "bpe.hpp"
#include "gpt.hpp"
#include "gpt_file.hpp"
#include "induction.hpp"
#include "multihead.hpp"
#include "text.hpp"
#include "why.hpp"

namespace {

using attention::Index;
using attention::kMaxDim;
using attention::kMaxValues;

void fail(const char* what, const std::string& detail = "") {
  std::fprintf(stderr, "property broken: %s %s\n", what, detail.c_str());
  std::abort();
}

// A dimension: mostly small; sometimes the limits themselves, or one past them. `other` is the
// matrix's other dimension, so that a matrix stays cheap to build: a side at the limit gets a
// short other side.
Index dimension(FuzzedDataProvider& in) {
  switch (in.ConsumeIntegralInRange<int>(0, 255)) {
    case 0:
      return 0;
    case 1:
      return kMaxDim;
    case 2:
      return kMaxDim + 1;
    case 3:
      return 2048;  // 2048×2048 is exactly kMaxValues
    case 4:
      return 2049;
    default:
      return in.ConsumeIntegralInRange<Index>(1, 9);
  }
}

// Inputs that are accepted but would take seconds (a 2048×2048×2048 product) are skipped: a
// size at the limit is still tried with short other sides.
constexpr std::int64_t kWorkBudget = std::int64_t{1} << 24;  // multiply-adds per call

double value(FuzzedDataProvider& in) {
  static constexpr double kHostile[] = {
      std::numeric_limits<double>::quiet_NaN(),
      std::numeric_limits<double>::infinity(),
      -std::numeric_limits<double>::infinity(),
      -0.0,
      std::numeric_limits<double>::denorm_min(),
      -1e-310,
      1e-38,
      1e38,
      -1e38,
      3.4e38,
      1e200,
      -1e200,
      1e308,
      -1e308,
      std::numeric_limits<double>::max(),
      std::numeric_limits<double>::lowest(),
  };
  const int pick = in.ConsumeIntegralInRange<int>(0, 255);
  if (pick < 224) return (pick - 112) / 16.0;  // small: −7 … 6.9375
  if (pick < 240) return in.ConsumeFloatingPoint<double>();
  return kHostile[pick - 240];
}

// rows×cols values; once the input bytes run out, the rest are 0.
template <typename T>
std::vector<T> values(FuzzedDataProvider& in, Index count) {
  std::vector<T> out(static_cast<size_t>(count));
  for (T& x : out) x = in.remaining_bytes() > 0 ? static_cast<T>(value(in)) : T(0);
  return out;
}

template <typename T>
bool all_finite(const std::vector<T>& v) {
  return std::all_of(v.begin(), v.end(), [](T x) { return std::isfinite(x); });
}

attention::Options options(FuzzedDataProvider& in, Index n_q, Index n_k) {
  attention::Options o;
  if (in.ConsumeBool()) o.scale = value(in);
  switch (in.ConsumeIntegralInRange<int>(0, 3)) {
    case 1:
      o.mask_kind = attention::MaskKind::kCausal;
      break;
    case 2: {
      o.mask_kind = attention::MaskKind::kExplicit;
      // Usually the right shape, sometimes one row short.
      const Index rows =
          in.ConsumeIntegralInRange<int>(0, 7) == 0 ? std::max<Index>(n_q - 1, 0) : n_q;
      if (rows * n_k <= 4096) {
        o.mask.resize(rows, n_k);
        for (Index i = 0; i < o.mask.size(); ++i) o.mask.data()[i] = in.ConsumeBool();
      }
      break;
    }
    default:
      break;
  }
  if (in.ConsumeBool()) {
    const int pick = in.ConsumeIntegralInRange<int>(0, 9);
    o.dropout_p = pick == 0 ? 1.0 : pick == 1 ? -0.1 : pick == 2 ? value(in) : pick / 10.0;
    o.seed = in.ConsumeIntegral<std::uint64_t>();
  }
  return o;
}

// The promises of one head: W (n_q, n_k) the weights that made the output (after dropout, when
// it is on), out (n_q, d_v), V (n_k, d_v). A row is blocked when `blocked` lists it, or, where
// no list is kept, when its weights are all 0. The tolerance is relative to the numbers' size.
template <typename WeightsT, typename OutT, typename ValuesT>
void check_head(const WeightsT& W, const OutT& out, const ValuesT& V, double p, double tolerance,
                const std::vector<bool>* blocked) {
  const Index n_k = W.cols();
  const double keep = 1.0 / (1.0 - p);
  const Eigen::VectorXd v_lo = V.colwise().minCoeff().transpose().template cast<double>(),
                        v_hi = V.colwise().maxCoeff().transpose().template cast<double>();
  for (Index i = 0; i < W.rows(); ++i) {
    if ((W.row(i).array() < 0).any()) fail("a negative weight");
    const double sum = W.row(i).template cast<double>().sum();
    const bool is_blocked = blocked ? bool((*blocked)[i]) : sum == 0;
    if (is_blocked && (sum != 0 || (out.row(i).array() != 0).any()))
      fail("a blocked row is not all zeros");
    if (p == 0 && !is_blocked && std::abs(sum - 1) > tolerance * n_k)
      fail("a weight row does not sum to 1", std::to_string(sum));
    if (sum > keep * (1 + tolerance * n_k)) fail("dropped weights sum past 1/(1-p)");
    for (Index c = 0; c < V.cols(); ++c) {
      // Without dropout an output is an average of its V column; with it, a sum of at most
      // 1/(1-p) of it, which may include 0.
      const double lo = p == 0 ? v_lo(c) : std::min(0.0, v_lo(c)) * keep,
                   hi = p == 0 ? v_hi(c) : std::max(0.0, v_hi(c)) * keep;
      // Rounding is relative to the numbers' size, except among denormals, where each product
      // is rounded to a multiple of the smallest one.
      using Scalar = typename WeightsT::Scalar;
      const double slack = n_k * (tolerance * std::max(std::abs(lo), std::abs(hi)) +
                                  std::numeric_limits<Scalar>::denorm_min());
      if (!is_blocked && (out(i, c) < lo - slack || out(i, c) > hi + slack))
        fail("an output lies outside its V column's range", std::to_string(out(i, c)) +
                                                                " not in [" + std::to_string(lo) +
                                                                ", " + std::to_string(hi) + "]");
    }
  }
}

// The promises of a successful trace.
template <typename T>
void check_trace(const attention::Trace<T>& t, const attention::Matrix<T>& V,
                 const attention::Options& o) {
  constexpr double tolerance = 1e-12;
  for (const auto* m :
       {&t.q, &t.k, &t.v, &t.scores, &t.scaled, &t.exp, &t.weights, &t.dropped, &t.output}) {
    if (!m->allFinite()) fail("a step of the trace is not finite");
  }
  if (o.mask_kind != attention::MaskKind::kNone &&
      ((t.masked.array() == std::numeric_limits<T>::infinity()) || t.masked.array().isNaN()).any())
    fail("a masked logit is NaN or +Infinity");
  std::vector<bool> blocked(t.scores.rows(), false);
  for (Index i : t.blocked_rows) blocked.at(i) = true;
  for (Index i = 0; i < t.scores.rows(); ++i)
    if (blocked[i] && (t.row_sum(i) != 0 || (t.exp.row(i).array() != 0).any()))
      fail("a blocked row's exp and row_sum are not 0");
  if (o.dropout_p > 0) {
    // The weights before dropout keep the promises of a plain softmax too.
    const attention::Matrix<T> undropped = t.weights * V;
    check_head(t.weights, undropped, V, 0, tolerance, &blocked);
  }
  check_head(o.dropout_p > 0 ? t.dropped : t.weights, t.output, V, o.dropout_p, tolerance,
             &blocked);
}

// The promises of the gradients of one head whose forward trace is t.
void check_gradients(const attention::AttentionGradients& g, const attention::Trace<double>& t) {
  for (const auto* m : {&g.output, &g.weights, &g.scaled, &g.scores, &g.q, &g.k, &g.v}) {
    if (!m->allFinite()) fail("a gradient is not finite");
  }
  const attention::Matrix<double>& d_logits = t.masked.size() ? g.masked : g.scaled;
  for (Index i = 0; i < d_logits.rows(); ++i) {
    double size = 0;
    for (Index j = 0; j < d_logits.cols(); ++j) {
      if (t.weights(i, j) == 0 && d_logits(i, j) != 0) fail("a weight of 0 passed a gradient");
      size += std::fabs(t.weights(i, j) * g.weights(i, j)) + std::fabs(d_logits(i, j));
    }
    if (std::fabs(d_logits.row(i).sum()) > 1e-9 * size + 1e-300)
      fail("a row of d(logits) does not sum to 0");
  }
}

// dL/d(output) for an output of rows × cols: sometimes of another shape, or hostile.
attention::Matrix<double> d_output(FuzzedDataProvider& in, Index rows, Index cols) {
  const Index r = in.ConsumeIntegralInRange<int>(0, 15) == 0 ? rows + 1 : rows;
  const auto numbers = values<double>(in, r * cols);
  return Eigen::Map<const attention::Matrix<double>>(numbers.data(), r, cols);
}

void fuzz_attend(FuzzedDataProvider& in) {
  const Index n_q = dimension(in), n_k = dimension(in);
  const Index d_k = std::min(dimension(in), Index(3)), d_v = std::min(dimension(in), Index(3));
  if (n_q * d_k > 2 * kMaxValues || n_k * std::max(d_k, d_v) > 2 * kMaxValues) return;
  if (n_q * n_k * std::max(d_k, d_v) > kWorkBudget) return;
  using Mat = attention::Matrix<double>;
  const auto q = values<double>(in, n_q * d_k), k = values<double>(in, n_k * d_k),
             v = values<double>(in, n_k * d_v);
  const auto o = options(in, n_q, n_k);
  const Eigen::Map<const Mat> Q(q.data(), n_q, d_k), K(k.data(), n_k, d_k), V(v.data(), n_k, d_v);
  const auto result = attention::attend<double>(Q, K, V, o);
  if (!result.ok()) return;
  if (!all_finite(q) || !all_finite(k) || !all_finite(v)) fail("a non-finite input was accepted");
  check_trace(result.value, Mat(V), o);
  if (!in.ConsumeBool()) return;
  const Mat G = d_output(in, n_q, d_v);
  const auto back = attention::attend_backward(Q, K, V, {G, {}}, o);
  if (!back.ok()) return;
  if (!G.allFinite() || G.rows() != n_q) fail("a bad dL/d(output) was accepted");
  if (back.value.trace.output != result.value.output) fail("the backward's forward differs");
  check_gradients(back.value.gradients, back.value.trace);
}

void fuzz_self_attention(FuzzedDataProvider& in) {
  const Index n = dimension(in), d_model = std::min(dimension(in), Index(4));
  const Index d_k = dimension(in), d_v = std::min(dimension(in), Index(4));
  if (n * d_model > 2 * kMaxValues || d_model * std::max(d_k, d_v) > 2 * kMaxValues) return;
  if (n * std::max(n, d_model) * std::max(d_k, d_v) > kWorkBudget) return;
  using Mat = attention::Matrix<double>;
  const auto x = values<double>(in, n * d_model), w_q = values<double>(in, d_model * d_k),
             w_k = values<double>(in, d_model * d_k), w_v = values<double>(in, d_model * d_v);
  const auto o = options(in, n, n);
  const Eigen::Map<const Mat> X(x.data(), n, d_model), W_Q(w_q.data(), d_model, d_k),
      W_K(w_k.data(), d_model, d_k), W_V(w_v.data(), d_model, d_v);
  const auto result = attention::self_attention<double>(X, W_Q, W_K, W_V, o);
  if (!result.ok()) return;
  if (!all_finite(x) || !all_finite(w_q) || !all_finite(w_k) || !all_finite(w_v))
    fail("a non-finite input was accepted");
  check_trace(result.value, result.value.v, o);
  if (!in.ConsumeBool()) return;
  const Mat G = d_output(in, n, d_v);
  const auto back = attention::self_attention_backward(X, W_Q, W_K, W_V, {G, {}}, o);
  if (!back.ok()) return;
  check_gradients(back.value.gradients, back.value.trace);
  for (const auto* m : {&back.value.gradients.x, &back.value.gradients.w_q,
                        &back.value.gradients.w_k, &back.value.gradients.w_v}) {
    if (!m->allFinite()) fail("a gradient of self-attention is not finite");
  }
}

// The fast kernel tiles by 4 query rows and 8 keys over d: sometimes sizes that cross tiles.
Index tiled(FuzzedDataProvider& in, Index small) {
  return in.ConsumeIntegralInRange<int>(0, 7) == 0 ? in.ConsumeIntegralInRange<Index>(1, 70)
                                                   : std::min(dimension(in), small);
}

void fuzz_batched(FuzzedDataProvider& in) {
  attention::BatchShape s;
  s.batch =
      in.ConsumeIntegralInRange<int>(0, 20) == 0 ? dimension(in) : in.ConsumeIntegralInRange(1, 2);
  s.heads =
      in.ConsumeIntegralInRange<int>(0, 20) == 0 ? dimension(in) : in.ConsumeIntegralInRange(1, 3);
  s.n_q = tiled(in, kMaxDim + 1);
  s.n_k = tiled(in, kMaxDim + 1);
  s.d_k = tiled(in, 3);
  s.d_v = tiled(in, 3);
  const std::int64_t heads = s.batch * s.heads;
  if (heads * std::max(s.n_q, s.n_k) * std::max(s.d_k, s.d_v) > 2 * kMaxValues) return;
  if (heads * s.n_q * s.n_k * std::max(s.d_k, s.d_v) > kWorkBudget) return;
  // Sometimes a buffer one value short of what the shape needs, or one value over.
  const int wrong = in.ConsumeIntegralInRange<int>(0, 15);
  const std::int64_t short_by = wrong == 0 ? 1 : wrong == 1 ? -1 : 0;
  const auto q = values<float>(in, heads * s.n_q * s.d_k),
             k = values<float>(in, heads * s.n_k * s.d_k),
             v = values<float>(in, std::max<std::int64_t>(heads * s.n_k * s.d_v - short_by, 0));
  const auto o = options(in, s.n_q, s.n_k);
  const attention::BatchOptions batch{in.ConsumeBool(), in.ConsumeBool()};
  const auto result = attention::attend_batched(q, k, v, s, o, batch);
  // The fast kernel and the Eigen reference agree: on the error, or on every output.
  const auto reference = attention::attend_batched(q, k, v, s, o, {batch.weights, true});
  if (result.error != reference.error)
    fail("the fast path and the reference disagree", result.error + " | " + reference.error);
  if (!result.ok()) return;
  if (short_by) fail("a buffer of the wrong size was accepted");
  if (!all_finite(q) || !all_finite(k) || !all_finite(v)) fail("a non-finite input was accepted");
  if (!all_finite(result.value.output) || !all_finite(result.value.weights))
    fail("a batched result is not finite");
  if (result.value.weights.size() != (batch.weights ? size_t(heads * s.n_q * s.n_k) : 0))
    fail("the weights were returned when not asked for, or not when asked");
  // Each head against the same promises, at float's precision. Without its own weights, a
  // row of zeros (all keys masked) is told apart by the reference's.
  const std::vector<float>& weights =
      batch.weights ? result.value.weights
                    : attention::attend_batched(q, k, v, s, o, {true, true}).value.weights;
  using Mat = attention::Matrix<float>;
  for (std::int64_t h = 0; h < heads; ++h) {
    const Eigen::Map<const Mat> V(v.data() + h * s.n_k * s.d_v, s.n_k, s.d_v);
    const Eigen::Map<const Mat> out(result.value.output.data() + h * s.n_q * s.d_v, s.n_q, s.d_v);
    const Eigen::Map<const Mat> ref(reference.value.output.data() + h * s.n_q * s.d_v, s.n_q,
                                    s.d_v);
    const double size = std::max(1.0, double(V.cwiseAbs().maxCoeff()));
    if ((out - ref).cwiseAbs().maxCoeff() > 1e-4 * size)
      fail("the fast path's output is far from the reference's");
    const Eigen::Map<const Mat> W(weights.data() + h * s.n_q * s.n_k, s.n_q, s.n_k);
    check_head(W, out, V, o.dropout_p, 1e-5, nullptr);
  }
}

// ---- the labs' entry points ----

// A small matrix, sometimes one column or row off the shape that is asked for; its values are
// small ones, or (one matrix in 8) any, hostile ones among them.
attention::Matrix<double> matrix(FuzzedDataProvider& in, Index rows, Index cols) {
  const int wrong = in.ConsumeIntegralInRange<int>(0, 31);
  rows += wrong == 0 ? 1 : 0;
  cols += wrong == 1 ? 1 : wrong == 2 && cols > 0 ? -1 : 0;
  // Mostly small numbers only: one hostile number among dozens would end most calls early.
  const bool hostile = in.ConsumeIntegralInRange<int>(0, 7) == 0;
  attention::Matrix<double> m(rows, cols);
  for (Index i = 0; i < m.size(); ++i) {
    m.data()[i] = in.remaining_bytes() == 0 ? 0.0
                  : hostile                 ? value(in)
                                            : (in.ConsumeIntegralInRange<int>(0, 223) - 112) / 16.0;
  }
  return m;
}

double largest(const attention::Matrix<double>& m) {
  return m.size() ? m.cwiseAbs().maxCoeff() : 0.0;
}

void require_finite(const attention::Matrix<double>& m, const char* what) {
  if (!m.allFinite()) fail("not finite:", what);
}

struct Layer {
  attention::MultiHeadWeights weights;
  attention::MultiHeadOptions options;
  Index d_model = 0;
};

Layer layer(FuzzedDataProvider& in) {
  Layer l;
  l.d_model = in.ConsumeIntegralInRange<Index>(0, 6);
  auto& o = l.options;
  o.heads = in.ConsumeIntegralInRange<Index>(0, 4);
  o.kv_heads = in.ConsumeIntegralInRange<Index>(0, 4);  // 0 is h; 3 rarely divides
  const Index d_head = in.ConsumeIntegralInRange<Index>(1, 4);
  const Index h_kv = o.kv_heads ? o.kv_heads : o.heads;
  o.causal = in.ConsumeBool();
  o.positions = static_cast<attention::Positions>(in.ConsumeIntegralInRange<int>(0, 2));
  if (in.ConsumeIntegralInRange<int>(0, 7) == 0) o.base = value(in);
  if (in.ConsumeIntegralInRange<int>(0, 7) == 0) o.scale = value(in);
  l.weights.W_Q = matrix(in, l.d_model, o.heads * d_head);
  l.weights.W_K = matrix(in, l.d_model, h_kv * d_head);
  l.weights.W_V = matrix(in, l.d_model, h_kv * d_head);
  l.weights.W_O = matrix(in, o.heads * d_head, l.d_model);
  return l;
}

bool finite(const attention::MultiHeadWeights& w) {
  return w.W_Q.allFinite() && w.W_K.allFinite() && w.W_V.allFinite() && w.W_O.allFinite();
}

// A multi-head trace: every head keeps the promises of one head, reads the key-value head
// ⌊i·h_kv/h⌋, and the output is the heads' outputs side by side times W_O.
void check_layer(const attention::MultiHeadTrace& t, const attention::MultiHeadWeights& w,
                 bool causal) {
  for (const auto* m : {&t.x, &t.q, &t.k, &t.v, &t.concat, &t.output}) require_finite(*m, "layer");
  if (t.head.size() != size_t(t.heads) || t.kv_head.size() != size_t(t.heads))
    fail("a head is missing");
  attention::Options o;
  if (causal) o.mask_kind = attention::MaskKind::kCausal;
  for (Index i = 0; i < t.heads; ++i) {
    if (t.kv_head[i] != i * t.kv_heads / t.heads) fail("a query head reads the wrong kv head");
    const auto& head = t.head[i];
    // Without a causal mask every key is seen; with it, the rows are those of the full causal
    // pass or of one decoding step, whose last key is the new token's.
    check_trace(head, head.v, causal && head.q.rows() == 1 ? attention::Options{} : o);
    if (head.output != t.concat.middleCols(i * t.d_head, t.d_head))
      fail("the concatenation is not the heads' outputs");
  }
  const attention::Matrix<double> expected = t.concat * w.W_O;
  const double size = std::max(1.0, largest(t.concat) * largest(w.W_O));
  if (!(expected - t.output).isZero(1e-12 * size * std::max<Index>(1, t.concat.cols())))
    fail("the output is not concat·W_O");
}

void fuzz_multi_head(FuzzedDataProvider& in) {
  const Layer l = layer(in);
  const Index n = in.ConsumeIntegralInRange<int>(0, 63) == 0
                      ? dimension(in)
                      : in.ConsumeIntegralInRange<Index>(0, 7);
  // Each head keeps six n×n matrices: a size at the limits is tried where it is refused early.
  if (n * std::max<Index>(l.d_model, 1) > 4096 ||
      n * n * std::max<Index>(l.options.heads, 1) > 1 << 20)
    return;
  const auto X = matrix(in, n, l.d_model);
  const auto result = attention::multi_head_attention(X, l.weights, l.options);
  if (!result.ok()) return;
  if (!X.allFinite() || !finite(l.weights)) fail("a non-finite input was accepted");
  check_layer(result.value, l.weights, l.options.causal);
  if (!in.ConsumeBool()) return;
  const auto G = d_output(in, n, l.d_model);
  const auto back = attention::multi_head_backward(X, l.weights, G, l.options);
  if (!back.ok()) return;
  const auto& g = back.value.gradients;
  for (size_t i = 0; i < g.head.size(); ++i) check_gradients(g.head[i], back.value.trace.head[i]);
  for (const auto* m : {&g.x, &g.w_q, &g.w_k, &g.w_v, &g.w_o, &g.concat}) {
    if (!m->allFinite()) fail("a gradient of the layer is not finite");
  }
}

void fuzz_decode_step(FuzzedDataProvider& in) {
  const Layer l = layer(in);
  const Index length = in.ConsumeIntegralInRange<Index>(0, 6);
  const Index kv_cols = l.weights.W_K.cols();
  const auto x = matrix(in, 1, l.d_model);
  const auto k_cache = matrix(in, length, kv_cols), v_cache = matrix(in, length, kv_cols);
  const auto result = attention::decode_step(x, k_cache, v_cache, l.weights, l.options);
  if (!result.ok()) return;
  const auto& step = result.value;
  if (!x.allFinite() || !k_cache.allFinite() || !v_cache.allFinite() || !finite(l.weights))
    fail("a non-finite input was accepted");
  // The cache as given (a shape one row off is refused only when K's and V's disagree).
  const Index given = k_cache.rows();
  if (v_cache.rows() != given || step.position != given || step.k_cache.rows() != given + 1 ||
      step.v_cache.rows() != given + 1)
    fail("the cache did not grow by one row");
  // An empty cache of any width is no cache: only rows that were given are compared.
  if (given > 0 && (k_cache.cols() != step.k_cache.cols() || v_cache.cols() != step.v_cache.cols()))
    fail("a cache of another width was accepted");
  if (given > 0 &&
      (step.k_cache.topRows(given) != k_cache || step.v_cache.topRows(given) != v_cache))
    fail("the cache's old rows changed");
  if (step.cost.total <= 0 || step.cost.total > step.full.total)
    fail("a step cost more than a full recompute");
  check_layer(step.trace, l.weights, true);
}

std::vector<double> positions(FuzzedDataProvider& in, Index n) {
  std::vector<double> out(size_t(std::max<Index>(n, 0)));
  for (double& p : out)
    p = in.ConsumeIntegralInRange<int>(0, 7) == 0 ? value(in) : double(&p - &out[0]);
  return out;
}

void fuzz_positions(FuzzedDataProvider& in) {
  const Index n = in.ConsumeIntegralInRange<Index>(0, 8);
  const auto pos = positions(in, n);
  const double base = in.ConsumeIntegralInRange<int>(0, 7) == 0 ? value(in) : 10000;
  if (in.ConsumeBool()) {
    const Index d_model = in.ConsumeIntegralInRange<int>(0, 31) == 0
                              ? dimension(in)
                              : in.ConsumeIntegralInRange<Index>(0, 9);
    if (n * d_model > 4096) return;
    const auto result = attention::sinusoidal_positions(pos, d_model, base);
    if (!result.ok()) return;
    if (!all_finite(pos)) fail("a non-finite position was accepted");
    const auto& e = result.value.encoding;
    if (e.rows() != n || e.cols() != d_model) fail("the encoding has the wrong shape");
    if (!e.allFinite() || largest(e) > 1) fail("an encoding lies outside [-1, 1]");
    return;
  }
  const Index d_head = in.ConsumeIntegralInRange<Index>(0, 6);
  const Index blocks = in.ConsumeIntegralInRange<Index>(0, 3);
  const auto M = matrix(in, n, d_head * blocks);
  const auto result = attention::rotary(M, pos, d_head, base);
  if (!result.ok()) return;
  if (!M.allFinite() || !all_finite(pos)) fail("a non-finite input was accepted");
  const auto& R = result.value.rotated;
  if (R.rows() != M.rows() || R.cols() != M.cols() || !R.allFinite())
    fail("the rotation has the wrong shape or is not finite");
  for (Index r = 0; r < M.rows(); ++r) {
    for (Index c = 0; c + 1 < M.cols(); c += 2) {
      const double before = std::hypot(M(r, c), M(r, c + 1)),
                   after = std::hypot(R(r, c), R(r, c + 1));
      if (std::abs(before - after) > 1e-12 * std::max(1.0, before))
        fail("a rotation changed a pair's length");
    }
  }
}

void fuzz_tiled(FuzzedDataProvider& in) {
  const Index n_q = in.ConsumeIntegralInRange<Index>(0, 6),
              n_k = in.ConsumeIntegralInRange<Index>(0, 9);
  const Index d_k = in.ConsumeIntegralInRange<Index>(1, 3),
              d_v = in.ConsumeIntegralInRange<Index>(1, 3);
  const auto Q = matrix(in, n_q, d_k), K = matrix(in, n_k, d_k), V = matrix(in, n_k, d_v);
  const Index block = in.ConsumeIntegralInRange<Index>(0, n_k + 1);
  auto o = options(in, n_q, n_k);
  if (in.ConsumeBool()) o.mask_value = -1e9;
  const auto result = attention::tiled_attention(Q, K, V, block, o);
  if (!result.ok()) return;
  if (!Q.allFinite() || !K.allFinite() || !V.allFinite()) fail("a non-finite input was accepted");
  const auto& t = result.value;
  require_finite(t.output, "tiled output");
  const double size = std::max(1.0, largest(V));
  if (!(t.max_difference <= 1e-12 * size * n_k)) fail("the tiled output differs from the full one");
  for (const auto& b : t.blocks)
    if (!((b.rescale.array() >= 0) && (b.rescale.array() <= 1)).all())
      fail("a rescale is not within [0, 1]");
}

void fuzz_statistics(FuzzedDataProvider& in) {
  if (in.ConsumeBool()) {
    const Index d_k = in.ConsumeIntegralInRange<int>(0, 15) == 0
                          ? dimension(in)
                          : in.ConsumeIntegralInRange<Index>(0, 64);
    const Index n_keys = in.ConsumeIntegralInRange<Index>(0, 9),
                rows = in.ConsumeIntegralInRange<Index>(0, 9);
    if (d_k * n_keys * rows > kWorkBudget) return;
    const auto result =
        attention::scaling_stats(d_k, n_keys, rows, in.ConsumeIntegral<std::uint64_t>());
    if (!result.ok()) return;
    const auto& s = result.value;
    for (double x :
         {s.max_weight_unscaled, s.max_weight_scaled, s.one_hot_unscaled, s.one_hot_scaled})
      if (!(x >= 0 && x <= 1 + 1e-12)) fail("a share or a largest weight lies outside [0, 1]");
    if (!(s.score_variance >= 0 && s.scaled_variance >= 0 && std::isfinite(s.score_mean)))
      fail("a variance is negative or a mean is not finite");
    if (s.max_weight_scaled * double(n_keys) < 1 - 1e-12) fail("a largest weight is below 1/n");
    return;
  }
  const Index n_q = in.ConsumeIntegralInRange<Index>(0, 4),
              n_k = in.ConsumeIntegralInRange<Index>(0, 5);
  const Index d = in.ConsumeIntegralInRange<Index>(1, 3);
  const auto Q = matrix(in, n_q, d), K = matrix(in, n_k, d), V = matrix(in, n_k, d);
  const auto o = options(in, n_q, n_k);
  const Index draws = in.ConsumeIntegralInRange<int>(0, 15) == 0
                          ? attention::kMaxDraws + 1
                          : in.ConsumeIntegralInRange<Index>(0, 64);
  const auto result = attention::dropout_stats(Q, K, V, o, draws);
  if (!result.ok()) return;
  if (!Q.allFinite() || !K.allFinite() || !V.allFinite()) fail("a non-finite input was accepted");
  const auto& s = result.value;
  for (const auto* m :
       {&s.weights, &s.output, &s.dropped, &s.draw_output, &s.mean_dropped, &s.mean_output})
    require_finite(*m, "dropout statistics");
  if (s.counts.empty() || s.counts.back() != draws || s.counts.size() != s.differences.size())
    fail("the draw counts do not end at the draws asked for");
  if (!(s.max_difference >= 0) || s.max_difference != s.differences.back())
    fail("the last difference is not the max difference");
}

// A configuration: mostly a small valid one, sometimes one at or past a limit, or with an odd
// d_head; with or without MLPs.
attention::GptConfig gpt_config(FuzzedDataProvider& in) {
  attention::GptConfig c{
      in.ConsumeIntegralInRange<Index>(1, 9), in.ConsumeIntegralInRange<Index>(1, 6),
      2 * in.ConsumeIntegralInRange<Index>(1, 4), in.ConsumeIntegralInRange<Index>(1, 2), 1};
  switch (in.ConsumeIntegralInRange<int>(0, 15)) {
    case 0:
      c.vocab = in.ConsumeIntegralInRange<Index>(-2, 70000);
      break;
    case 1:
      c.d_model = in.ConsumeIntegralInRange<Index>(-1, 2000);
      break;
    case 2:
      c.heads = in.ConsumeIntegralInRange<Index>(-1, 9);
      break;
    case 3:
      c.base = in.ConsumeFloatingPoint<double>();
      break;
    default:
      if (c.d_model % 4 == 0 && in.ConsumeBool()) c.heads = 2;
  }
  c.mlp = in.ConsumeIntegralInRange<int>(0, 3) != 0;  // a quarter attention-only
  return c;
}

std::vector<std::int32_t> ids(FuzzedDataProvider& in, size_t n, Index vocab) {
  std::vector<std::int32_t> out(n);
  for (auto& t : out) {
    t = in.ConsumeIntegralInRange<int>(0, 7) == 0
            ? in.ConsumeIntegral<std::int32_t>()
            : in.ConsumeIntegralInRange<std::int32_t>(-1, std::int32_t(std::max<Index>(vocab, 1)));
  }
  return out;
}

// A code point as UTF-8.
std::string utf8(char32_t c) {
  std::string out;
  if (c < 0x80) return std::string(1, char(c));
  if (c < 0x800) return {char(0xC0 | (c >> 6)), char(0x80 | (c & 0x3F))};
  if (c < 0x10000)
    return {char(0xE0 | (c >> 12)), char(0x80 | ((c >> 6) & 0x3F)), char(0x80 | (c & 0x3F))};
  return {char(0xF0 | (c >> 18)), char(0x80 | ((c >> 12) & 0x3F)), char(0x80 | ((c >> 6) & 0x3F)),
          char(0x80 | (c & 0x3F))};
}

// A description's characters for a vocabulary of `vocab`: mostly vocab − 2 distinct ones (ASCII,
// 2-, 3- and 4-byte UTF-8), sometimes one too many or too few, one twice, or any bytes.
std::string model_chars(FuzzedDataProvider& in, Index vocab) {
  static const char32_t pool[] = {U'a', U'é', U'山', U'月', U'𝄞', U'，', U'z', U'⏎', U'ß', U'b'};
  const int kind = in.ConsumeIntegralInRange<int>(0, 7);
  if (kind == 0) return in.ConsumeBytesAsString(in.ConsumeIntegralInRange<size_t>(0, 40));
  Index n = std::max<Index>(0, vocab - 2);
  if (kind == 1) n += in.ConsumeBool() ? 1 : -1;
  std::string out;
  for (Index i = 0; i < n; ++i) out += utf8(i < 10 ? pool[i] : 0x10000 + char32_t(i));
  if (kind == 2 && n >= 1)
    out += utf8(pool[in.ConsumeIntegralInRange<Index>(0, std::min<Index>(n, 10) - 1)]);
  return out;
}

// What check_gpt_chars promises, checked apart: well-formed UTF-8 by the Unicode standard's table
// of byte sequences (Table 3-7), vocab − 2 characters, none of them twice.
bool chars_fit(const std::string& chars, Index vocab) {
  struct Form {
    unsigned char lead_low, lead_high, second_low, second_high;
    size_t length;
  };
  static const Form forms[] = {
      {0x00, 0x7F, 0, 0, 1},       {0xC2, 0xDF, 0x80, 0xBF, 2}, {0xE0, 0xE0, 0xA0, 0xBF, 3},
      {0xE1, 0xEC, 0x80, 0xBF, 3}, {0xED, 0xED, 0x80, 0x9F, 3}, {0xEE, 0xEF, 0x80, 0xBF, 3},
      {0xF0, 0xF0, 0x90, 0xBF, 4}, {0xF1, 0xF3, 0x80, 0xBF, 4}, {0xF4, 0xF4, 0x80, 0x8F, 4}};
  std::set<std::string> seen;
  Index n = 0;
  for (size_t at = 0; at < chars.size(); ++n) {
    const auto byte = [&](size_t i) { return static_cast<unsigned char>(chars[at + i]); };
    const Form* form = nullptr;
    for (const Form& f : forms)
      if (byte(0) >= f.lead_low && byte(0) <= f.lead_high) form = &f;
    if (form == nullptr || at + form->length > chars.size()) return false;
    if (form->length > 1 && (byte(1) < form->second_low || byte(1) > form->second_high))
      return false;
    for (size_t i = 2; i < form->length; ++i)
      if (byte(i) < 0x80 || byte(i) > 0xBF) return false;
    if (!seen.insert(chars.substr(at, form->length)).second) return false;
    at += form->length;
  }
  return vocab >= 2 && n == vocab - 2;
}

void fuzz_gpt(FuzzedDataProvider& in) {
  const attention::GptConfig c = gpt_config(in);
  const bool valid = attention::check_gpt_config(c).empty();
  switch (in.ConsumeIntegralInRange<int>(0, 2)) {
    case 0: {  // a model's files: a configuration, characters and a weights file, any of them bad
      const std::string chars = model_chars(in, c.vocab);
      std::vector<std::uint8_t> bytes;
      if (valid && attention::gpt_size(c) <= 100000 && in.ConsumeBool()) {
        // a real file, perhaps with a few bytes changed or cut
        bytes = attention::gpt_quantize(
                    c, attention::gpt_init<float>(c, in.ConsumeIntegral<std::uint8_t>()))
                    .value;
        for (int k = in.ConsumeIntegralInRange<int>(0, 3); k > 0 && !bytes.empty(); --k)
          bytes[in.ConsumeIntegralInRange<size_t>(0, bytes.size() - 1)] =
              in.ConsumeIntegral<std::uint8_t>();
        if (in.ConsumeIntegralInRange<int>(0, 7) == 0)
          bytes.resize(in.ConsumeIntegralInRange<size_t>(0, bytes.size() + 8));
      } else {
        bytes = in.ConsumeBytes<std::uint8_t>(in.ConsumeIntegralInRange<size_t>(0, 4096));
      }
      const auto r = attention::gpt_dequantize(c, bytes);
      const auto model = attention::gpt_read_model(c, chars, bytes);
      if (model.ok()) {
        if (!r.ok() || model.value != r.value) fail("a model was read whose weights file was not");
        if (!chars_fit(chars, c.vocab))
          fail("a model was read whose characters do not fit its vocabulary");
      } else if (r.ok() && chars_fit(chars, c.vocab)) {
        fail("a model whose files are good was refused", model.error);
      }
      if (!r.ok()) return;
      if (!valid) fail("a weights file was read for a configuration that is not valid");
      if (std::int64_t(bytes.size()) != attention::gpt_file_size(c))
        fail("a weights file of the wrong size was read");
      if (std::int64_t(r.value.size()) != attention::gpt_size(c))
        fail("the parameters have the wrong size");
      for (float x : r.value)
        if (!std::isfinite(x)) fail("a weights file gave a parameter that is not finite");
      // what was read is written, and read back, to a file that writes the same bytes again
      const auto written = attention::gpt_quantize(c, r.value);
      if (!written.ok()) fail("parameters read from a file cannot be written", written.error);
      const auto again = attention::gpt_dequantize(c, written.value);
      if (!again.ok()) fail("a written file cannot be read", again.error);
      if (attention::gpt_quantize(c, again.value).value != written.value)
        fail("a file written from a written file's parameters differs from it");
      return;
    }
    case 1: {  // a forward pass
      if (!valid) return;
      std::vector<float> params = attention::gpt_init<float>(c, in.ConsumeIntegral<std::uint8_t>());
      if (in.ConsumeIntegralInRange<int>(0, 7) == 0 && !params.empty())
        params[in.ConsumeIntegralInRange<size_t>(0, params.size() - 1)] = float(value(in));
      const size_t n = in.ConsumeIntegralInRange<size_t>(0, 8);
      const auto tokens = ids(in, n, c.vocab);
      const auto targets = in.ConsumeBool() ? ids(in, n, c.vocab) : std::vector<std::int32_t>{};
      const auto r = attention::gpt_forward<float>(c, params, tokens, 1, targets);
      if (!r.ok()) return;
      for (std::int32_t t : tokens)
        if (t < 0 || t >= c.vocab) fail("a token outside the vocabulary was accepted");
      for (std::int32_t t : targets)
        if (t < -1 || t >= c.vocab) fail("a target outside the vocabulary was accepted");
      if (!r.value.logits.allFinite()) fail("a logit is not finite");
      for (Index i = 0; i < r.value.probs.rows(); ++i)
        if (std::fabs(double(r.value.probs.row(i).sum()) - 1) > 1e-4)
          fail("a probability row does not sum to 1");
      if (!std::isfinite(r.value.loss) || r.value.loss < 0)
        fail("the loss is not finite and at least 0");
      return;
    }
    default: {  // a few training steps
      if (!valid || c.vocab * c.d_model > 64) return;
      auto data = ids(in, in.ConsumeIntegralInRange<size_t>(0, 40), c.vocab);
      auto trainer =
          attention::gpt_trainer<float>(c, data, in.ConsumeIntegralInRange<Index>(0, 3),
                                        in.ConsumeFloatingPointInRange<double>(0, 0.1), 4, 1);
      if (!trainer.ok()) return;
      for (std::int32_t t : data)
        if (t < 0 || t >= c.vocab) fail("a training token outside the vocabulary was accepted");
      for (int s = 0; s < 2; ++s) {
        const auto loss = attention::gpt_train_step(trainer.value);
        if (loss.ok() && !std::isfinite(loss.value)) fail("a training loss is not finite");
      }
    }
  }
}

void fuzz_induction(FuzzedDataProvider& in) {
  // mostly a small valid task; sometimes one field anything
  attention::InductionTask task;
  task.min_segment = in.ConsumeIntegralInRange<Index>(2, 4);
  task.max_segment = task.min_segment + in.ConsumeIntegralInRange<Index>(0, 3);
  task.vocab = task.max_segment + in.ConsumeIntegralInRange<Index>(0, 9);
  task.context = 2 * task.max_segment + in.ConsumeIntegralInRange<Index>(0, 4);
  switch (in.ConsumeIntegralInRange<int>(0, 7)) {
    case 0:
      task.vocab = in.ConsumeIntegralInRange<Index>(-1, 40);
      break;
    case 1:
      task.context = in.ConsumeIntegral<Index>();
      break;
    case 2:
      task.min_segment = in.ConsumeIntegralInRange<Index>(-1, 9);
      break;
    case 3:
      task.max_segment = in.ConsumeIntegralInRange<Index>(-1, 13);
      break;
  }
  const bool valid = attention::check_induction_task(task).empty();
  const Index batch = in.ConsumeIntegralInRange<Index>(-1, 6);
  const auto b = attention::induction_batch(task, batch, in.ConsumeIntegral<std::uint64_t>());
  if (!b.ok()) return;
  if (!valid || batch < 1) fail("an induction batch was drawn for a task or size not valid");
  const Index T = task.context;
  for (Index s = 0; s < batch; ++s) {
    const Index m = b.value.segments[size_t(s)];
    if (m < task.min_segment || m > task.max_segment) fail("a segment's length is out of range");
    const std::int32_t* x = b.value.tokens.data() + s * T;
    for (Index i = 0; i < T; ++i)
      if (x[i] < 0 || x[i] >= task.vocab) fail("a sequence's token is outside the vocabulary");
    for (Index i = 0; i < m; ++i)
      if (x[m + i] != x[i]) fail("a sequence's second segment does not repeat its first");
  }
  attention::GptConfig c{task.vocab, T, 2 * in.ConsumeIntegralInRange<Index>(1, 3),
                         in.ConsumeIntegralInRange<Index>(1, 2), 1};
  c.mlp = in.ConsumeBool();
  if (in.ConsumeBool()) c.context = in.ConsumeIntegralInRange<Index>(1, 30);  // maybe not T
  if (!attention::check_gpt_config(c).empty()) return;
  if (in.ConsumeBool()) {
    auto trainer =
        attention::induction_trainer<float>(c, task, in.ConsumeIntegralInRange<Index>(0, 3), 1e-2,
                                            2, in.ConsumeIntegral<std::uint8_t>());
    if (!trainer.ok()) return;
    if (c.context != T) fail("a trainer whose context is not the task's was accepted");
    const auto loss = attention::gpt_train_step(trainer.value);
    if (loss.ok() && !std::isfinite(loss.value)) fail("an induction training loss is not finite");
    return;
  }
  std::vector<float> params = attention::gpt_init<float>(c, in.ConsumeIntegral<std::uint8_t>());
  const auto r = attention::induction_scores<float>(c, params, b.value);
  if (!r.ok()) return;
  if (c.context < T) fail("scores were measured with a context shorter than the sequences");
  if (!std::isfinite(r.value.first_loss) || !std::isfinite(r.value.repeat_loss))
    fail("an induction loss is not finite");
  for (const auto* m : {&r.value.previous, &r.value.induction})
    for (Index i = 0; i < m->size(); ++i)
      if (!(m->data()[i] >= 0 && m->data()[i] <= 1 + 1e-9)) fail("a head's score is not a weight");
}

}  // namespace

// A learner's text: raw bytes, or lines drawn from a few code points (ASCII, CJK, an emoji, a
// control character) so that most are read. Refused with a message, or read into streams that
// hold every character once and every line's end once, ids below V ≤ 2,000, counts that are the
// training stream's, a unigram model that sums to 1, and finite baselines.
void fuzz_text(FuzzedDataProvider& in) {
  std::string text;
  if (in.ConsumeBool()) {
    text = in.ConsumeRandomLengthString(4096);
  } else {
    static const char32_t alphabet[] = {U'a',  U'b', U' ',  U'\n', U'月',
                                        U'光', U'😀', U'\t', U'\r', 1};
    std::u32string t(in.ConsumeIntegralInRange<size_t>(0, 3000), U'a');
    for (auto& c : t) c = alphabet[in.ConsumeIntegralInRange<size_t>(0, std::size(alphabet) - 1)];
    text = attention::to_utf8(t);
  }
  const auto r = attention::text_corpus(text);
  if (!r.ok()) {
    if (r.error.empty()) fail("text_corpus: refused with no message");
    return;
  }
  const auto& c = r.value;
  const std::int64_t V = std::int64_t(attention::from_utf8(c.chars).size()) + 2;
  if (V < 4 || V > attention::kMaxVocab)
    fail("text_corpus: a vocabulary's size", std::to_string(V));
  if (std::int64_t(c.counts.size()) != V || std::int64_t(c.unigram.size()) != V) {
    fail("text_corpus: counts or unigram not one per token");
  }
  std::int64_t tokens = 0, ends = 0, counted = 0;
  for (const auto* stream : {&c.train, &c.validation, &c.held_out}) {
    for (const std::int32_t t : *stream) {
      if (t < 0 || t >= V) fail("text_corpus: an id outside the vocabulary", std::to_string(t));
      ends += t == attention::kEndToken;
    }
    tokens += std::int64_t(stream->size());
  }
  for (const std::int32_t n : c.counts) counted += n;
  if (tokens != c.characters + c.lines || ends != c.lines) {
    fail("text_corpus: the streams are not the text's characters and line ends");
  }
  if (counted != std::int64_t(c.train.size()))
    fail("text_corpus: counts are not the training stream's");
  double total = 0;
  for (const double p : c.unigram) total += p;
  const auto& b = c.baselines;
  if (std::fabs(total - 1) > 1e-9 || !std::isfinite(b.unigram) || !std::isfinite(b.bigram) ||
      std::fabs(b.uniform - std::log(double(V))) > 1e-12 || b.lambda < 0.01 || b.lambda > 0.99) {
    fail("text_corpus: the baselines");
  }
}

namespace {

// The bytes of a tokenization, line by line (a line's pieces joined), read from the hex of each
// token's vocabulary entry.
std::vector<std::string> spelled(const attention::BpeTrace& t, const attention::BpeTokens& tokens) {
  std::vector<std::string> lines(std::size_t(t.lines));
  std::size_t k = 0;
  for (std::size_t piece = 0; piece < tokens.sizes.size(); ++piece) {
    for (std::int32_t i = 0; i < tokens.sizes[piece]; ++i, ++k) {
      const auto id = tokens.ids[k];
      if (id < 0 || id >= std::int32_t(t.vocabulary.size()))
        fail("bpe: an id outside the vocabulary");
      const std::string& hex = t.vocabulary[std::size_t(id)].hex;
      for (std::size_t at = 0; at < hex.size(); at += 3) {
        lines[std::size_t(t.segment_lines[piece])] +=
            char(std::stoi(hex.substr(at, 2), nullptr, 16));
      }
    }
  }
  if (k != tokens.ids.size() || Index(k) != tokens.count) fail("bpe: the sizes do not add up");
  return lines;
}

void fuzz_bpe(FuzzedDataProvider& in) {
  attention::BpeOptions o;
  o.merges = in.ConsumeIntegralInRange<std::int64_t>(-2, 40);
  o.start = in.ConsumeBool() ? "bytes" : in.ConsumeBool() ? "characters" : "words";
  o.presplit = in.ConsumeBool();
  std::string text;
  if (in.ConsumeBool()) {
    text = in.ConsumeRandomLengthString(3000);
  } else {
    static const char32_t alphabet[] = {U'a',  U'b',  U' ', U'\n', U'啊',
                                        U'明', U'，', U'1', U'\t', U'\r'};
    std::u32string t(in.ConsumeIntegralInRange<size_t>(0, 300), U'a');
    for (auto& c : t) c = alphabet[in.ConsumeIntegralInRange<size_t>(0, std::size(alphabet) - 1)];
    text = attention::to_utf8(t);
  }
  const auto r = attention::bpe_learn(text, o);
  if (!r.ok()) {
    if (r.error.empty()) fail("bpe_learn: refused with no message");
    return;
  }
  const auto& t = r.value;
  const auto lines = spelled(t, t.initial);
  Index before = t.initial.count;
  for (const auto& s : t.steps) {
    if (s.count < 2 || s.replaced < 1 || s.replaced > s.count || s.counts.top.empty() ||
        s.counts.top[0].count != s.count || s.merged_at.size() != std::size_t(s.replaced) ||
        s.at.size() != std::size_t(s.count)) {
      fail("bpe: a merge's counts");
    }
    if (s.after.count != before - s.replaced) fail("bpe: the tokens after are not before − merged");
    if (spelled(t, s.after) != lines) fail("bpe: the tokens do not spell the text");
    before = s.after.count;
  }
  if (std::int64_t(t.steps.size()) < o.merges && !t.next.top.empty() && t.next.top[0].count > 1) {
    fail("bpe: stopped while a pair occurs twice");
  }
  const auto model = attention::bpe_model(t);
  const auto again = attention::bpe_encode(model, text);
  if (!again.ok()) fail("bpe_encode: the learned text refused", again.error);
  const auto& last = t.steps.empty() ? t.initial : t.steps.back().after;
  if (again.value.count != last.count) fail("bpe_encode: the learned text read otherwise");
  for (std::size_t k = 0; k < again.value.tokens.size(); ++k) {
    if (again.value.tokens[k].id != last.ids[k])
      fail("bpe_encode: the learned text read otherwise");
  }
  const auto other = attention::bpe_encode(model, in.ConsumeRemainingBytesAsString());
  if (!other.ok()) {
    if (other.error.empty()) fail("bpe_encode: refused with no message");
    return;
  }
  Index bytes = 0;
  for (const auto& token : other.value.tokens) {
    bytes += Index(token.hex.size() + 1) / 3;
    if (token.known == (token.id < 0)) fail("bpe_encode: known and id disagree");
  }
  if (bytes != other.value.bytes) fail("bpe_encode: a byte lost or added");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  switch (in.ConsumeIntegralInRange<int>(0, 11)) {
    case 0:
      fuzz_attend(in);
      break;
    case 1:
      fuzz_self_attention(in);
      break;
    case 3:
      fuzz_multi_head(in);
      break;
    case 4:
      fuzz_decode_step(in);
      break;
    case 5:
      fuzz_positions(in);
      break;
    case 6:
      fuzz_tiled(in);
      break;
    case 7:
      fuzz_statistics(in);
      break;
    case 8:
      fuzz_gpt(in);
      break;
    case 9:
      fuzz_induction(in);
      break;
    case 10:
      fuzz_text(in);
      break;
    case 11:
      fuzz_bpe(in);
      break;
    default:
      fuzz_batched(in);
      break;
  }
  return 0;
}
