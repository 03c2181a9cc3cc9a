// backward_test.cpp: every gradient of backward.hpp against central finite differences of a
// float64 loss L = Σ G ⊙ output (G a random dL/d(output)), on random shapes, masks (none,
// causal, explicit; −∞ and −1e9), scales, dropout, and multi-head layers with grouped-query
// heads, RoPE and sinusoidal positions; the gradients of intermediate steps against losses
// written here from that step on; properties; errors.
//
// Finite differences: step h = 1e-5·max(1, |x|), central, (L(x + h) − L(x − h)) / 2h. Their
// error is about h²·L''' plus rounding, ε·|L|/h: agreement is asked to 1e-7 relative, with an
// absolute floor of 1e-8 for gradients near 0.
#include "backward.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <random>
#include <string>

#include "random.hpp"

namespace {

using attention::Index;
using attention::MaskKind;
using attention::MultiHeadOptions;
using attention::MultiHeadWeights;
using attention::Options;
using attention::Positions;
using Mat = attention::Matrix<double>;

constexpr double kInf = std::numeric_limits<double>::infinity();

Mat random_matrix(std::mt19937& gen, Index rows, Index cols, double spread = 1.5) {
  std::uniform_real_distribution<double> dist(-spread, spread);
  Mat m(rows, cols);
  for (Index i = 0; i < m.size(); ++i) m.data()[i] = dist(gen);
  return m;
}

double loss(const Mat& G, const Mat& output) { return (G.array() * output.array()).sum(); }

// Central differences of f at every finite entry of x, against `analytic` (a −∞ logit cannot
// be moved).
void expect_gradient(Mat x, const std::function<double(const Mat&)>& f, const Mat& analytic,
                     const std::string& what) {
  ASSERT_EQ(analytic.rows(), x.rows()) << what;
  ASSERT_EQ(analytic.cols(), x.cols()) << what;
  for (Index i = 0; i < x.size(); ++i) {
    if (!std::isfinite(x.data()[i])) continue;
    const double keep = x.data()[i], h = 1e-5 * std::max(1.0, std::fabs(keep));
    x.data()[i] = keep + h;
    const double up = f(x);
    x.data()[i] = keep - h;
    const double down = f(x);
    x.data()[i] = keep;
    const double numeric = (up - down) / (2 * h), exact = analytic.data()[i];
    ASSERT_TRUE(std::isfinite(exact)) << what;
    EXPECT_LE(std::fabs(exact - numeric),
              1e-7 * std::max(std::fabs(exact), std::fabs(numeric)) + 1e-8)
        << what << "[" << i / x.cols() + 1 << "][" << i % x.cols() + 1 << "]: " << exact << " vs "
        << numeric;
  }
}

// ---- the steps from the logits on, written here apart from the core ----

// weights (n_q, n_k) → (with dropout, its kept cells) → output, as the loss sees them.
double loss_from_weights(const Mat& P, const Mat& V, const Mat& G, const attention::Mask* keep,
                         double p) {
  Mat used = P;
  if (keep != nullptr) used = keep->select(P / (1 - p), 0.0);
  return loss(G, used * V);
}

// The softmax of each row of logits, −∞ as 0, a row of −∞ as zeros.
Mat softmax_rows(const Mat& logits) {
  Mat w = Mat::Zero(logits.rows(), logits.cols());
  for (Index i = 0; i < logits.rows(); ++i) {
    const double m = logits.row(i).maxCoeff();
    if (m == -kInf) continue;
    double sum = 0;
    for (Index j = 0; j < logits.cols(); ++j)
      sum += w(i, j) = logits(i, j) == -kInf ? 0 : std::exp(logits(i, j) - m);
    w.row(i) /= sum;
  }
  return w;
}

bool hidden(const Options& o, Index i, Index j) {
  return o.mask_kind == MaskKind::kCausal     ? j > i
         : o.mask_kind == MaskKind::kExplicit ? !o.mask(i, j)
                                              : false;
}

// One random case of attend(): shapes, a mask of some kind, a scale, maybe dropout.
struct Case {
  Mat Q, K, V, G;
  Options options;
  std::string name;
};

Case random_case(std::mt19937& gen, int n) {
  std::uniform_int_distribution<int> size(1, 5), kind(0, 5);
  Case c;
  const Index n_q = size(gen), n_k = size(gen), d_k = size(gen), d_v = size(gen);
  c.Q = random_matrix(gen, n_q, d_k);
  c.K = random_matrix(gen, n_k, d_k);
  c.V = random_matrix(gen, n_k, d_v);
  c.G = random_matrix(gen, n_q, d_v);
  const int k = kind(gen);
  if (k == 1) c.options.mask_kind = MaskKind::kCausal;
  if (k == 2 || k == 3) {
    c.options.mask_kind = MaskKind::kExplicit;
    c.options.mask = attention::Mask(n_q, n_k);
    std::bernoulli_distribution see(0.6);
    for (Index i = 0; i < c.options.mask.size(); ++i) c.options.mask.data()[i] = see(gen);
    if (k == 3) c.options.mask_value = -1e9;
  }
  if (k == 4) c.options.scale = std::uniform_real_distribution<double>(-2, 2)(gen);
  if (k == 5) {
    c.options.dropout_p = 0.3;
    c.options.seed = std::uint64_t(n);
  }
  c.name = "case " + std::to_string(n) + " (" + std::to_string(n_q) + "×" + std::to_string(n_k) +
           ", d_k " + std::to_string(d_k) + ", kind " + std::to_string(k) + ")";
  return c;
}

TEST(Backward, EveryGradientOfAttendEqualsFiniteDifferences) {
  std::mt19937 gen(11);
  for (int n = 0; n < 60; ++n) {
    const Case c = random_case(gen, n);
    const auto result = attention::attend_backward(c.Q, c.K, c.V, {c.G, {}}, c.options);
    ASSERT_TRUE(result.ok()) << c.name << ": " << result.error;
    const auto& t = result.value.trace;
    const auto& g = result.value.gradients;
    const auto forward = [&](const Mat& Q, const Mat& K, const Mat& V) {
      return loss(c.G, attention::attend<double>(Q, K, V, c.options).value.output);
    };
    expect_gradient(
        c.Q, [&](const Mat& Q) { return forward(Q, c.K, c.V); }, g.q, c.name + " dQ");
    expect_gradient(
        c.K, [&](const Mat& K) { return forward(c.Q, K, c.V); }, g.k, c.name + " dK");
    expect_gradient(
        c.V, [&](const Mat& V) { return forward(c.Q, c.K, V); }, g.v, c.name + " dV");

    // The intermediate steps, each against a loss that starts there.
    const bool dropout = c.options.dropout_p > 0;
    // the forward's kept cells: one draw of the seeded stream per weight, row by row
    attention::SplitMix64 rng(c.options.seed);
    attention::Mask keep(t.weights.rows(), t.weights.cols());
    for (Index i = 0; i < keep.size(); ++i) keep.data()[i] = rng.uniform() >= c.options.dropout_p;
    const attention::Mask* kept = dropout ? &keep : nullptr;
    const double p = c.options.dropout_p;
    expect_gradient(
        t.weights, [&](const Mat& P) { return loss_from_weights(P, c.V, c.G, kept, p); }, g.weights,
        c.name + " d(weights)");
    const auto from_logits = [&](const Mat& logits) {
      return loss_from_weights(softmax_rows(logits), c.V, c.G, kept, p);
    };
    const Mat& logits = t.masked.size() > 0 ? t.masked : t.scaled;
    const Mat& d_logits = t.masked.size() > 0 ? g.masked : g.scaled;
    // A −∞ logit passes no gradient; the differences skip it.
    for (Index i = 0; i < logits.size(); ++i)
      if (logits.data()[i] == -kInf) EXPECT_EQ(d_logits.data()[i], 0) << c.name;
    // Softmax does not move when a row is shifted, so each row is shifted to a max of 0 first:
    // a step of 1e-5 is then not lost in a logit of −1e9.
    Mat shifted = logits;
    for (Index i = 0; i < shifted.rows(); ++i) {
      const double m = shifted.row(i).maxCoeff();
      if (std::isfinite(m)) shifted.row(i).array() -= m;
    }
    expect_gradient(shifted, from_logits, d_logits, c.name + " d(logits)");
    const auto masked = [&](const Mat& scaled) {
      Mat m = scaled;
      for (Index i = 0; i < m.rows(); ++i)
        for (Index j = 0; j < m.cols(); ++j)
          if (hidden(c.options, i, j)) m(i, j) = c.options.mask_value;
      return m;
    };
    expect_gradient(
        t.scaled, [&](const Mat& scaled) { return from_logits(masked(scaled)); }, g.scaled,
        c.name + " d(scaled)");
    expect_gradient(
        t.scores, [&](const Mat& scores) { return from_logits(masked(scores * t.scale)); },
        g.scores, c.name + " d(scores)");
    if (dropout) {
      expect_gradient(
          t.dropped, [&](const Mat& dropped) { return loss(c.G, dropped * c.V); }, g.dropped,
          c.name + " d(dropped)");
    }
    // A row's d(logits) sums to 0: the softmax does not move under a shift of its row.
    for (Index i = 0; i < d_logits.rows(); ++i)
      EXPECT_NEAR(d_logits.row(i).sum(), 0, 1e-12) << c.name << " row " << i + 1;
  }
}

TEST(Backward, SelfAttentionGivesDxAndEveryDw) {
  std::mt19937 gen(5);
  for (int n = 0; n < 20; ++n) {
    const Index rows = 1 + n % 4, d_model = 1 + n % 3, d_k = 1 + (n / 3) % 3, d_v = 1 + n % 2;
    const Mat X = random_matrix(gen, rows, d_model), W_Q = random_matrix(gen, d_model, d_k),
              W_K = random_matrix(gen, d_model, d_k), W_V = random_matrix(gen, d_model, d_v),
              G = random_matrix(gen, rows, d_v);
    Options o;
    if (n % 2) o.mask_kind = MaskKind::kCausal;
    if (n % 5 == 0) {
      o.dropout_p = 0.4;
      o.seed = 7;
    }
    const auto r = attention::self_attention_backward(X, W_Q, W_K, W_V, {G, {}}, o);
    ASSERT_TRUE(r.ok()) << r.error;
    const auto& g = r.value.gradients;
    const auto L = [&](const Mat& x, const Mat& wq, const Mat& wk, const Mat& wv) {
      return loss(G, attention::self_attention<double>(x, wq, wk, wv, o).value.output);
    };
    const std::string name = "self-attention " + std::to_string(n);
    expect_gradient(
        X, [&](const Mat& x) { return L(x, W_Q, W_K, W_V); }, g.x, name + " dX");
    expect_gradient(
        W_Q, [&](const Mat& w) { return L(X, w, W_K, W_V); }, g.w_q, name + " dW_Q");
    expect_gradient(
        W_K, [&](const Mat& w) { return L(X, W_Q, w, W_V); }, g.w_k, name + " dW_K");
    expect_gradient(
        W_V, [&](const Mat& w) { return L(X, W_Q, W_K, w); }, g.w_v, name + " dW_V");
  }
}

TEST(Backward, MultiHeadWithSharedHeadsAndPositionsEqualsFiniteDifferences) {
  std::mt19937 gen(3);
  struct Layout {
    Index h, h_kv, d_head;
    Positions positions;
    bool causal;
  };
  const Layout layouts[] = {
      {1, 1, 2, Positions::kNone, false},      {2, 1, 2, Positions::kRotary, true},
      {4, 2, 2, Positions::kRotary, false},    {4, 1, 4, Positions::kRotary, true},
      {2, 2, 3, Positions::kSinusoidal, true}, {4, 4, 2, Positions::kNone, true}};
  for (const Layout& l : layouts) {
    const Index n = 4, d_model = 5;
    const Mat X = random_matrix(gen, n, d_model), G = random_matrix(gen, n, d_model);
    const MultiHeadWeights w{random_matrix(gen, d_model, l.h * l.d_head),
                             random_matrix(gen, d_model, l.h_kv * l.d_head),
                             random_matrix(gen, d_model, l.h_kv * l.d_head),
                             random_matrix(gen, l.h * l.d_head, d_model)};
    MultiHeadOptions o;
    o.heads = l.h;
    o.kv_heads = l.h_kv;
    o.positions = l.positions;
    o.causal = l.causal;
    const auto r = attention::multi_head_backward(X, w, G, o);
    ASSERT_TRUE(r.ok()) << r.error;
    const auto& g = r.value.gradients;
    const auto L = [&](const Mat& x, const MultiHeadWeights& weights) {
      return loss(G, attention::multi_head_attention(x, weights, o).value.output);
    };
    const std::string name = "h " + std::to_string(l.h) + ", h_kv " + std::to_string(l.h_kv) +
                             ", positions " + std::to_string(int(l.positions));
    expect_gradient(
        X, [&](const Mat& x) { return L(x, w); }, g.x, name + " dX");
    const auto with = [&](Mat MultiHeadWeights::*member) {
      return [&, member](const Mat& m) {
        MultiHeadWeights changed = w;
        changed.*member = m;
        return L(X, changed);
      };
    };
    expect_gradient(w.W_Q, with(&MultiHeadWeights::W_Q), g.w_q, name + " dW_Q");
    expect_gradient(w.W_K, with(&MultiHeadWeights::W_K), g.w_k, name + " dW_K");
    expect_gradient(w.W_V, with(&MultiHeadWeights::W_V), g.w_v, name + " dW_V");
    expect_gradient(w.W_O, with(&MultiHeadWeights::W_O), g.w_o, name + " dW_O");
    ASSERT_EQ(g.head.size(), size_t(l.h));
    EXPECT_EQ(g.q_rotated.size() > 0, l.positions == Positions::kRotary) << name;
  }
}

// A loss on the weights themselves: the cross-entropy of row 4 against key 2, −log weights[4][2].
// Its dL/d(weights) is −1/w at that cell; then d(logits) of that row is weights − one-hot.
TEST(Backward, ALossOnTheWeightsThemselves) {
  std::mt19937 gen(13);
  const Mat X = random_matrix(gen, 4, 3), W_Q = random_matrix(gen, 3, 2),
            W_K = random_matrix(gen, 3, 2), W_V = Mat::Identity(3, 3);
  const auto L = [&](const Mat& wq, const Mat& wk) {
    return -std::log(attention::self_attention<double>(X, wq, wk, W_V).value.weights(3, 1));
  };
  const auto forward = attention::self_attention<double>(X, W_Q, W_K, W_V).value;
  attention::LossGradients loss{Mat::Zero(4, 3), Mat::Zero(4, 4)};
  loss.weights(3, 1) = -1 / forward.weights(3, 1);
  const auto r = attention::self_attention_backward(X, W_Q, W_K, W_V, loss);
  ASSERT_TRUE(r.ok()) << r.error;
  const auto& g = r.value.gradients;
  expect_gradient(
      W_Q, [&](const Mat& w) { return L(w, W_K); }, g.w_q, "cross-entropy dW_Q");
  expect_gradient(
      W_K, [&](const Mat& w) { return L(W_Q, w); }, g.w_k, "cross-entropy dW_K");
  for (Index j = 0; j < 4; ++j) {
    EXPECT_NEAR(g.scaled(3, j), forward.weights(3, j) - (j == 1 ? 1 : 0), 1e-15);
  }
  EXPECT_TRUE(g.scaled.topRows(3).isZero(0)) << "the other rows are not in the loss";
  // A loss's gradient of the wrong shape, or not finite, is refused by name.
  EXPECT_EQ(attention::self_attention_backward(X, W_Q, W_K, W_V, {Mat::Zero(4, 3), Mat::Zero(4, 3)})
                .error,
            "dL/d(weights) is 4×3 but weights is 4×4 (one gradient per number)");
}

// Adding a constant to a row of scores changes no gradient: Q and K gain a column that adds c
// to row 1's scores (scale 1, so that the extra column does not rescale the rest).
TEST(Backward, AConstantAddedToARowOfScoresChangesNoGradient) {
  std::mt19937 gen(9);
  const Mat Q = random_matrix(gen, 3, 2), K = random_matrix(gen, 4, 2),
            V = random_matrix(gen, 4, 3), G = random_matrix(gen, 3, 3);
  Options o;
  o.scale = 1.0;
  Mat Q2(3, 3), K2(4, 3);
  Q2 << Q, Mat::Zero(3, 1);
  Q2(0, 2) = 7.5;
  K2 << K, Mat::Ones(4, 1);
  const auto a = attention::attend_backward(Q, K, V, {G, {}}, o);
  const auto b = attention::attend_backward(Q2, K2, V, {G, {}}, o);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_NEAR((b.value.trace.scores - a.value.trace.scores).row(0).minCoeff(), 7.5, 1e-12);
  for (auto [x, y] : {std::pair{&a.value.gradients.scores, &b.value.gradients.scores},
                      std::pair{&a.value.gradients.weights, &b.value.gradients.weights},
                      std::pair{&a.value.gradients.v, &b.value.gradients.v}}) {
    EXPECT_LE((*x - *y).cwiseAbs().maxCoeff(), 1e-12);
  }
  EXPECT_LE((a.value.gradients.q - b.value.gradients.q.leftCols(2)).cwiseAbs().maxCoeff(), 1e-12);
}

TEST(Backward, ABlockedRowHasZeroGradientsAndAFiniteMaskValueDoesNot) {
  const Mat Q = (Mat(2, 1) << 1, 2).finished(), K = (Mat(3, 1) << 1, -1, 0.5).finished(),
            V = (Mat(3, 2) << 1, 2, 3, 4, 5, 6).finished(),
            G = (Mat(2, 2) << 1, 0.5, 0.5, 2).finished();
  Options o;
  o.mask_kind = MaskKind::kExplicit;
  o.mask = attention::Mask(2, 3);
  o.mask << false, false, false, true, false, true;  // row 1 sees no key
  const auto r = attention::attend_backward(Q, K, V, {G, {}}, o);
  ASSERT_TRUE(r.ok()) << r.error;
  const auto& g = r.value.gradients;
  EXPECT_TRUE(g.masked.row(0).isZero(0) && g.scaled.row(0).isZero(0) && g.scores.row(0).isZero(0));
  EXPECT_TRUE(g.q.row(0).isZero(0));
  EXPECT_TRUE(g.q.allFinite() && g.k.allFinite() && g.v.allFinite());
  // dL/d(weights) is still dO·Vᵀ: the loss would feel the weights move, but they cannot.
  EXPECT_DOUBLE_EQ(g.weights(0, 0), 1 * 1 + 0.5 * 2);
  // With −1e9 the row is an ordinary softmax row: weights 1/3 each, and a gradient.
  o.mask_value = -1e9;
  const auto finite = attention::attend_backward(Q, K, V, {G, {}}, o);
  ASSERT_TRUE(finite.ok()) << finite.error;
  EXPECT_NEAR(finite.value.trace.weights(0, 1), 1.0 / 3, 1e-15);
  EXPECT_GT(finite.value.gradients.masked.row(0).cwiseAbs().maxCoeff(), 0.1);
  EXPECT_GT(finite.value.gradients.v.cwiseAbs().maxCoeff(), 0.1);
  // … but the masked cells do not depend on the scores: d(scaled) is 0 there.
  EXPECT_TRUE(finite.value.gradients.scaled.row(0).isZero(0));
}

// Hand values: one query, two keys, d_k = 1, scale 1. scores = [1, 0], weights
// [e/(e+1), 1/(e+1)], dO = [1], V = [2, 0]: d(weights) = [2, 0], row_dot = 2e/(e+1).
TEST(Backward, HandValues) {
  const Mat Q = (Mat(1, 1) << 1).finished(), K = (Mat(2, 1) << 1, 0).finished(),
            V = (Mat(2, 1) << 2, 0).finished(), G = (Mat(1, 1) << 1).finished();
  Options o;
  o.scale = 1.0;
  const auto r = attention::attend_backward(Q, K, V, {G, {}}, o);
  ASSERT_TRUE(r.ok());
  const auto& g = r.value.gradients;
  const double e = std::exp(1.0), w0 = e / (e + 1), w1 = 1 / (e + 1);
  EXPECT_DOUBLE_EQ(g.weights(0, 0), 2);
  EXPECT_DOUBLE_EQ(g.weights(0, 1), 0);
  EXPECT_NEAR(g.row_dot(0), 2 * w0, 1e-15);
  EXPECT_NEAR(g.scaled(0, 0), w0 * (2 - 2 * w0), 1e-15);  // = 2·w0·w1
  EXPECT_NEAR(g.scaled(0, 1), w1 * (0 - 2 * w0), 1e-15);
  EXPECT_NEAR(g.q(0, 0), 2 * w0 * w1 * 1 + -2 * w0 * w1 * 0, 1e-15);
  EXPECT_NEAR(g.v(0, 0), w0, 1e-15);
  EXPECT_NEAR(g.v(1, 0), w1, 1e-15);
}

TEST(Backward, ErrorsNameTheGradientTheStepAndTheCell) {
  const Mat Q = Mat::Ones(2, 2), K = Mat::Ones(3, 2), V = Mat::Ones(3, 1);
  EXPECT_EQ(attention::attend_backward(Q, K, V, {Mat::Ones(2, 2), {}}).error,
            "dL/d(output) is 2×2 but output is 2×1 (one gradient per number)");
  Mat bad = Mat::Ones(2, 1);
  bad(1, 0) = std::nan("");
  EXPECT_EQ(attention::attend_backward(Q, K, V, {bad, {}}).error,
            "dL/d(output)[2][1] is NaN; every input must be finite");
  EXPECT_EQ(attention::attend_backward(Q, Mat::Ones(3, 1), V, {Mat::Ones(2, 1), {}}).error,
            "K has 1 column but Q has 2 (d_k must match)");
  const Mat huge = Mat::Constant(2, 1, 1e308);
  EXPECT_EQ(attention::attend_backward(Q, K, Mat::Constant(3, 1, 1e10), {huge, {}}).error,
            "dL/d(weights)[1][1] = dL/d(output)[1]·V[1] overflows to Infinity; the inputs are "
            "finite but too large for double (at most 1.8e308)");
  attention::MultiHeadOptions o;
  o.heads = 2;
  const MultiHeadWeights w{Mat::Ones(2, 2), Mat::Ones(2, 2), Mat::Ones(2, 2), Mat::Ones(2, 2)};
  EXPECT_EQ(attention::multi_head_backward(Mat::Ones(3, 2), w, Mat::Ones(3, 3), o).error,
            "dL/d(output) is 3×3 but output is 3×2 (one gradient per number)");
}

}  // namespace
