// why_test.cpp: the labs of "why it is built this way" against float64 references written here: the
// tiled online softmax against the whole-row softmax for every block size, hand values of the
// running max and sum, the mask value (−∞ against −1e9), the statistics behind 1/√d_k (and the
// saturation threshold the page states), and dropout over many draws.
#include "why.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace {

using attention::Index;
using attention::MaskKind;
using attention::Options;
using Mat = attention::Matrix<double>;
using Vec = attention::Vector<double>;

constexpr double kInf = std::numeric_limits<double>::infinity();

Mat random_matrix(std::mt19937& gen, Index rows, Index cols, double spread) {
  std::uniform_real_distribution<double> dist(-spread, spread);
  Mat m(rows, cols);
  for (Index i = 0; i < m.size(); ++i) m.data()[i] = dist(gen);
  return m;
}

// Attention in float64, written apart from the core: plain loops, the max subtracted, masked
// keys skipped, a row that sees no key left at 0. allowed(i, j) says whether query i sees key j.
template <typename Allowed>
Mat reference_output(const Mat& Q, const Mat& K, const Mat& V, double scale, Allowed allowed) {
  Mat out = Mat::Zero(Q.rows(), V.cols());
  for (Index i = 0; i < Q.rows(); ++i) {
    std::vector<double> logit(K.rows(), -kInf);
    double max = -kInf;
    for (Index j = 0; j < K.rows(); ++j) {
      if (!allowed(i, j)) continue;
      double dot = 0;
      for (Index c = 0; c < Q.cols(); ++c) dot += Q(i, c) * K(j, c);
      logit[j] = dot * scale;
      max = std::max(max, logit[j]);
    }
    if (max == -kInf) continue;
    double sum = 0;
    for (Index j = 0; j < K.rows(); ++j) sum += allowed(i, j) ? std::exp(logit[j] - max) : 0.0;
    for (Index j = 0; j < K.rows(); ++j) {
      if (!allowed(i, j)) continue;
      const double w = std::exp(logit[j] - max) / sum;
      for (Index c = 0; c < V.cols(); ++c) out(i, c) += w * V(j, c);
    }
  }
  return out;
}

double max_abs_difference(const Mat& a, const Mat& b) { return (a - b).cwiseAbs().maxCoeff(); }

// ---- online softmax ----

TEST(Tiled, EqualsTheWholeRowForEveryBlockSize) {
  std::mt19937 gen(10);
  const Index n = 11;
  // Scores up to about ±300: the running max moves, and exp without it would overflow.
  for (double spread : {1.0, 5.0}) {
    const Mat Q = random_matrix(gen, n, 5, spread), K = random_matrix(gen, n, 5, spread),
              V = random_matrix(gen, n, 3, 10.0);
    for (MaskKind kind : {MaskKind::kNone, MaskKind::kCausal}) {
      Options options;
      options.mask_kind = kind;
      const double scale = 1 / std::sqrt(5.0);
      const Mat expected = reference_output(
          Q, K, V, scale, [kind](Index i, Index j) { return kind == MaskKind::kNone || j <= i; });
      for (Index block = 1; block <= n; ++block) {
        auto r = attention::tiled_attention(Q, K, V, block, options);
        ASSERT_TRUE(r.ok()) << r.error;
        const auto& t = r.value;
        EXPECT_EQ(Index(t.blocks.size()), (n + block - 1) / block);
        EXPECT_LE(max_abs_difference(t.output, expected), 1e-12) << "block " << block;
        EXPECT_LE(t.max_difference, 1e-12) << "block " << block;
        EXPECT_EQ(t.max_difference, max_abs_difference(t.output, t.full));
        EXPECT_TRUE(t.blocked_rows.empty());
      }
    }
  }
}

