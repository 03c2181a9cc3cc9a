// multihead_test.cpp: multi-head, grouped-query and multi-query attention, the KV cache and the
// position encodings, against float64 references written here with plain loops, against
// PyTorch's own output (tests/fixtures/pytorch-mha.json), hand values and properties.
#include "multihead.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <numeric>
#include <random>

namespace {

using attention::Index;
using attention::MultiHeadOptions;
using attention::MultiHeadWeights;
using attention::Positions;
using Mat = attention::Matrix<double>;

Mat random_matrix(std::mt19937& gen, Index rows, Index cols) {
  std::uniform_real_distribution<double> dist(-1.5, 1.5);
  Mat m(rows, cols);
  for (Index i = 0; i < m.size(); ++i) m.data()[i] = dist(gen);
  return m;
}

Mat matrix(const nlohmann::json& rows) {
  Mat m(rows.size(), rows.at(0).size());
  for (Index i = 0; i < m.rows(); ++i)
    for (Index j = 0; j < m.cols(); ++j) m(i, j) = rows.at(i).at(j).get<double>();
  return m;
}

MultiHeadWeights random_weights(std::mt19937& gen, Index d_model, Index h, Index h_kv, Index d) {
  return {random_matrix(gen, d_model, h * d), random_matrix(gen, d_model, h_kv * d),
          random_matrix(gen, d_model, h_kv * d), random_matrix(gen, h * d, d_model)};
}

void expect_near(const Mat& actual, const Mat& expected, double tolerance,
                 const std::string& what) {
  ASSERT_EQ(actual.rows(), expected.rows()) << what;
  ASSERT_EQ(actual.cols(), expected.cols()) << what;
  for (Index i = 0; i < actual.rows(); ++i)
    for (Index j = 0; j < actual.cols(); ++j)
      EXPECT_NEAR(actual(i, j), expected(i, j), tolerance) << what << "[" << i << "][" << j << "]";
}

// ---- the float64 reference, written apart from the core: plain loops throughout ----

// Row r of X at position pos: sinusoidal encodings added, straight from the paper's formula.
double sinusoid(double pos, Index c, Index d_model) {
  const double angle = pos / std::pow(10000.0, double(2 * (c / 2)) / double(d_model));
  return c % 2 == 0 ? std::sin(angle) : std::cos(angle);
}

// RoPE on one row of one head, the RoFormer way: pairs (2i, 2i+1), angle pos·10000^(−2i/d).
std::vector<double> rope_row(std::vector<double> x, double pos) {
  const size_t d = x.size();
  for (size_t i = 0; i < d / 2; ++i) {
    const double angle = pos * std::pow(10000.0, -2.0 * double(i) / double(d));
    const double a = x[2 * i], b = x[2 * i + 1];
    x[2 * i] = a * std::cos(angle) - b * std::sin(angle);
    x[2 * i + 1] = a * std::sin(angle) + b * std::cos(angle);
  }
  return x;
}

// Multi-head attention by the definition: head i projects X with its own d columns of W_Q and
// the columns of key-value head ⌊i·h_kv/h⌋ of W_K and W_V, runs softmax(q·kᵀ/√d)·v, and the
// heads' outputs, side by side, times W_O are the output.
Mat reference_mha(const Mat& X_in, const MultiHeadWeights& w, Index h, Index h_kv, bool causal,
                  Positions positions) {
  const Index n = X_in.rows(), d_model = X_in.cols(), d = w.W_Q.cols() / h;
  Mat X = X_in;
  if (positions == Positions::kSinusoidal)
    for (Index r = 0; r < n; ++r)
      for (Index c = 0; c < d_model; ++c) X(r, c) += sinusoid(double(r), c, d_model);
  const auto project = [&](const Mat& W, Index r, Index first) {
    std::vector<double> out(size_t(d), 0.0);
    for (Index c = 0; c < d; ++c)
      for (Index m = 0; m < d_model; ++m) out[size_t(c)] += X(r, m) * W(m, first + c);
    return out;
  };
  Mat concat = Mat::Zero(n, h * d);
  for (Index head = 0; head < h; ++head) {
    const Index g = head * h_kv / h;
    for (Index i = 0; i < n; ++i) {
      std::vector<double> q = project(w.W_Q, i, head * d);
      if (positions == Positions::kRotary) q = rope_row(q, double(i));
      std::vector<double> weights(size_t(n), 0.0);
      double sum = 0;
      for (Index j = 0; j < n; ++j) {
        if (causal && j > i) continue;
        std::vector<double> k = project(w.W_K, j, g * d);
        if (positions == Positions::kRotary) k = rope_row(k, double(j));
        double dot = 0;
        for (Index c = 0; c < d; ++c) dot += q[size_t(c)] * k[size_t(c)];
        weights[size_t(j)] = std::exp(dot / std::sqrt(double(d)));
        sum += weights[size_t(j)];
      }
      for (Index j = 0; j < n; ++j) {
        const std::vector<double> v = project(w.W_V, j, g * d);
        for (Index c = 0; c < d; ++c)
          concat(i, head * d + c) += weights[size_t(j)] / sum * v[size_t(c)];
      }
    }
  }
  Mat out = Mat::Zero(n, d_model);
  for (Index i = 0; i < n; ++i)
    for (Index c = 0; c < d_model; ++c)
      for (Index m = 0; m < h * d; ++m) out(i, c) += concat(i, m) * w.W_O(m, c);
  return out;
}

attention::MultiHeadTrace run(const Mat& X, const MultiHeadWeights& w, const MultiHeadOptions& o) {
  auto result = attention::multi_head_attention(X, w, o);
  EXPECT_TRUE(result.ok()) << result.error;
  return result.value;
}

MultiHeadOptions options(Index h, Index h_kv, bool causal = false,
                         Positions positions = Positions::kNone) {
  MultiHeadOptions o;
  o.heads = h;
  o.kv_heads = h_kv;
  o.causal = causal;
  o.positions = positions;
  return o;
}

// ---- multi-head against the reference ----

TEST(MultiHead, EqualsTheReferenceForEveryNumberOfKeyValueHeads) {
  std::mt19937 gen(9);
  for (Index h_kv : {4, 2, 1}) {
    for (bool causal : {false, true}) {
      for (Positions p : {Positions::kNone, Positions::kSinusoidal, Positions::kRotary}) {
        const Mat X = random_matrix(gen, 6, 5);
        const MultiHeadWeights w = random_weights(gen, 5, 4, h_kv, 4);
        const auto t = run(X, w, options(4, h_kv, causal, p));
        const std::string what = "h_kv " + std::to_string(h_kv) + (causal ? " causal" : "") +
                                 " positions " + std::to_string(int(p));
        expect_near(t.output, reference_mha(X, w, 4, h_kv, causal, p), 1e-12, what);
        ASSERT_EQ(t.head.size(), 4u);
        EXPECT_EQ(t.d_head, 4);
      }
    }
  }
}

TEST(MultiHead, IsPerHeadSingleAttentionThenConcatTimesWO) {
  std::mt19937 gen(10);
  for (Index h_kv : {6, 3, 2, 1}) {
    const Mat X = random_matrix(gen, 4, 6);
    const MultiHeadWeights w = random_weights(gen, 6, 6, h_kv, 3);
    const auto t = run(X, w, options(6, h_kv));
    Mat concat(4, 18);
    for (Index i = 0; i < 6; ++i) {
      const Index g = i * h_kv / 6;
      EXPECT_EQ(t.kv_head[size_t(i)], g);
      // the single-head self-attention of the core, on head i's columns of the weights
      auto single = attention::self_attention<double>(
          X, w.W_Q.middleCols(i * 3, 3), w.W_K.middleCols(g * 3, 3), w.W_V.middleCols(g * 3, 3));
      ASSERT_TRUE(single.ok()) << single.error;
      expect_near(t.head[size_t(i)].weights, single.value.weights, 1e-14, "weights");
      expect_near(t.head[size_t(i)].q, single.value.q, 1e-14, "head q");
      concat.middleCols(i * 3, 3) = single.value.output;
    }
    expect_near(t.concat, concat, 1e-14, "concat");
    Mat out = Mat::Zero(4, 6);
    for (Index r = 0; r < 4; ++r)
      for (Index c = 0; c < 6; ++c)
        for (Index m = 0; m < 18; ++m) out(r, c) += concat(r, m) * w.W_O(m, c);
    expect_near(t.output, out, 1e-13, "output");
  }
}

TEST(MultiHead, MultiQueryHeadsShareOneKeyAndValue) {
  std::mt19937 gen(11);
  const Mat X = random_matrix(gen, 5, 4);
  const auto t = run(X, random_weights(gen, 4, 4, 1, 2), options(4, 1));
  for (const auto& head : t.head) {
    expect_near(head.k, t.head[0].k, 0, "k");
    expect_near(head.v, t.head[0].v, 0, "v");
  }
  EXPECT_EQ(t.kv_head, (std::vector<Index>{0, 0, 0, 0}));
  const auto grouped = run(X, random_weights(gen, 4, 4, 2, 2), options(4, 2));
  EXPECT_EQ(grouped.kv_head, (std::vector<Index>{0, 0, 1, 1}));
}

TEST(MultiHead, OneHeadIsSelfAttentionTimesWO) {
  // hand values: X = I, W_Q = W_K = W_V = I, W_O = 2·I, d_head = 2
  const Mat I = Mat::Identity(2, 2);
  const auto t = run(I, {I, I, I, 2 * I}, options(1, 1));
  const double a = std::exp(1 / std::sqrt(2.0)), b = 1.0;  // e^(1/√2), e^0
  Mat expected(2, 2);
  expected << a / (a + b), b / (a + b), b / (a + b), a / (a + b);
  expect_near(t.head[0].weights, expected, 1e-15, "weights");
  expect_near(t.output, 2 * expected, 1e-15, "output");
}

// PyTorch 1.13's nn.MultiheadAttention(d_model, h, bias=False, batch_first=True) with
// in_proj_weight = [W_Qᵀ; W_Kᵀ; W_Vᵀ] and out_proj.weight = W_Oᵀ: its output, from
// tests/fixtures/pytorch_mha.py.
TEST(MultiHead, EqualsPyTorchsMultiheadAttention) {
  std::ifstream in(FIXTURES_DIR "/pytorch-mha.json");
  const auto cases = nlohmann::json::parse(in);
  for (const auto& c : cases["cases"]) {
    const MultiHeadWeights w{matrix(c["wq"]), matrix(c["wk"]), matrix(c["wv"]), matrix(c["wo"])};
    const auto t = run(matrix(c["x"]), w, options(c["heads"], 0, c["causal"]));
    expect_near(t.output, matrix(c["output"]), 1e-12, "output");
    for (size_t i = 0; i < t.head.size(); ++i) {
      expect_near(t.head[i].weights, matrix(c["weights"][i]), 1e-12, "weights");
    }
  }
}

// ---- the KV cache ----

TEST(KvCache, EveryStepEqualsTheFullCausalPass) {
  std::mt19937 gen(12);
  for (Index h_kv : {4, 2, 1}) {
    for (Positions p : {Positions::kNone, Positions::kSinusoidal, Positions::kRotary}) {
      const Index n = 12;
      const Mat X = random_matrix(gen, n, 8);
      const MultiHeadWeights w = random_weights(gen, 8, 4, h_kv, 2);
      const MultiHeadOptions o = options(4, h_kv, true, p);
      const Mat full = reference_mha(X, w, 4, h_kv, true, p);
      Mat K(0, h_kv * 2), V(0, h_kv * 2);
      for (Index t = 0; t < n; ++t) {
        auto step = attention::decode_step(X.row(t), K, V, w, o);
        ASSERT_TRUE(step.ok()) << step.error;
        EXPECT_EQ(step.value.position, t);
        expect_near(step.value.trace.output, full.row(t), 1e-12, "step " + std::to_string(t));
        ASSERT_EQ(step.value.k_cache.rows(), t + 1);
        ASSERT_EQ(step.value.trace.head[0].weights.cols(), t + 1);
        K = step.value.k_cache;
        V = step.value.v_cache;
      }
      // the cache holds K and V of the full pass (K after RoPE)
      const auto whole = run(X, w, o);
      expect_near(K, whole.k_rotated ? whole.k_rotated->rotated : whole.k, 1e-13, "K cache");
      expect_near(V, whole.v, 1e-13, "V cache");
    }
  }
}

TEST(KvCache, CountsMultiplyAddsAgainstAFullRecompute) {
  // d_model 4, h 2, h_kv 1, d_head 2; the 3rd token (2 in the cache): n = 3
  std::mt19937 gen(13);
  const MultiHeadWeights w = random_weights(gen, 4, 2, 1, 2);
  auto step = attention::decode_step(random_matrix(gen, 1, 4), random_matrix(gen, 2, 2),
                                     random_matrix(gen, 2, 2), w, options(2, 1));
  ASSERT_TRUE(step.ok()) << step.error;
  const auto& c = step.value.cost;
  EXPECT_EQ(c.projections, 4 * (2 + 2 * 1) * 2);  // d_model·(h + 2·h_kv)·d_head = 32
  EXPECT_EQ(c.scores, 2 * 3 * 2);                 // h·n·d_head = 12
  EXPECT_EQ(c.weighted_sum, 12);
  EXPECT_EQ(c.output, 2 * 2 * 4);  // h·d_head·d_model = 16
  EXPECT_EQ(c.total, 32 + 12 + 12 + 16);
  const auto& f = step.value.full;
  EXPECT_EQ(f.projections, 3 * 32);
  EXPECT_EQ(f.scores, 2 * 6 * 2);  // h·n(n+1)/2·d_head: 6 causal pairs
  EXPECT_EQ(f.weighted_sum, 24);
  EXPECT_EQ(f.output, 3 * 16);
  EXPECT_EQ(f.total, 96 + 24 + 24 + 48);
}

// ---- positions ----

TEST(Positions, SinusoidalHandValues) {
  // d_model 4: θ_0 = 1, θ_1 = 10000^(−2/4) = 0.01
  auto pe = attention::sinusoidal_positions({0, 1, 2}, 4);
  ASSERT_TRUE(pe.ok()) << pe.error;
  Mat expected(3, 4);
  expected << 0, 1, 0, 1,                                        //
      std::sin(1), std::cos(1), std::sin(0.01), std::cos(0.01),  //
      std::sin(2), std::cos(2), std::sin(0.02), std::cos(0.02);
  expect_near(pe.value.encoding, expected, 1e-15, "PE");
  EXPECT_NEAR(pe.value.angles.theta(1), 0.01, 1e-17);
}

TEST(Positions, RotaryHandValuesOnInterleavedPairs) {
  // d_head 4: θ = (1, 0.01); the pairs are columns (1, 2) and (3, 4), not (1, 3) and (2, 4)
  Mat M(1, 4);
  M << 1, 2, 3, 4;
  auto r = attention::rotary(M, {2}, 4);
  ASSERT_TRUE(r.ok()) << r.error;
  const double c = std::cos(2), s = std::sin(2), c2 = std::cos(0.02), s2 = std::sin(0.02);
  Mat expected(1, 4);
  expected << 1 * c - 2 * s, 1 * s + 2 * c, 3 * c2 - 4 * s2, 3 * s2 + 4 * c2;
  expect_near(r.value.rotated, expected, 1e-15, "rotated");
}

TEST(Positions, RotaryOverflowIsAnErrorNamingTheCell) {
  // θ = 1 at position 1: (a, b) = (1.5e308, 1.5e308) turns into (a·cos 1 − b·sin 1,
  // a·sin 1 + b·cos 1) = (−0.45e308, 2.07e308); the second overflows (found by the fuzzer).
  Mat M(1, 2);
  M << 1.5e308, 1.5e308;
  const auto r = attention::rotary(M, {1}, 2);
  EXPECT_EQ(r.error,
            "rotated[1][2] = M[1][1]·sin θ + M[1][2]·cos θ overflows to Infinity; the inputs are "
            "finite but "
            "too large for double (at most 1.8e308)");
  M << 1e308, 1e308;  // 1.38e308 and −0.30e308: finite
  const auto fine = attention::rotary(M, {1}, 2);
  ASSERT_TRUE(fine.ok()) << fine.error;
  EXPECT_NEAR(fine.value.rotated(0, 1), 1e308 * (std::sin(1) + std::cos(1)), 1e293);
}

TEST(Positions, AnAngleThatOverflowsIsAnErrorNamingIt) {
  // base 0.875 < 1: θ_i = 0.875^(−2i/9) grows; 1.8e308 × θ_1 overflows (found by the fuzzer)
  const double big = 1.7976931348623157e308;
  const auto r = attention::sinusoidal_positions({-7, -1, big, 3}, 9, 0.875);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error.find("positions[3] × θ_1 = "), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("overflows: every angle must be a finite number"), std::string::npos);
  Mat M = Mat::Ones(1, 4);
  EXPECT_NE(attention::rotary(M, {big}, 4, 0.5).error.find("positions[1] × θ_1"),
            std::string::npos);
  // base 10,000: θ ≤ 1, so the largest position still makes finite angles
  EXPECT_TRUE(attention::sinusoidal_positions({big}, 9).ok());
}

