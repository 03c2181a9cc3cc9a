// kernel_test.cpp: the fast float32 path of attend_batched (kernel.cpp) against the Eigen
// reference and a float64 reference written here, on random ragged shapes, with and without a
// causal mask and the weights; its exp2; its limits in bytes; its overflow checks.
#include "kernel.hpp"

#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "attention.hpp"

namespace {

using attention::BatchOptions;
using attention::BatchShape;
using attention::MaskKind;
using attention::Options;

struct Inputs {
  std::vector<float> q, k, v;
};

Inputs random_inputs(std::mt19937& gen, const BatchShape& s, float spread) {
  std::uniform_real_distribution<float> dist(-spread, spread);
  const std::int64_t heads = s.batch * s.heads;
  Inputs in{std::vector<float>(heads * s.n_q * s.d_k), std::vector<float>(heads * s.n_k * s.d_k),
            std::vector<float>(heads * s.n_k * s.d_v)};
  for (auto* m : {&in.q, &in.k, &in.v})
    for (float& x : *m) x = dist(gen);
  return in;
}

attention::Batch run(const Inputs& in, const BatchShape& s, const Options& options = {},
                     const BatchOptions& batch = {}) {
  auto result = attention::attend_batched(in.q, in.k, in.v, s, options, batch);
  EXPECT_TRUE(result.ok()) << result.error;
  return result.value;
}

std::string error_of(const Inputs& in, const BatchShape& s, const Options& options = {},
                     const BatchOptions& batch = {}) {
  return attention::attend_batched(in.q, in.k, in.v, s, options, batch).error;
}

// A float64 reference written apart from the core: plain loops, the textbook formula with the
// row max subtracted, keys after the query skipped under a causal mask.
struct Reference {
  std::vector<double> output, weights;
};

Reference reference64(const Inputs& in, const BatchShape& s, bool causal) {
  const std::int64_t heads = s.batch * s.heads, n_q = s.n_q, n_k = s.n_k, d = s.d_k;
  const std::int64_t d_v = s.d_v;
  const double scale = 1 / std::sqrt(double(d));
  Reference r{std::vector<double>(heads * n_q * d_v), std::vector<double>(heads * n_q * n_k)};
  for (std::int64_t h = 0; h < heads; ++h) {
    const float* q = in.q.data() + h * n_q * d;
    const float* k = in.k.data() + h * n_k * d;
    const float* v = in.v.data() + h * n_k * d_v;
    for (std::int64_t i = 0; i < n_q; ++i) {
      const std::int64_t seen = causal ? std::min(i + 1, n_k) : n_k;
      std::vector<double> logit(seen);
      double max = -HUGE_VAL, sum = 0;
      for (std::int64_t j = 0; j < seen; ++j) {
        double dot = 0;
        for (std::int64_t c = 0; c < d; ++c) dot += double(q[i * d + c]) * k[j * d + c];
        logit[j] = dot * scale;
        max = std::max(max, logit[j]);
      }
      for (std::int64_t j = 0; j < seen; ++j) sum += std::exp(logit[j] - max);
      double* w = r.weights.data() + (h * n_q + i) * n_k;
      for (std::int64_t j = 0; j < seen; ++j) w[j] = std::exp(logit[j] - max) / sum;
      double* o = r.output.data() + (h * n_q + i) * d_v;
      for (std::int64_t j = 0; j < seen; ++j)
        for (std::int64_t c = 0; c < d_v; ++c) o[c] += w[j] * v[j * d_v + c];
    }
  }
  return r;
}

// Head by head, max |a − b| / max |b|: the error relative to the head's largest value.
template <typename A, typename B>
double relative_error(const std::vector<A>& a, const std::vector<B>& b, std::int64_t heads) {
  EXPECT_EQ(a.size(), b.size());
  if (a.size() != b.size() || a.empty()) return a.size() == b.size() ? 0 : HUGE_VAL;
  const std::size_t per_head = a.size() / heads;
  double worst = 0;
  for (std::size_t h0 = 0; h0 < a.size(); h0 += per_head) {
    double diff = 0, size = 0;
    for (std::size_t i = h0; i < h0 + per_head; ++i) {
      // std::max would pass over a NaN: a number that is not finite is as far off as can be
      if (!std::isfinite(double(a[i])) || !std::isfinite(double(b[i]))) return HUGE_VAL;
      diff = std::max(diff, std::fabs(double(a[i]) - double(b[i])));
      size = std::max(size, std::fabs(double(b[i])));
    }
    worst = std::max(worst, size > 0 ? diff / size : diff);
  }
  return worst;
}

// ---- exp2 ----

TEST(Fast, Exp2IsWithinAbout1UlpAndExactly0BelowFloatsRange) {
  std::vector<float> x;
  for (float a = -126.0f; a < 0; a += 0.000977f) x.push_back(a);
  for (float a = -1.0f; a < 0; a += 1e-6f) x.push_back(a);
  x.push_back(0);
  std::vector<float> y(x.size());
  attention::fast::exp2_negative(x.data(), y.data(), std::int64_t(x.size()));
  double worst = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double exact = std::exp2(double(x[i]));
    const double ulp = std::ldexp(1.0, std::ilogb(exact) - 23);
    worst = std::max(worst, std::fabs(y[i] - exact) / ulp);
  }
  EXPECT_LT(worst, 1.5) << "ulps";
  EXPECT_EQ(y.back(), 1.0f);
  const float below[] = {-std::numeric_limits<float>::infinity(), -1e30f, -200, -127, -126.6f};
  float out[5];
  attention::fast::exp2_negative(below, out, 5);
  for (float e : out) EXPECT_EQ(e, 0.0f);
}