TEST(Tiled, RunningMaxAndSumByHand) {
  // One query, keys with scores 1, 3, 2 (scale 1), values 1, 2, 3; one key per block.
  const Mat Q = Mat::Constant(1, 1, 1.0);
  Mat K(3, 1), V(3, 1);
  K << 1, 3, 2;
  V << 1, 2, 3;
  Options options;
  options.scale = 1.0;
  auto r = attention::tiled_attention(Q, K, V, 1, options);
  ASSERT_TRUE(r.ok()) << r.error;
  const auto& b = r.value.blocks;
  ASSERT_EQ(b.size(), 3u);
  // block 1: m = 1, rescale = exp(−∞ − 1) = 0, ℓ = 1, acc = 1
  EXPECT_EQ(b[0].m(0), 1);
  EXPECT_EQ(b[0].rescale(0), 0);
  EXPECT_DOUBLE_EQ(b[0].l(0), 1);
  EXPECT_DOUBLE_EQ(b[0].partial(0, 0), 1);
  // block 2: the max grows to 3, so ℓ and acc are rescaled by exp(1 − 3)
  EXPECT_EQ(b[1].m(0), 3);
  EXPECT_DOUBLE_EQ(b[1].rescale(0), std::exp(-2.0));
  EXPECT_DOUBLE_EQ(b[1].l(0), std::exp(-2.0) + 1);
  EXPECT_DOUBLE_EQ(b[1].acc(0, 0), std::exp(-2.0) + 2);
  // block 3: the max stays, nothing is rescaled
  EXPECT_EQ(b[2].m(0), 3);
  EXPECT_EQ(b[2].rescale(0), 1);
  EXPECT_DOUBLE_EQ(b[2].p(0, 0), std::exp(-1.0));
  const double l = std::exp(-2.0) + 1 + std::exp(-1.0);
  EXPECT_DOUBLE_EQ(b[2].l(0), l);
  EXPECT_DOUBLE_EQ(r.value.output(0, 0), (std::exp(-2.0) + 2 + 3 * std::exp(-1.0)) / l);
}

TEST(Tiled, ABlockedRowAndTheMaskValue) {
  std::mt19937 gen(11);
  const Mat Q = random_matrix(gen, 3, 2, 1), K = random_matrix(gen, 4, 2, 1),
            V = random_matrix(gen, 4, 2, 1);
  Options options;
  options.mask_kind = MaskKind::kExplicit;
  options.mask = attention::Mask::Ones(3, 4);
  options.mask.row(1).setZero();  // query 2 sees no key
  options.mask(0, 2) = false;
  for (Index block = 1; block <= 4; ++block) {
    auto r = attention::tiled_attention(Q, K, V, block, options);
    ASSERT_TRUE(r.ok()) << r.error;
    EXPECT_EQ(r.value.blocked_rows, std::vector<Index>{1});
    EXPECT_EQ(r.value.output.row(1).cwiseAbs().maxCoeff(), 0);
    EXPECT_LE(r.value.max_difference, 1e-12);
  }
  // With −1e9 instead of −∞ the row is not blocked: it spreads its weight over the four keys.
  options.mask_value = -1e9;
  for (Index block = 1; block <= 4; ++block) {
    auto r = attention::tiled_attention(Q, K, V, block, options);
    ASSERT_TRUE(r.ok()) << r.error;
    EXPECT_TRUE(r.value.blocked_rows.empty());
    for (Index c = 0; c < 2; ++c) EXPECT_NEAR(r.value.output(1, c), V.col(c).mean(), 1e-12);
    EXPECT_LE(r.value.max_difference, 1e-12);
  }
}