TEST(Positions, RotaryScoreDependsOnlyOnTheDistance) {
  std::mt19937 gen(14);
  const Mat q = random_matrix(gen, 1, 6), k = random_matrix(gen, 1, 6);
  const auto score = [&](double m, double n) {
    const Mat qm = attention::rotary(q, {m}, 6).value.rotated;
    const Mat kn = attention::rotary(k, {n}, 6).value.rotated;
    return qm.row(0).dot(kn.row(0));
  };
  for (double distance : {0.0, 1.0, 3.0, -2.0}) {
    const double at_start = score(distance + 0, 0);
    for (double n : {1.0, 5.0, 17.0, 100.0}) {
      EXPECT_NEAR(score(n + distance, n), at_start, 1e-12) << "distance " << distance;
    }
  }
  EXPECT_GT(std::abs(score(3, 0) - score(1, 0)), 1e-3);  // and the distance does matter
}

TEST(Positions, WithoutPositionsSelfAttentionIsPermutationEquivariant) {
  std::mt19937 gen(15);
  const Mat X = random_matrix(gen, 6, 4);
  const MultiHeadWeights w = random_weights(gen, 4, 2, 2, 2);
  std::vector<Index> order(6);
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), gen);
  Mat shuffled(6, 4);
  for (Index r = 0; r < 6; ++r) shuffled.row(r) = X.row(order[size_t(r)]);
  const auto plain = run(X, w, options(2, 2)), moved = run(shuffled, w, options(2, 2));
  for (Index r = 0; r < 6; ++r) {
    expect_near(moved.output.row(r), plain.output.row(order[size_t(r)]), 1e-13, "row");
  }
  for (Positions p : {Positions::kSinusoidal, Positions::kRotary}) {
    const auto a = run(X, w, options(2, 2, false, p)),
               b = run(shuffled, w, options(2, 2, false, p));
    double largest = 0;
    for (Index r = 0; r < 6; ++r)
      largest = std::max(largest,
                         (b.output.row(r) - a.output.row(order[size_t(r)])).cwiseAbs().maxCoeff());
    EXPECT_GT(largest, 1e-3) << "positions " << int(p) << " make order matter";
  }
}