// The attention softmax's shorter 2^x (degree 5) over all it can see: differences x − max from
// 0 down past float's range, and −∞. Relative error, as its products and sums weigh it.
TEST(Fast, ShortExp2IsWithin6e7RelativeAndExactly0BelowFloatsRange) {
  std::vector<float> x;
  for (float a = -126.0f; a < 0; a += 0.000977f) x.push_back(a);
  for (float a = -1.0f; a < 0; a += 1e-6f) x.push_back(a);
  for (float a = -0.5f; a <= 0.5f; a += 1.0f / 1024) x.push_back(a - 20);  // f at its ends
  x.push_back(-126.49f);
  x.push_back(-0.0f);
  x.push_back(0);
  std::vector<float> y(x.size());
  attention::fast::exp2_negative_short(x.data(), y.data(), std::int64_t(x.size()));
  double worst = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double exact = std::exp2(double(x[i]));
    worst = std::max(worst, std::fabs(y[i] - exact) / exact);
  }
  EXPECT_LT(worst, 6e-7) << "relative";
  EXPECT_EQ(y.back(), 1.0f);
  EXPECT_EQ(y[y.size() - 2], 1.0f);
  const float below[] = {-std::numeric_limits<float>::infinity(), -1e30f, -200, -127, -126.6f};
  float out[5];
  attention::fast::exp2_negative_short(below, out, 5);
  for (float e : out) EXPECT_EQ(e, 0.0f);
}

// ---- against the references ----

TEST(Fast, TheErrorMeasureSeesANaN) {
  const std::vector<float> nan{1, std::numeric_limits<float>::quiet_NaN()}, fine{1, 2};
  EXPECT_EQ(relative_error(nan, fine, 1), HUGE_VAL);
  EXPECT_EQ(relative_error(fine, nan, 1), HUGE_VAL);
  EXPECT_EQ(relative_error(fine, fine, 1), 0);
}

