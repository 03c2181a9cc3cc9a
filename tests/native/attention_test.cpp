// attention_test.cpp: the core against scenes.md, a float64 reference written here, the
// properties of attention, dropout statistics, and every error message.
#include "attention.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>

namespace {

using attention::Index;
using attention::MaskKind;
using attention::Options;
using Mat = attention::Matrix<double>;

const nlohmann::json& scenes() {
  static const nlohmann::json json = [] {
    std::ifstream in(FIXTURES_DIR "/scenes.json");
    return nlohmann::json::parse(in);
  }();
  return json;
}

Mat matrix(const nlohmann::json& rows) {
  Mat m(rows.size(), rows.at(0).size());
  for (Index i = 0; i < m.rows(); ++i)
    for (Index j = 0; j < m.cols(); ++j) m(i, j) = rows.at(i).at(j).get<double>();
  return m;
}

void expect_near(const Mat& actual, const Mat& expected, double tolerance, const char* what) {
  ASSERT_EQ(actual.rows(), expected.rows()) << what;
  ASSERT_EQ(actual.cols(), expected.cols()) << what;
  for (Index i = 0; i < actual.rows(); ++i)
    for (Index j = 0; j < actual.cols(); ++j)
      EXPECT_NEAR(actual(i, j), expected(i, j), tolerance) << what << "[" << i << "][" << j << "]";
}

Mat random_matrix(std::mt19937& gen, Index rows, Index cols, double spread = 2.0) {
  std::uniform_real_distribution<double> dist(-spread, spread);
  Mat m(rows, cols);
  for (Index i = 0; i < m.size(); ++i) m.data()[i] = dist(gen);
  return m;
}

// A float64 reference written apart from the core: plain loops, the textbook formula, no
// max-subtraction (inputs here are small), blocked cells skipped.
Mat reference_weights(const Mat& Q, const Mat& K, double scale, const attention::Mask* allowed) {
  Mat w = Mat::Zero(Q.rows(), K.rows());
  for (Index i = 0; i < Q.rows(); ++i) {
    double sum = 0;
    for (Index j = 0; j < K.rows(); ++j) {
      if (allowed && !(*allowed)(i, j)) continue;
      double dot = 0;
      for (Index c = 0; c < Q.cols(); ++c) dot += Q(i, c) * K(j, c);
      w(i, j) = std::exp(dot * scale);
      sum += w(i, j);
    }
    for (Index j = 0; j < K.rows(); ++j) w(i, j) = sum > 0 ? w(i, j) / sum : 0;
  }
  return w;
}

Mat reference_output(const Mat& W, const Mat& V) {
  Mat out = Mat::Zero(W.rows(), V.cols());
  for (Index i = 0; i < W.rows(); ++i)
    for (Index c = 0; c < V.cols(); ++c)
      for (Index j = 0; j < W.cols(); ++j) out(i, c) += W(i, j) * V(j, c);
  return out;
}

attention::Trace<double> run(const Mat& Q, const Mat& K, const Mat& V,
                             const Options& options = {}) {
  auto result = attention::attend<double>(Q, K, V, options);
  EXPECT_TRUE(result.ok()) << result.error;
  return result.value;
}

std::string error_of(const Mat& Q, const Mat& K, const Mat& V, const Options& options = {}) {
  return attention::attend<double>(Q, K, V, options).error;
}

// ---- scenes.md ----

TEST(Scenes, ClassroomSelfAttention) {
  const auto& s = scenes()["classroom"];
  auto result = attention::self_attention<double>(matrix(s["x"]), matrix(s["wq"]), matrix(s["wk"]),
                                                  matrix(s["wv"]));
  ASSERT_TRUE(result.ok()) << result.error;
  const auto& t = result.value;
  for (auto [name, m] : {std::pair{"q", &t.q}, std::pair{"k", &t.k}, std::pair{"v", &t.v},
                         std::pair{"scores", &t.scores}, std::pair{"scaled", &t.scaled},
                         std::pair{"weights", &t.weights}, std::pair{"output", &t.output}}) {
    expect_near(*m, matrix(s[name]), 1e-9, name);
  }
  EXPECT_NEAR(t.scale, 1 / std::sqrt(2.0), 1e-15);
  EXPECT_EQ(t.masked.size(), 0);
  EXPECT_EQ(t.dropped.size(), 0);
  expect_near(t.output, matrix(s["summary"]), 5e-4, "3-decimal summary");
}

TEST(Scenes, ClassroomSeedPrintedWeightsAreTheErratum) {
  const auto& s = scenes()["classroom"];
  const auto t = run(matrix(s["q"]), matrix(s["k"]), matrix(s["v"]));
  EXPECT_GT((t.weights - matrix(s["articlePrinted"]["weights"])).cwiseAbs().maxCoeff(), 1e-4);
  EXPECT_GT((t.output - matrix(s["articlePrinted"]["output"])).cwiseAbs().maxCoeff(), 1e-4);
}

TEST(Scenes, AgeLookup) {
  const auto& s = scenes()["age"];
  const auto t = run(matrix(s["q"]), matrix(s["k"]), matrix(s["v"]));
  for (auto [name, m] : {std::pair{"scores", &t.scores}, std::pair{"scaled", &t.scaled},
                         std::pair{"weights", &t.weights}, std::pair{"output", &t.output}}) {
    expect_near(*m, matrix(s[name]), 1e-9, name);
  }
  for (const auto& row : s["alpha"]) {
    const Mat q = matrix(s["q"]) * row["alpha"].get<double>();
    const auto scaled = run(q, matrix(s["k"]), matrix(s["v"]));
    EXPECT_NEAR(scaled.output(0, 0), row["output"].get<double>(), 5e-5) << "alpha " << row["alpha"];
  }
}

TEST(Scenes, Dictionary) {
  const auto& s = scenes()["dictionary"];
  const auto t = run(matrix(s["q"]), matrix(s["k"]), matrix(s["v"]));
  for (auto [name, m] : {std::pair{"scores", &t.scores}, std::pair{"scaled", &t.scaled},
                         std::pair{"weights", &t.weights}, std::pair{"output", &t.output}}) {
    expect_near(*m, matrix(s[name]), 1e-9, name);
  }
  expect_near(t.weights, matrix(s["articlePrinted"]["weights"]), 5e-3, "the article's 2 decimals");
  expect_near(t.output, matrix(s["articlePrinted"]["output"]), 5e-3, "the article's 2 decimals");
}

TEST(Scenes, SoftmaxStepsAreShownInFull) {
  const auto& s = scenes()["dictionary"];
  const auto t = run(matrix(s["q"]), matrix(s["k"]), matrix(s["v"]));
  EXPECT_NEAR(t.row_max(0), 3.5355339059, 1e-9);
  EXPECT_DOUBLE_EQ(t.exp(0, 0), 1.0);
  EXPECT_NEAR(t.exp(0, 1), std::exp(1.9798989873 - 3.5355339059), 1e-9);
  EXPECT_NEAR(t.row_sum(0), 1 / 0.7943673087, 1e-8);
}

// ---- against the float64 reference, on random shapes ----

TEST(Reference, RandomCrossAttentionWithAndWithoutMasks) {
  std::mt19937 gen(7);
  std::uniform_int_distribution<int> size(1, 9);
  for (int trial = 0; trial < 200; ++trial) {
    const Index n_q = size(gen), n_k = size(gen), d_k = size(gen), d_v = size(gen);
    const Mat Q = random_matrix(gen, n_q, d_k), K = random_matrix(gen, n_k, d_k),
              V = random_matrix(gen, n_k, d_v);
    Options options;
    attention::Mask allowed = attention::Mask::Constant(n_q, n_k, true);
    if (trial % 3 == 1) {
      options.mask_kind = MaskKind::kCausal;
      for (Index i = 0; i < n_q; ++i)
        for (Index j = i + 1; j < n_k; ++j) allowed(i, j) = false;
    } else if (trial % 3 == 2) {
      options.mask_kind = MaskKind::kExplicit;
      std::bernoulli_distribution keep(0.6);
      for (Index i = 0; i < allowed.size(); ++i) allowed.data()[i] = keep(gen);
      options.mask = allowed;
    }
    const auto t = run(Q, K, V, options);
    const Mat w = reference_weights(Q, K, 1 / std::sqrt(double(d_k)), &allowed);
    expect_near(t.weights, w, 1e-12, "weights");
    expect_near(t.output, reference_output(w, V), 1e-12, "output");
  }
}

// ---- properties ----

TEST(Properties, RowsSumToOne) {
  std::mt19937 gen(1);
  const auto t =
      run(random_matrix(gen, 7, 5, 6), random_matrix(gen, 11, 5, 6), random_matrix(gen, 11, 3));
  for (Index i = 0; i < 7; ++i) EXPECT_NEAR(t.weights.row(i).sum(), 1.0, 1e-12);
  EXPECT_GE(t.weights.minCoeff(), 0.0);
}

TEST(Properties, AddingAConstantToAScoreRowChangesNothing) {
  // Q' = [Q | c] and K' = [K | 1] add c_i to every score of row i; the scale is held fixed.
  std::mt19937 gen(2);
  const Mat Q = random_matrix(gen, 4, 3), K = random_matrix(gen, 6, 3),
            V = random_matrix(gen, 6, 2);
  Mat Q2(4, 4), K2(6, 4);
  Q2 << Q, (Eigen::Vector4d() << 10, -3.5, 250, 0.25).finished();
  K2 << K, Eigen::VectorXd::Ones(6);
  Options options;
  options.scale = 0.5;
  const auto a = run(Q, K, V, options), b = run(Q2, K2, V, options);
  EXPECT_NEAR((b.scores - a.scores).row(2).minCoeff(), 250, 1e-9);
  expect_near(b.weights, a.weights, 1e-12, "weights");
  expect_near(b.output, a.output, 1e-12, "output");
}

TEST(Properties, CausalUpperTriangleIsZero) {
  std::mt19937 gen(3);
  Options options;
  options.mask_kind = MaskKind::kCausal;
  const auto t =
      run(random_matrix(gen, 6, 4), random_matrix(gen, 6, 4), random_matrix(gen, 6, 2), options);
  for (Index i = 0; i < 6; ++i) {
    for (Index j = 0; j < 6; ++j) {
      if (j > i) {
        EXPECT_EQ(t.weights(i, j), 0.0);
        EXPECT_EQ(t.masked(i, j), -std::numeric_limits<double>::infinity());
      } else {
        EXPECT_GT(t.weights(i, j), 0.0);
        EXPECT_EQ(t.masked(i, j), t.scaled(i, j));
      }
    }
  }
  EXPECT_DOUBLE_EQ(t.weights(0, 0), 1.0);
}

TEST(Properties, EqualKeysGetEqualWeights) {
  std::mt19937 gen(4);
  Mat K = random_matrix(gen, 5, 3);
  K.row(3) = K.row(1);
  const auto t = run(random_matrix(gen, 4, 3), K, random_matrix(gen, 5, 2));
  for (Index i = 0; i < 4; ++i) EXPECT_EQ(t.weights(i, 1), t.weights(i, 3));
}

TEST(Properties, OutputLiesWithinEachValueColumn) {
  std::mt19937 gen(5);
  for (int trial = 0; trial < 50; ++trial) {
    const Mat V = random_matrix(gen, 8, 3, 100);
    const auto t = run(random_matrix(gen, 5, 4, 5), random_matrix(gen, 8, 4, 5), V);
    for (Index c = 0; c < 3; ++c) {
      EXPECT_GE(t.output.col(c).minCoeff(), V.col(c).minCoeff() - 1e-9);
      EXPECT_LE(t.output.col(c).maxCoeff(), V.col(c).maxCoeff() + 1e-9);
    }
  }
}

TEST(Properties, HugeScoresDoNotOverflow) {
  const Mat Q = (Mat(1, 1) << 1000).finished();
  const Mat K = (Mat(3, 1) << 1, 2, 3).finished();
  const Mat V = (Mat(3, 1) << 10, 20, 30).finished();
  const auto t = run(Q, K, V);
  EXPECT_TRUE(t.weights.allFinite());
  EXPECT_NEAR(t.output(0, 0), 30, 1e-9);
}

TEST(Properties, FullyMaskedRowGivesZerosAndAFlag) {
  Options options;
  options.mask_kind = MaskKind::kExplicit;
  options.mask = attention::Mask(2, 3);
  options.mask << true, false, true, false, false, false;
  const Mat Q = Mat::Ones(2, 2), K = Mat::Ones(3, 2), V = Mat::Constant(3, 2, 4);
  const auto t = run(Q, K, V, options);
  EXPECT_EQ(t.blocked_rows, std::vector<Index>{1});
  EXPECT_TRUE(t.weights.row(1).isZero());
  EXPECT_TRUE(t.output.row(1).isZero());
  EXPECT_TRUE(t.weights.allFinite() && t.output.allFinite());
  EXPECT_NEAR(t.weights(0, 0), 0.5, 1e-15);
}

TEST(Properties, CustomScale) {
  const auto& s = scenes()["age"];
  Options options;
  options.scale = 0;
  const auto t = run(matrix(s["q"]), matrix(s["k"]), matrix(s["v"]), options);
  EXPECT_EQ(t.scale, 0);
  EXPECT_NEAR(t.output(0, 0), s["mean"].get<double>(), 1e-12);
}

// ---- batched float32 ----

TEST(Batched, EqualsALoopOverSingleHeads) {
  std::mt19937 gen(6);
  const attention::BatchShape shape{2, 3, 5, 7, 4, 6};
  const Index heads = 6;
  std::vector<float> q, k, v;
  std::vector<Mat> Qs, Ks, Vs;
  for (Index h = 0; h < heads; ++h) {
    Qs.push_back(random_matrix(gen, 5, 4));
    Ks.push_back(random_matrix(gen, 7, 4));
    Vs.push_back(random_matrix(gen, 7, 6));
    for (auto [m, out] :
         {std::pair{&Qs.back(), &q}, std::pair{&Ks.back(), &k}, std::pair{&Vs.back(), &v}}) {
      for (Index i = 0; i < m->size(); ++i) {
        m->data()[i] = float(m->data()[i]);  // the head sees exactly what float32 holds
        out->push_back(float(m->data()[i]));
      }
    }
  }
  for (MaskKind kind : {MaskKind::kNone, MaskKind::kCausal}) {
    Options options;
    options.mask_kind = kind;
    const auto result = attention::attend_batched(q, k, v, shape, options);
    ASSERT_TRUE(result.ok()) << result.error;
    ASSERT_EQ(result.value.output.size(), size_t(heads * 5 * 6));
    ASSERT_EQ(result.value.weights.size(), size_t(heads * 5 * 7));
    for (Index h = 0; h < heads; ++h) {
      const auto t = run(Qs[h], Ks[h], Vs[h], options);
      for (Index i = 0; i < 5 * 6; ++i)
        EXPECT_NEAR(result.value.output[h * 30 + i], t.output.data()[i], 1e-5);
      for (Index i = 0; i < 5 * 7; ++i)
        EXPECT_NEAR(result.value.weights[h * 35 + i], t.weights.data()[i], 1e-6);
    }
  }
}

TEST(Batched, Errors) {
  const attention::BatchShape shape{1, 2, 3, 3, 2, 2};
  std::vector<float> q(12, 0.5f), k(12, 0.5f), v(12, 0.5f), short_v(11, 0.5f);
  EXPECT_EQ(attention::attend_batched(q, k, short_v, shape).error,
            "V has 11 values but the shape needs 12 (batch×heads×nK×dV)");
  std::vector<float> long_v(13, 0.5f);
  EXPECT_EQ(attention::attend_batched(q, k, long_v, shape).error,
            "V has 13 values but the shape needs 12 (batch×heads×nK×dV)");
  attention::BatchShape no_heads = shape;
  no_heads.heads = 0;
  EXPECT_EQ(attention::attend_batched(q, k, v, no_heads).error,
            "shape.heads is 0; it must be from 1 to 8192");
  attention::BatchShape huge = shape;
  huge.n_q = 1'000'000'000'000;
  EXPECT_EQ(attention::attend_batched(q, k, v, huge).error,
            "shape.nQ is 1000000000000; it must be from 1 to 8192");
  attention::BatchShape many = {8192, 8192, 1, 1, 8, 1};
  EXPECT_EQ(attention::attend_batched(q, k, v, many).error,
            "Q would take 2147483648 bytes (batch×heads×nQ×dK×4), over the limit of 1073741824 "
            "bytes (1 GiB of WASM memory)");
  k[7] = std::nanf("");
  EXPECT_EQ(attention::attend_batched(q, k, v, shape).error,
            "batch 1, head 2: K[1][2] is NaN; every input must be finite");
}

// ---- dropout ----

TEST(Dropout, InvertedScalingWithAFixedSeed) {
  std::mt19937 gen(8);
  const Index n = 200;
  Options options;
  options.dropout_p = 0.25;
  options.seed = 42;
  const Mat Q = random_matrix(gen, n, 4), K = random_matrix(gen, n, 4),
            V = random_matrix(gen, n, 3);
  const auto t = run(Q, K, V, options);
  Index zeros = 0;
  for (Index i = 0; i < t.dropped.size(); ++i) {
    const double w = t.weights.data()[i], d = t.dropped.data()[i];
    if (d == 0) {
      ++zeros;
    } else {
      EXPECT_NEAR(d, w / 0.75, 1e-15);
    }
  }
  // 40,000 Bernoulli(0.25) draws: the standard deviation of the fraction is 0.0022.
  EXPECT_NEAR(double(zeros) / t.dropped.size(), 0.25, 0.01);
  // Inverted scaling keeps each row's expected sum at 1.
  EXPECT_NEAR(t.dropped.rowwise().sum().mean(), 1.0, 0.02);
  expect_near(t.output, t.dropped * V, 1e-12, "output uses the dropped weights");
  expect_near(t.weights, reference_weights(Q, K, 0.5, nullptr), 1e-12, "weights before dropout");

  const auto again = run(Q, K, V, options);
  EXPECT_EQ(again.dropped, t.dropped) << "same seed, same cells";
  options.seed = 43;
  EXPECT_NE(run(Q, K, V, options).dropped, t.dropped) << "another seed, other cells";
}

TEST(Dropout, OffByDefault) {
  const auto& s = scenes()["classroom"];
  const auto t = run(matrix(s["q"]), matrix(s["k"]), matrix(s["v"]));
  EXPECT_EQ(t.dropped.size(), 0);
}

// ---- errors ----

TEST(Errors, EveryMessageNamesTheArgumentAndTheShapes) {
  const Mat Q = Mat::Ones(3, 2), K = Mat::Ones(4, 2), V = Mat::Ones(4, 1);
  EXPECT_EQ(error_of(Q, Mat::Ones(4, 3), V), "K has 3 columns but Q has 2 (d_k must match)");
  EXPECT_EQ(error_of(Q, K, Mat::Ones(3, 1)), "V has 3 rows but K has 4 (one value row per key)");
  EXPECT_EQ(error_of(Mat(0, 2), K, V), "Q has no rows (it is 0×2)");
  EXPECT_EQ(error_of(Q, Mat(0, 2), Mat(0, 1)), "K has no rows (it is 0×2)");
  EXPECT_EQ(error_of(Mat(3, 0), Mat(4, 0), V), "Q has 0 columns: d_k must be at least 1");
  EXPECT_EQ(error_of(Q, K, Mat(4, 0)), "V has 0 columns: d_v must be at least 1");
  EXPECT_EQ(error_of(Mat::Ones(8193, 1), Mat::Ones(1, 1), Mat::Ones(1, 1)),
            "Q is 8193×1, over the limit of 8192 per dimension");
  EXPECT_EQ(error_of(Mat::Ones(5000, 1), Mat::Ones(5000, 1), Mat::Ones(5000, 1)),
            "Q·Kᵀ would be 5000×5000, over the limit of 4194304 values");

  Mat bad = Q;
  bad(2, 1) = std::nan("");
  EXPECT_EQ(error_of(bad, K, V), "Q[3][2] is NaN; every input must be finite");
  Mat inf = V;
  inf(3, 0) = -std::numeric_limits<double>::infinity();
  EXPECT_EQ(error_of(Q, K, inf), "V[4][1] is infinite; every input must be finite");

  Options mask;
  mask.mask_kind = MaskKind::kExplicit;
  mask.mask = attention::Mask::Constant(2, 4, true);
  EXPECT_EQ(error_of(Q, K, V, mask), "mask is 2×4 but the scores are 3×4 (n_q×n_k)");
  Options scale;
  scale.scale = std::numeric_limits<double>::infinity();
  EXPECT_EQ(error_of(Q, K, V, scale), "scale is Infinity; it must be a finite number");
  Options dropout;
  dropout.dropout_p = 1;
  EXPECT_EQ(error_of(Q, K, V, dropout), "dropout p is 1; it must be at least 0 and below 1");
  dropout.dropout_p = -0.5;
  EXPECT_EQ(error_of(Q, K, V, dropout), "dropout p is -0.5; it must be at least 0 and below 1");
}

TEST(Errors, NumbersAreWrittenAsPrintfsPercentG) {
  for (double p : {-0.5, -1.5e-7, 123456789.0, 1234.5, -0.0001, -1.234e-5, 1e21, 2.5, 1.0000005,
                   999999.5, 1000.0, -999.9999999, 3.4028234663852886e38, 5e-324, 1e-5}) {
    Options options;
    options.dropout_p = p < 0 || p >= 1 ? p : -p;
    char expected[32];
    std::snprintf(expected, sizeof expected, "%g", options.dropout_p);
    EXPECT_EQ(error_of(Mat::Ones(1, 1), Mat::Ones(1, 1), Mat::Ones(1, 1), options),
              std::string("dropout p is ") + expected + "; it must be at least 0 and below 1");
  }
}

TEST(Errors, SelfAttentionShapes) {
  const Mat X = Mat::Ones(3, 2), W = Mat::Ones(2, 2);
  const auto error = [](const Mat& x, const Mat& wq, const Mat& wk, const Mat& wv) {
    return attention::self_attention<double>(x, wq, wk, wv).error;
  };
  EXPECT_EQ(error(X, Mat::Ones(3, 2), W, W),
            "W_Q has 3 rows but X has 2 columns (X·W_Q needs them equal)");
  EXPECT_EQ(error(X, W, W, Mat::Ones(1, 2)),
            "W_V has 1 row but X has 2 columns (X·W_V needs them equal)");
  EXPECT_EQ(error(X, W, Mat::Ones(2, 3), W), "W_K has 3 columns but W_Q has 2 (d_k must match)");
  EXPECT_EQ(error(Mat(0, 2), W, W, W), "X has no rows (it is 0×2)");
  EXPECT_EQ(error(X, Mat(2, 0), Mat(2, 0), W), "W_Q has 0 columns (it is 2×0)");
  Mat nan = W;
  nan(0, 1) = std::nan("");
  EXPECT_EQ(error(X, W, nan, W), "W_K[1][2] is NaN; every input must be finite");
}

TEST(Errors, TooLargeForMemoryBeforeAnythingIsAllocated) {
  const auto error = [](const Mat& x, const Mat& w) {
    return attention::self_attention<double>(x, w, w, w).error;
  };
  EXPECT_EQ(error(Mat::Ones(8192, 1), Mat::Ones(1, 8192)),
            "Q = X·W_Q would be 8192×8192, over the limit of 4194304 values");
  EXPECT_EQ(error(Mat::Ones(4096, 1), Mat::Ones(1, 2)),
            "Q·Kᵀ would be 4096×4096, over the limit of 4194304 values");
}

TEST(Errors, TheLimitsThemselvesAreAllowed) {
  // 2048×2048 = kMaxValues values: Q at the limit, then scores at the limit.
  EXPECT_EQ(error_of(Mat::Ones(2048, 2048), Mat::Ones(1, 2048), Mat::Ones(1, 1)), "");
  EXPECT_EQ(error_of(Mat::Ones(2048, 1), Mat::Ones(2048, 1), Mat::Ones(2048, 1)), "");
  EXPECT_EQ(error_of(Mat::Ones(2049, 2048), Mat::Ones(1, 2048), Mat::Ones(1, 1)),
            "Q is 2049×2048, over the limit of 4194304 values");
}

// ---- finite input, infinite arithmetic: an error that names the step and the cell ----

constexpr const char* kTooLarge =
    "; the inputs are finite but too large for double (at most 1.8e308)";

TEST(Overflow, ScoresNameTheCellAndItsFormula) {
  Mat Q(2, 2), K(2, 2);
  Q << 1, 1, 0, 1e200;
  K << 1, 0, 1, 1e200;
  const Mat V = Mat::Ones(2, 1);
  EXPECT_EQ(error_of(Q, K, V),
            std::string("scores[2][2] = Q[2]·K[2] overflows to Infinity") + kTooLarge);
  K(1, 1) = -1e200;
  EXPECT_EQ(error_of(Q, K, V),
            std::string("scores[2][2] = Q[2]·K[2] overflows to -Infinity") + kTooLarge);
  // Off the diagonal, each index names its own row.
  K << 1, 0, 1, 1;
  Q << 1, 1e200, 0, 1;
  EXPECT_EQ(error_of(Q, K * 1e200, V),
            std::string("scores[1][2] = Q[1]·K[2] overflows to Infinity") + kTooLarge);
  Q << 1e200, 1e200, 0, 0;
  K << 1e200, -1e200, 0, 0;
  EXPECT_EQ(
      error_of(Q, K, V),
      std::string(
          "scores[1][1] = Q[1]·K[1] overflows (its terms reach both Infinity and -Infinity)") +
          kTooLarge);
}

TEST(Overflow, ScaledOutputAndProjections) {
  const Mat Q = Mat::Constant(1, 2, 1e5), K = Mat::Constant(3, 2, 1e5), V = Mat::Ones(3, 1);
  Options scale;
  scale.scale = 1e300;
  EXPECT_EQ(error_of(Q, K, V, scale),
            std::string("scaled[1][1] = scores[1][1] × scale overflows to Infinity") + kTooLarge);

  // Dropout's inverted scaling can push a value past the largest double.
  Options dropout;
  dropout.dropout_p = 0.5;
  const Mat big = Mat::Constant(3, 1, 1.5e308);
  int overflowed = 0;
  for (dropout.seed = 0; dropout.seed < 8; ++dropout.seed) {
    const auto result = attention::attend<double>(Mat::Zero(1, 2), K, big, dropout);
    if (result.ok()) continue;
    ++overflowed;
    EXPECT_EQ(result.error.rfind("output[1][1] = Σ dropped[1][k]·V[k][1] overflows to Infinity", 0),
              0u)
        << result.error;
  }
  EXPECT_GT(overflowed, 0) << "some seed keeps two of the three 1.5e308s, doubled";

  // Off the diagonal, the message names output[row][column]: two queries, V's third column
  // overflowing (a swap of row and column would say output[3][…]).
  Mat wide = Mat::Zero(3, 3);
  wide.col(2).setConstant(1.5e308);
  int named = 0;
  for (dropout.seed = 0; dropout.seed < 8; ++dropout.seed) {
    const auto result = attention::attend<double>(Mat::Zero(2, 2), K, wide, dropout);
    if (result.ok()) continue;
    ++named;
    EXPECT_TRUE(result.error.rfind("output[1][3] = Σ dropped[1][k]·V[k][3] overflows", 0) == 0 ||
                result.error.rfind("output[2][3] = Σ dropped[2][k]·V[k][3] overflows", 0) == 0)
        << result.error;
  }
  EXPECT_GT(named, 0) << "some seed keeps two of a row's three 1.5e308s";
  EXPECT_TRUE(attention::attend<double>(Mat::Zero(1, 2), K, big).ok())
      << "without dropout the output is an average of V, so it stays finite";

  Mat X(2, 2), W_Q(2, 2);
  X << 1, 2, 1e200, 1;
  W_Q << 1, 1e200, 0, 1;
  const Mat W = Mat::Ones(2, 2);
  EXPECT_EQ(attention::self_attention<double>(X, W_Q, W, W).error,
            std::string("Q[2][2] = X[2]·(column 2 of W_Q) overflows to Infinity") + kTooLarge);
}

TEST(Overflow, BatchedFloat32NamesTheHead) {
  const attention::BatchShape shape{1, 2, 2, 2, 2, 1};
  std::vector<float> q(8, 1), k(8, 1), v(4, 1);
  EXPECT_TRUE(attention::attend_batched(q, k, v, shape).ok());
  q[4 + 2] = 1e20f;  // head 2, Q[2][1]
  k[4 + 2] = 1e20f;  // head 2, K[2][1]
  EXPECT_EQ(attention::attend_batched(q, k, v, shape).error,
            "batch 1, head 2: scores[2][2] = Q[2]·K[2] overflows to Infinity; the inputs are "
            "finite but too large for float32 (at most 3.4e38)");
}

}  // namespace