TEST(Tiled, Errors) {
  const Mat Q = Mat::Ones(2, 2), K = Mat::Ones(3, 2), V = Mat::Ones(3, 1);
  EXPECT_EQ(attention::tiled_attention(Q, K, V, 0).error,
            "block is 0; it must be from 1 to 3 (n_k)");
  EXPECT_EQ(attention::tiled_attention(Q, K, V, 4).error,
            "block is 4; it must be from 1 to 3 (n_k)");
  EXPECT_EQ(attention::tiled_attention(Q, Mat::Ones(3, 1), V, 1).error,
            "K has 1 column but Q has 2 (d_k must match)");
  Options dropout;
  dropout.dropout_p = 0.5;
  EXPECT_EQ(attention::tiled_attention(Q, K, V, 1, dropout).error,
            "the tiled attention has no dropout; dropout p must be 0");
  const Mat big = Mat::Ones(1024, 1);
  EXPECT_EQ(attention::tiled_attention(big, big, big, 1).error,
            "the tiled trace would hold 8388608 numbers, over the limit of 4194304; use a "
            "larger block");
  // The whole row averages two values of 1e308; the tiles sum them before dividing.
  Mat V2(2, 1);
  V2 << 1e308, 1e308;
  const Mat zeros = Mat::Zero(1, 1), keys = Mat::Zero(2, 1);
  ASSERT_TRUE(attention::attend<double>(zeros, keys, V2).ok());
  EXPECT_EQ(attention::tiled_attention(zeros, keys, V2, 2).error,
            "acc[1][1] overflows to Infinity after the keys 1 to 2: the tiled output is divided "
            "by its sum only at the end, and V's values are too large for double (at most "
            "1.8e308)");
  EXPECT_TRUE(attention::tiled_attention(zeros, keys, V2 / 2, 2).ok());
}

// ---- the mask value ----

TEST(MaskValue, MinusInfinityBlocksARowAndMinus1e9SpreadsIt) {
  Mat Q(2, 1), K(3, 1), V(3, 1);
  Q << 1, 2;
  K << 1, 2, 3;
  V << 10, 20, 60;
  Options options;
  options.mask_kind = MaskKind::kExplicit;
  options.mask = attention::Mask::Ones(2, 3);
  options.mask.row(0).setZero();
  options.mask(1, 2) = false;
  auto inf = attention::attend<double>(Q, K, V, options);
  ASSERT_TRUE(inf.ok()) << inf.error;
  EXPECT_EQ(inf.value.blocked_rows, std::vector<Index>{0});
  EXPECT_EQ(inf.value.masked(0, 0), -kInf);
  EXPECT_EQ(inf.value.output(0, 0), 0);
  options.mask_value = -1e9;
  auto finite = attention::attend<double>(Q, K, V, options);
  ASSERT_TRUE(finite.ok()) << finite.error;
  EXPECT_TRUE(finite.value.blocked_rows.empty());
  EXPECT_EQ(finite.value.masked(0, 0), -1e9);
  // every key masked alike: 1/3 each, the mean of V, keys the query was told not to see
  for (Index j = 0; j < 3; ++j) EXPECT_DOUBLE_EQ(finite.value.weights(0, j), 1.0 / 3);
  EXPECT_DOUBLE_EQ(finite.value.output(0, 0), 30);
  // a row with a key it may see: the same weights either way (exp(−1e9 − max) is 0 in double)
  for (Index j = 0; j < 3; ++j) EXPECT_EQ(finite.value.weights(1, j), inf.value.weights(1, j));
}

TEST(MaskValue, Errors) {
  const Mat M = Mat::Ones(2, 2);
  Options options;
  options.mask_kind = MaskKind::kCausal;
  options.mask_value = std::nan("");
  EXPECT_EQ(attention::attend<double>(M, M, M, options).error,
            "mask value is NaN; it must be -Infinity or a finite number");
  options.mask_value = kInf;
  EXPECT_EQ(attention::attend<double>(M, M, M, options).error,
            "mask value is Infinity; it must be -Infinity or a finite number");
}

// ---- why 1/√d_k ----

TEST(Scaling, TheBatchIsSeededUnitVarianceNoise) {
  auto a = attention::scaling_batch(64, 8, 100, 7), b = attention::scaling_batch(64, 8, 100, 7);
  ASSERT_TRUE(a.ok()) << a.error;
  EXPECT_EQ(a.value.q, b.value.q);
  EXPECT_EQ(a.value.k, b.value.k);
  EXPECT_EQ(a.value.k.rows(), 800);
  const double n = double(a.value.k.size());
  const double mean = a.value.k.mean();
  const double variance = (a.value.k.array() - mean).square().sum() / n;
  EXPECT_NEAR(mean, 0, 0.02);  // 51,200 draws: the standard error is 0.0044
  EXPECT_NEAR(variance, 1, 0.03);
  EXPECT_NE(attention::scaling_batch(64, 8, 100, 8).value.q, a.value.q);
}