TEST(Fast, MatchesBothReferencesOnRandomRaggedShapes) {
  std::mt19937 gen(11);
  const std::int64_t sizes[] = {1, 2, 3, 4, 5, 7, 8, 9, 31, 33, 63, 64, 65, 100, 129};
  const std::int64_t dims[] = {1, 2, 3, 5, 8, 64, 128};
  const float spreads[] = {0.5f, 2, 6};
  const auto pick = [&gen](const auto& from) {
    return from[std::uniform_int_distribution<std::size_t>(0, std::size(from) - 1)(gen)];
  };
  for (int trial = 0; trial < 300; ++trial) {
    const BatchShape s{1 + trial % 2, 1 + trial % 3, pick(sizes),
                       pick(sizes),   pick(dims),    pick(dims)};
    const bool causal = trial % 4 >= 2, weights = trial % 2 == 0;
    const Inputs in = random_inputs(gen, s, pick(spreads));
    Options options;
    if (causal) options.mask_kind = MaskKind::kCausal;
    const auto fast = run(in, s, options, {weights, false});
    const auto eigen = run(in, s, options, {weights, true});
    const Reference exact = reference64(in, s, causal);
    const std::int64_t heads = s.batch * s.heads;
    SCOPED_TRACE(testing::Message()
                 << "trial " << trial << ": " << s.batch << "×" << s.heads << " n_q " << s.n_q
                 << " n_k " << s.n_k << " d " << s.d_k << " d_v " << s.d_v
                 << (causal ? " causal" : "") << (weights ? " weights" : ""));
    EXPECT_LE(relative_error(fast.output, exact.output, heads), 1e-5);
    // Each float32 path is within 1e-5 of the truth, so within 2e-5 of the other.
    EXPECT_LE(relative_error(fast.output, eigen.output, heads), 2e-5);
    if (weights) {
      EXPECT_LE(relative_error(fast.weights, exact.weights, heads), 1e-5);
      EXPECT_LE(relative_error(fast.weights, eigen.weights, heads), 2e-5);
    } else {
      EXPECT_TRUE(fast.weights.empty());
    }
  }
}

TEST(Fast, LongRowsAcrossManyTilesWithAndWithoutTheWeights) {
  std::mt19937 gen(12);
  // n not a multiple of any tile; more queries than keys and the other way round
  for (const BatchShape& s : {BatchShape{1, 2, 300, 300, 64, 64}, BatchShape{1, 1, 7, 1000, 16, 24},
                              BatchShape{1, 1, 1000, 5, 8, 3}, BatchShape{2, 1, 130, 257, 5, 9}}) {
    const Inputs in = random_inputs(gen, s, 2);
    for (bool causal : {false, true}) {
      Options options;
      if (causal) options.mask_kind = MaskKind::kCausal;
      const Reference exact = reference64(in, s, causal);
      const std::int64_t heads = s.batch * s.heads;
      const auto with = run(in, s, options, {true, false});
      const auto without = run(in, s, options, {false, false});
      SCOPED_TRACE(testing::Message()
                   << "n_q " << s.n_q << " n_k " << s.n_k << " causal " << causal);
      EXPECT_LE(relative_error(with.output, exact.output, heads), 1e-5);
      EXPECT_LE(relative_error(with.weights, exact.weights, heads), 1e-5);
      EXPECT_LE(relative_error(without.output, exact.output, heads), 1e-5);
    }
  }
}

TEST(Fast, WeightRowsSumTo1AndTheCausalTriangleIs0) {
  std::mt19937 gen(13);
  const BatchShape s{1, 2, 70, 90, 8, 4};
  const Inputs in = random_inputs(gen, s, 1);
  Options options;
  options.mask_kind = MaskKind::kCausal;
  const auto out = run(in, s, options);
  for (std::int64_t h = 0; h < 2; ++h) {
    for (std::int64_t i = 0; i < s.n_q; ++i) {
      const float* row = out.weights.data() + (h * s.n_q + i) * s.n_k;
      double sum = 0;
      for (std::int64_t j = 0; j < s.n_k; ++j) {
        sum += row[j];
        if (j > i) EXPECT_EQ(row[j], 0.0f) << "head " << h << " [" << i << "][" << j << "]";
        if (j <= i) EXPECT_GT(row[j], 0.0f) << "head " << h << " [" << i << "][" << j << "]";
      }
      EXPECT_NEAR(sum, 1.0, 1e-5);
    }
  }
}

// The fused kernel takes a row's max from the scores' registers (scores_tile): only keys the
// row sees may count. Here a key it may not see would raise the max by far more than float's
// range, and the row's weights would all be 0 (output NaN): the causal mask's later keys, and
// the zero keys that pad a tile to a multiple of 8, whose score 0 is far above the real ones.
TEST(Fast, TheRowMaxComesOnlyFromKeysTheRowSees) {
  const auto line = [](std::int64_t n, float step) {
    std::vector<float> x(n);
    for (std::int64_t j = 0; j < n; ++j) x[j] = step * float(j);
    return x;
  };
  // causal: score(i, j) = 30·j, so row i's weight is on key i, and key i + 7 scores 210 more
  const BatchShape later{1, 1, 40, 40, 1, 1};
  const Inputs rising{std::vector<float>(40, 1.0f), line(40, 30), line(40, 1)};
  // 13 keys, every score −100: the weights are 1/13 each
  const BatchShape padded{1, 1, 5, 13, 1, 1};
  const Inputs low{std::vector<float>(5, 1.0f), std::vector<float>(13, -100.0f), line(13, 1)};
  Options causal;
  causal.mask_kind = MaskKind::kCausal;
  // cell by cell, as relative_error would pass over a NaN
  const auto expect_near = [](const std::vector<float>& a, const std::vector<double>& b) {
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], 1e-5 * 40) << "row " << i;
  };
  for (bool weights : {false, true}) {
    SCOPED_TRACE(testing::Message() << "weights " << weights);
    expect_near(run(rising, later, causal, {weights, false}).output,
                reference64(rising, later, true).output);
    expect_near(run(low, padded, {}, {weights, false}).output,
                reference64(low, padded, false).output);
  }
}