TEST(Positions, PeScaleAddsThatMuchOfTheEncodings) {
  std::mt19937 gen(17);
  const Mat X = random_matrix(gen, 5, 4);
  const MultiHeadWeights w = random_weights(gen, 4, 2, 2, 2);
  MultiHeadOptions quarter = options(2, 2, false, Positions::kSinusoidal);
  quarter.pe_scale = 0.25;
  const auto scaled = run(X, w, quarter);
  const auto pe = attention::sinusoidal_positions({0, 1, 2, 3, 4}, 4);
  ASSERT_TRUE(pe.ok());
  const Mat by_hand = X + 0.25 * pe.value.encoding;
  expect_near(scaled.x, by_hand, 1e-15, "X + 0.25·PE");
  expect_near(scaled.output, run(by_hand, w, options(2, 2)).output, 1e-13, "the same layer");
  quarter.pe_scale = std::numeric_limits<double>::infinity();
  EXPECT_EQ(attention::multi_head_attention(X, w, quarter).error,
            "peScale must be a finite number");
}

// ---- errors ----

TEST(MultiHeadErrors, EveryMessageNamesTheArgumentAndTheShapes) {
  std::mt19937 gen(16);
  const Mat X = random_matrix(gen, 3, 4);
  const MultiHeadWeights w = random_weights(gen, 4, 4, 2, 2);
  const auto error = [&](MultiHeadWeights weights, MultiHeadOptions o) {
    return attention::multi_head_attention(X, weights, o).error;
  };
  EXPECT_EQ(error(w, options(4, 4)),
            "W_K has 4 columns but h_kv·d_head is 8 (h_kv = 4, d_head = 2)");
  EXPECT_EQ(error(w, options(4, 3)),
            "h_kv is 3, which does not divide h = 4 (each key-value head serves h/h_kv query "
            "heads)");
  EXPECT_EQ(error(w, options(0, 0)), "h is 0; it must be at least 1 head");
  EXPECT_EQ(error(w, options(3, 1)),
            "W_Q has 8 columns, which is not h·d_head for h = 3 heads (a multiple of 3)");
  MultiHeadWeights bad = w;
  bad.W_O = random_matrix(gen, 6, 4);
  EXPECT_EQ(error(bad, options(4, 2)),
            "W_O has 6 rows but h·d_head is 8 (one row per column of the concatenation)");
  bad.W_O = random_matrix(gen, 8, 3);
  EXPECT_EQ(error(bad, options(4, 2)),
            "W_O has 3 columns but X has 4 (the output has d_model columns)");
  bad = w;
  bad.W_V = random_matrix(gen, 5, 4);
  EXPECT_EQ(error(bad, options(4, 2)),
            "W_V has 5 rows but X has 4 columns (X·W_V needs them equal)");
  bad = w;
  bad.W_Q(1, 2) = NAN;
  EXPECT_EQ(error(bad, options(4, 2)), "W_Q[2][3] is NaN; every input must be finite");
  const MultiHeadWeights odd = random_weights(gen, 4, 2, 2, 3);
  EXPECT_EQ(error(odd, options(2, 2, false, Positions::kRotary)),
            "RoPE rotates pairs of columns, so d_head must be even, but it is 3");
  // overflow inside a head names the head
  bad = w;
  bad.W_Q *= 1e300;
  bad.W_K *= 1e300;
  EXPECT_EQ(error(bad, options(4, 2)).rfind("head 1: scores[1][1] = Q[1]·K[1] overflows", 0), 0u);
}

TEST(MultiHeadErrors, DecodeStepCacheShapes) {
  std::mt19937 gen(17);
  const MultiHeadWeights w = random_weights(gen, 4, 4, 2, 2);
  const Mat x = random_matrix(gen, 1, 4);
  const auto error = [&](const Mat& xs, const Mat& K, const Mat& V) {
    return attention::decode_step(xs, K, V, w, options(4, 2)).error;
  };
  EXPECT_EQ(error(x, random_matrix(gen, 2, 3), random_matrix(gen, 2, 3)),
            "K cache has 3 columns but h_kv·d_head is 4");
  EXPECT_EQ(error(x, random_matrix(gen, 2, 4), random_matrix(gen, 3, 4)),
            "V cache has 3 rows but K cache has 2 (one value row per cached key)");
  EXPECT_EQ(error(random_matrix(gen, 2, 4), Mat(0, 4), Mat(0, 4)),
            "x has 2 rows but a decoding step takes one token row");
  EXPECT_EQ(error(x, Mat(0, 0), Mat(0, 0)), "");
}

}  // namespace