TEST(Scaling, StatisticsAgainstAReferenceOnTheSameBatch) {
  for (Index d_k : {1, 16, 512}) {
    const Index n = 8, rows = 100;
    auto batch = attention::scaling_batch(d_k, n, rows, 1);
    auto stats = attention::scaling_stats(d_k, n, rows, 1);
    ASSERT_TRUE(stats.ok()) << stats.error;
    double sum = 0, squares = 0, top_plain = 0, top_scaled = 0;
    std::vector<double> scores;
    for (Index r = 0; r < rows; ++r) {
      std::vector<double> row(n);
      for (Index j = 0; j < n; ++j) {
        double dot = 0;
        for (Index c = 0; c < d_k; ++c) dot += batch.value.q(r, c) * batch.value.k(r * n + j, c);
        row[j] = dot;
        scores.push_back(dot);
      }
      // the largest weight is exp(0) / Σ exp((x − max)·scale)
      const double max = *std::max_element(row.begin(), row.end());
      double plain = 0, scaled = 0;
      for (double x : row) {
        plain += std::exp(x - max);
        scaled += std::exp((x - max) / std::sqrt(double(d_k)));
      }
      top_plain += 1 / plain / double(rows);
      top_scaled += 1 / scaled / double(rows);
    }
    for (double x : scores) sum += x;
    const double mean = sum / double(scores.size());
    for (double x : scores) squares += (x - mean) * (x - mean);
    const double variance = squares / double(scores.size());
    EXPECT_NEAR(stats.value.score_mean, mean, 1e-12 * d_k);
    EXPECT_NEAR(stats.value.score_variance, variance, 1e-12 * d_k);
    EXPECT_NEAR(stats.value.scaled_variance, variance / double(d_k), 1e-12);
    EXPECT_NEAR(stats.value.max_weight_unscaled, top_plain, 1e-12);
    EXPECT_NEAR(stats.value.max_weight_scaled, top_scaled, 1e-12);
    // q·k adds d_k products of unit variance: its variance is about d_k (800 samples)
    EXPECT_NEAR(stats.value.score_variance / double(d_k), 1, 0.2) << "d_k " << d_k;
    EXPECT_EQ(stats.value.example_scores.size(), n);
    EXPECT_NEAR(stats.value.example_scaled.sum(), 1, 1e-12);
    EXPECT_NEAR(stats.value.example_unscaled.sum(), 1, 1e-12);
  }
}

// The threshold the page states: over 100 seeded rows (seed 1) of 8 keys at d_k = 512, the mean
// largest weight is above 0.9 without the scale (measured: 0.945) and below 0.6 with it
// (0.362), and most rows are one-hot without it (largest weight above 0.99), none with it.
TEST(Scaling, SaturationThreshold) {
  auto s = attention::scaling_stats(512, 8, 100, 1);
  ASSERT_TRUE(s.ok()) << s.error;
  EXPECT_GT(s.value.max_weight_unscaled, 0.9);
  EXPECT_LT(s.value.max_weight_scaled, 0.6);
  EXPECT_GT(s.value.one_hot_unscaled, 0.5);
  EXPECT_EQ(s.value.one_hot_scaled, 0);
  std::printf(
      "d_k = 512, 100 rows of 8 keys: mean largest weight %.4f unscaled, %.4f scaled; "
      "one-hot rows %.2f unscaled, %.2f scaled\n",
      s.value.max_weight_unscaled, s.value.max_weight_scaled, s.value.one_hot_unscaled,
      s.value.one_hot_scaled);
  // At d_k = 1 the scale is 1: both the same.
  auto one = attention::scaling_stats(1, 8, 100, 1);
  EXPECT_EQ(one.value.max_weight_unscaled, one.value.max_weight_scaled);
}