TEST(Fast, HugeScoresGiveOneHotWeights) {
  const BatchShape s{1, 1, 1, 3, 1, 1};
  const Inputs in{{1000}, {1, 2, 3}, {10, 20, 30}};
  for (bool weights : {false, true}) {
    const auto out = run(in, s, {}, {weights, false});
    EXPECT_EQ(out.output[0], 30.0f);
    if (weights) EXPECT_EQ(out.weights, (std::vector<float>{0, 0, 1}));
  }
}

TEST(Fast, AScaleBeyondFloatsRangeIsAnErrorOnBothPaths) {
  // 0 × −1e308 in float32 was NaN on the fast path (found by the fuzzer); the reference gave 0
  const BatchShape s{1, 1, 1, 1, 1, 1};
  const Inputs in{{0}, {0}, {5}};
  Options o;
  // the fast kernel scales by scale·log2 e: float's largest ÷ log2 e = 2.36e38 at most
  for (const double scale : {-1e308, 3.5e38, 2.4e38}) {
    o.scale = scale;
    for (bool reference : {false, true}) {
      const auto r = attention::attend_batched(in.q, in.k, in.v, s, o, {false, reference});
      EXPECT_NE(r.error.find("computes in float32 (|scale| at most 2.3e38)"), std::string::npos)
          << r.error;
    }
  }
  o.scale = -2.3e38;  // within it: 0 × the scale = 0, one key, its value
  EXPECT_EQ(run(in, s, o, {false, false}).output[0], 5.0f);
}

TEST(Fast, ExplicitMasksAndDropoutRunOnTheReference) {
  std::mt19937 gen(14);
  const BatchShape s{1, 2, 6, 9, 4, 3};
  const Inputs in = random_inputs(gen, s, 2);
  Options mask;
  mask.mask_kind = MaskKind::kExplicit;
  mask.mask = attention::Mask::Constant(6, 9, true);
  mask.mask(2, 4) = false;
  Options dropout;
  dropout.dropout_p = 0.3;
  dropout.seed = 5;
  for (const Options& options : {mask, dropout}) {
    for (bool weights : {false, true}) {
      const auto planned =
          attention::plan_batched(s, std::int64_t(in.q.size()), std::int64_t(in.k.size()),
                                  std::int64_t(in.v.size()), options, {weights});
      ASSERT_TRUE(planned.ok()) << planned.error;
      EXPECT_FALSE(planned.value.fast);
      const auto fast = run(in, s, options, {weights, false});
      const auto eigen = run(in, s, options, {weights, true});
      EXPECT_EQ(fast.output, eigen.output);
      EXPECT_EQ(fast.weights, eigen.weights);
    }
  }
}

// ---- limits: bytes, checked before anything is allocated ----

attention::Result<attention::BatchPlan> plan(const BatchShape& s, bool weights,
                                             bool reference = false) {
  const std::int64_t heads = s.batch * s.heads;
  return attention::plan_batched(s, heads * s.n_q * s.d_k, heads * s.n_k * s.d_k,
                                 heads * s.n_k * s.d_v, {}, {weights, reference});
}