TEST(Scaling, Errors) {
  EXPECT_EQ(attention::scaling_stats(0, 8, 100, 1).error, "d_k is 0; it must be from 1 to 8192");
  EXPECT_EQ(attention::scaling_stats(4, 0, 100, 1).error, "n_keys is 0; it must be from 1 to 8192");
  EXPECT_EQ(attention::scaling_stats(8192, 8, 100, 1).error,
            "rows·(n_keys + 1)·d_k is 7372800, over the limit of 4194304 numbers");
}

// ---- dropout ----

TEST(Dropout, OneDrawAndTheAverageOfMany) {
  // the age scene: q = [1, 0, 0], four keys, their ages
  Mat Q(1, 3), K(4, 3), V(4, 1);
  Q << 1, 0, 0;
  K << 1, 2, 0, 1, 2, 0, 0, 0, 2, 1, 4, 0;
  V << 18, 20, 22, 19;
  Options options;
  options.dropout_p = 0.5;
  options.seed = 1;
  auto r = attention::dropout_stats(Q, K, V, options, 10000);
  ASSERT_TRUE(r.ok()) << r.error;
  const auto& s = r.value;
  const Mat expected =
      reference_output(Q, K, V, 1 / std::sqrt(3.0), [](Index, Index) { return true; });
  EXPECT_NEAR(s.output(0, 0), expected(0, 0), 1e-12);
  EXPECT_NEAR(s.output(0, 0), 19.4728924997, 1e-9);  // scenes.md
  // one draw: every weight is dropped (0) or kept and scaled by 1/(1 − p) = 2
  for (Index j = 0; j < 4; ++j) {
    const double w = s.dropped(0, j);
    EXPECT_TRUE(w == 0 || std::abs(w - 2 * s.weights(0, j)) < 1e-15) << j;
  }
  EXPECT_GT(std::abs(s.dropped_row_sums(0) - 1), 0.1);  // the row does not sum to 1
  // many draws: the average weight and output approach the no-dropout ones
  EXPECT_LT(s.max_difference, 0.05 * 19.47);
  EXPECT_LT(s.differences.back(), s.differences.front());
  for (Index j = 0; j < 4; ++j) EXPECT_NEAR(s.mean_dropped(0, j), s.weights(0, j), 0.02);
  // the kept counts, counted here over the same draws: the mean of dropped is kept·2w/10000
  for (Index j = 0; j < 4; ++j) {
    int kept = 0;
    for (int t = 0; t < 10000; ++t) {
      Options draw = options;
      draw.seed = options.seed + std::uint64_t(t);
      kept += attention::attend<double>(Q, K, V, draw).value.dropped(0, j) != 0;
    }
    EXPECT_EQ(s.kept(0, j), kept) << j;
    EXPECT_NEAR(s.mean_dropped(0, j), kept * 2 * s.weights(0, j) / 10000, 1e-12) << j;
  }
  EXPECT_EQ(s.counts,
            (std::vector<Index>{1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000}));
  EXPECT_EQ(s.differences.size(), s.counts.size());
  EXPECT_EQ(s.differences.back(), s.max_difference);
  std::printf(
      "dropout p = 0.5 on the age scene: one draw %.4f (row sum %.4f); mean of 10,000 "
      "draws %.4f against %.4f (difference %.4f)\n",
      s.draw_output(0, 0), s.dropped_row_sums(0), s.mean_output(0, 0), s.output(0, 0),
      s.max_difference);
}

TEST(Dropout, Errors) {
  const Mat M = Mat::Ones(2, 2);
  Options options;
  EXPECT_EQ(attention::dropout_stats(M, M, M, options, 10).error,
            "dropout p is 0; the statistics need p above 0");
  options.dropout_p = 0.5;
  EXPECT_EQ(attention::dropout_stats(M, M, M, options, 0).error,
            "draws is 0; it must be from 1 to 100000");
  options.dropout_p = 1;
  EXPECT_EQ(attention::dropout_stats(M, M, M, options, 10).error,
            "dropout p is 1; it must be at least 0 and below 1");
}

}  // namespace