TEST(Fast, WithoutTheWeightsTheWorkspaceIsAFixedTileBudgetAndTwoNumbersPerRow) {
  const auto small = plan({1, 1, 1024, 1024, 64, 64}, false);
  const auto large = plan({1, 1, 8192, 8192, 64, 64}, false);
  ASSERT_TRUE(small.ok() && large.ok());
  EXPECT_EQ(large.value.workspace - small.value.workspace, 2 * (8192 - 1024));
  EXPECT_LT(small.value.workspace * 4, 256 * 1024);
  EXPECT_EQ(large.value.weights, 0);
  EXPECT_TRUE(plan({1, 8, 1024, 1024, 64, 64}, true).ok());
  EXPECT_TRUE(plan({1, 1, 8192, 8192, 64, 64}, true).ok());
}

TEST(Fast, CallsTooLargeForMemoryNameTheBufferAndTheBytes) {
  EXPECT_EQ(plan({1, 5, 8192, 8192, 64, 64}, true).error,
            "the weights would take 1342177280 bytes (batch×heads×nQ×nK×4), over the limit of "
            "1073741824 bytes (1 GiB of WASM memory)");
  EXPECT_TRUE(plan({1, 5, 8192, 8192, 64, 64}, false).ok());
  EXPECT_EQ(plan({1, 4, 8192, 8192, 64, 64}, true).error,
            "Q, K, V, the output, the weights and the kernel's tiles would take 1111506944 bytes "
            "together, over the limit of 1073741824 bytes (1 GiB of WASM memory); the weights "
            "alone would take 1073741824 bytes");
  EXPECT_EQ(plan({1, 1, 8192, 8192, 64, 64}, false, true).error,
            "Q, K, V, the output and the reference's trace of one head would take 3789815808 bytes "
            "together, over the limit of 1073741824 bytes (1 GiB of WASM memory); the reference's "
            "trace of one head alone would take 3781427200 bytes");
}

// ---- overflow: finite input, infinite arithmetic ----

constexpr const char* kTooLarge =
    "; the inputs are finite but too large for float32 (at most 3.4e38)";

TEST(Fast, ScaledScoresThatOverflowNameTheHeadAndTheCell) {
  const BatchShape s{1, 2, 2, 3, 1, 1};
  Inputs in{{1, 1, 1, 1e10f}, {1, 1, 1, 1, -1e10f, 1}, std::vector<float>(6, 1)};
  Options options;
  options.scale = 1e25;
  for (bool weights : {false, true}) {
    EXPECT_EQ(error_of(in, s, options, {weights}),
              std::string("batch 1, head 2: scaled[2][2] = scores[2][2] × scale overflows to "
                          "-Infinity") +
                  kTooLarge);
    EXPECT_EQ(error_of(in, s, options, {weights}), error_of(in, s, options, {weights, true}));
  }
}

TEST(Fast, HugeInputsThatDoNotOverflowAreComputedExactly) {
  // Orthogonal rows of norm 1e20: their bound (1e40) fails, but every score is 0 or 1.
  const BatchShape s{1, 1, 2, 2, 2, 2};
  const Inputs orthogonal{{1e20f, 0, 0, 1}, {0, 1e20f, 0, 1}, {1, 2, 3, 4}};
  // Values so large that Σ|V| passes FLT_MAX: the output is still their average.
  const Inputs large_values{{0, 0, 0, 0}, {0, 0, 0, 0}, {3e38f, 3e38f, 3e38f, -3e38f}};
  for (const Inputs& in : {orthogonal, large_values}) {
    for (bool weights : {false, true}) {
      const auto fast = run(in, s, {}, {weights, false});
      const auto eigen = run(in, s, {}, {weights, true});
      EXPECT_LE(relative_error(fast.output, eigen.output, 1), 1e-6);
      EXPECT_LE(relative_error(fast.weights, eigen.weights, 1), 1e-6);
    }
  }
}

TEST(Fast, ANonFiniteInputComesBeforeAnOverflowInAnEarlierHead) {
  const BatchShape s{1, 2, 1, 1, 1, 1};
  Inputs in{{1e20f, 1}, {1e20f, 1}, {1, std::nanf("")}};
  EXPECT_EQ(error_of(in, s), "batch 1, head 2: V[1][1] is NaN; every input must be finite");
  EXPECT_EQ(error_of(in, s), error_of(in, s, {}, {true, true}));
  in.v[1] = 1;
  EXPECT_EQ(
      error_of(in, s, {}, {false}),
      std::string("batch 1, head 1: scores[1][1] = Q[1]·K[1] overflows to Infinity") + kTooLarge);
}

}  // namespace
