// gpt_kernel_test.cpp: the model's SIMD kernels (gpt_kernel.cpp, built here on the vector
// extensions of simd.hpp) against float64 written here: the product on ragged shapes around its
// 4×8 tiles and its blocks of 256 terms and 64 rows, transposed and strided views, c = a·b and
// c += a·b; e^(x − top) and tanh over their ranges.
#include "gpt_kernel.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

namespace {

using attention::fast::adamw;
using attention::fast::AdamWStep;
using attention::fast::add_scaled_finite;
using attention::fast::all_finite;
using attention::fast::causal_softmax;
using attention::fast::causal_softmax_backward;
using attention::fast::divide;
using attention::fast::exp_shifted;
using attention::fast::gelu_backward;
using attention::fast::gelu_forward;
using attention::fast::gemm;
using attention::fast::layernorm_backward;
using attention::fast::layernorm_forward;
using attention::fast::max_of;
using attention::fast::softmax_cross_entropy;
using attention::fast::tanh_all;
using attention::fast::View;
using attention::fast::Zeros;

// A (rows, cols) block of a bigger buffer, read row-major or, when `transposed`, column-major.
struct Stored {
  std::vector<float> data;
  std::ptrdiff_t rows, cols;
  bool transposed;
  View view() const {
    const std::ptrdiff_t ld = (transposed ? rows : cols) + 3;  // 3 floats of padding per line
    return transposed ? View{data.data(), rows, cols, 1, ld} : View{data.data(), rows, cols, ld, 1};
  }
  double at(std::ptrdiff_t i, std::ptrdiff_t j) const {
    const View v = view();
    return v.data[i * v.row_stride + j * v.col_stride];
  }
};

Stored random_matrix(std::mt19937& gen, std::ptrdiff_t rows, std::ptrdiff_t cols, bool t) {
  std::uniform_real_distribution<float> dist(-1, 1);
  Stored s{std::vector<float>(size_t(((t ? rows : cols) + 3) * (t ? cols : rows))), rows, cols, t};
  for (float& x : s.data) x = dist(gen);
  return s;
}

TEST(Gemm, EqualsAFloat64ProductOnRaggedTransposedAndStridedShapes) {
  std::mt19937 gen(7);
  const std::ptrdiff_t sizes[] = {1, 3, 4, 5, 8, 9, 63, 64, 65, 130};
  const std::ptrdiff_t depths[] = {1, 2, 7, 64, 255, 256, 257, 600};
  int checked = 0;
  for (const std::ptrdiff_t m : sizes)
    for (const std::ptrdiff_t n : sizes)
      for (const std::ptrdiff_t k : depths) {
        if ((m * n * k) % 5 != 0 && m > 9 && n > 9) continue;  // a sample of the large ones
        const bool ta = (m + k) % 2 == 0, tb = (n + k) % 3 == 0, accumulate = (m + n) % 2 == 1;
        const Stored a = random_matrix(gen, m, k, ta), b = random_matrix(gen, k, n, tb);
        const std::ptrdiff_t ldc = n + 2;
        std::vector<float> c(size_t(m * ldc));
        std::uniform_real_distribution<float> dist(-1, 1);
        for (float& x : c) x = dist(gen);
        const std::vector<float> before = c;
        gemm(a.view(), b.view(), c.data(), ldc, accumulate);
        for (std::ptrdiff_t i = 0; i < m; ++i) {
          for (std::ptrdiff_t j = 0; j < n; ++j) {
            double want = accumulate ? before[size_t(i * ldc + j)] : 0.0, size = 0;
            for (std::ptrdiff_t t = 0; t < k; ++t) {
              want += a.at(i, t) * b.at(t, j);
              size += std::abs(a.at(i, t) * b.at(t, j));
            }
            // float32 sums of k terms: within k·2⁻²⁴ of the sum of magnitudes, and a little
            ASSERT_NEAR(c[size_t(i * ldc + j)], want, (double(k) + 2) * 6e-8 * (size + 1))
                << m << "×" << k << "·" << k << "×" << n << " at (" << i << ", " << j << ")";
          }
          // the two padding floats of each row of c are left alone
          for (std::ptrdiff_t j = n; j < ldc; ++j)
            ASSERT_EQ(c[size_t(i * ldc + j)], before[size_t(i * ldc + j)]);
        }
        ++checked;
      }
  EXPECT_GT(checked, 300);
}

// A triangle of a's zeros skipped (a causal head's weights, their transpose): the full
// product's bits, the zeros ±0 at random, a stored either way, one block of terms or two.
TEST(Gemm, SkippingATriangleOfZerosGivesTheFullProductsBits) {
  std::mt19937 gen(23);
  int checked = 0;
  for (const std::ptrdiff_t m : {1, 3, 4, 5, 9, 63, 64, 65, 300})
    for (const std::ptrdiff_t n : {1, 5, 8, 16, 17})
      for (const Zeros zeros : {Zeros::kAbove, Zeros::kBelow})
        for (const bool transposed : {false, true}) {
          Stored a = random_matrix(gen, m, m, transposed);
          const View av = a.view();
          for (std::ptrdiff_t i = 0; i < m; ++i)
            for (std::ptrdiff_t k = 0; k < m; ++k)
              if (zeros == Zeros::kAbove ? k > i : k < i)
                a.data[size_t(i * av.row_stride + k * av.col_stride)] = gen() % 2 ? 0.0f : -0.0f;
          const Stored b = random_matrix(gen, m, n, (m + n) % 2 == 0);
          const bool accumulate = (m + n) % 3 == 0;
          std::vector<float> c0(size_t(m * n));
          for (float& x : c0) x = float(int(gen() % 7) - 3);
          std::vector<float> want = c0, got = c0;
          gemm(av, b.view(), want.data(), n, accumulate);
          gemm(av, b.view(), got.data(), n, accumulate, zeros);
          for (size_t e = 0; e < want.size(); ++e) {
            std::uint32_t w, g;
            std::memcpy(&w, &want[e], 4);
            std::memcpy(&g, &got[e], 4);
            ASSERT_EQ(g, w) << m << "×" << n << " " << int(zeros) << " element " << e;
          }
          ++checked;
        }
  EXPECT_EQ(checked, 9 * 5 * 2 * 2);
}

TEST(Gemm, NoTermsGivesZerosOrLeavesC) {
  std::vector<float> c = {1, 2, 3, 4};
  const float none = 0;
  gemm({&none, 2, 0, 0, 1}, {&none, 0, 2, 2, 1}, c.data(), 2, true);
  EXPECT_EQ(c, (std::vector<float>{1, 2, 3, 4}));
  gemm({&none, 2, 0, 0, 1}, {&none, 0, 2, 2, 1}, c.data(), 2, false);
  EXPECT_EQ(c, (std::vector<float>{0, 0, 0, 0}));
}

TEST(GptKernel, ExpShiftedIsWithinAFewUlpAndZeroFarBelowTheTop) {
  std::vector<float> x;
  for (float v = -100; v <= 3; v += 0.0137f) x.push_back(v);
  x.push_back(3);  // the top itself: exactly 1
  const float top = 3;
  std::vector<float> out(x.size());
  exp_shifted(x.data(), top, out.data(), std::ptrdiff_t(x.size()));
  for (size_t j = 0; j < x.size(); ++j) {
    const double want = std::exp(double(x[j]) - top);
    if (x[j] - top < -87.7f) {
      ASSERT_EQ(out[j], 0.0f) << x[j];
      continue;
    }
    if (want < 1e-37) {  // near float's smallest normal: absolutely close
      ASSERT_NEAR(out[j], want, 1.2e-38) << x[j];
      continue;
    }
    // 2⁻²⁴ relative from (x − top)·log2 e's rounding per unit of |x − top|, and a few ulp
    ASSERT_NEAR(out[j], want, want * (4e-7 + 1.2e-7 * (top - x[j]))) << x[j];
  }
  EXPECT_EQ(out.back(), 1.0f);
}

TEST(GptKernel, TanhIsWithinAbout1e7AndOdd) {
  std::vector<float> x;
  for (float v = -12; v <= 12; v += 0.00731f) x.push_back(v);
  x.push_back(0);
  x.push_back(1e-6f);
  x.push_back(-1e-30f);
  const std::vector<float> in = x;
  tanh_all(x.data(), std::ptrdiff_t(x.size()));
  for (size_t j = 0; j < x.size(); ++j) {
    ASSERT_NEAR(x[j], std::tanh(double(in[j])), 1.5e-7) << in[j];
    ASSERT_EQ(std::signbit(x[j]), std::signbit(in[j])) << in[j];
  }
}

// Lengths around the four lanes: the SIMD body and the scalar rest.
const std::ptrdiff_t kLengths[] = {1, 2, 3, 4, 5, 7, 8, 9, 63, 64, 65, 1497};

std::vector<float> uniform(std::mt19937& gen, std::ptrdiff_t n, float low, float high) {
  std::uniform_real_distribution<float> dist(low, high);
  std::vector<float> x(static_cast<size_t>(n));
  for (float& v : x) v = dist(gen);
  return x;
}

TEST(GptKernel, MaxFiniteAndDivideAreExact) {
  std::mt19937 gen(3);
  for (const std::ptrdiff_t n : kLengths) {
    std::vector<float> x = uniform(gen, n, -50, 50);
    x[size_t(gen() % size_t(n))] = 60;  // the largest, anywhere
    EXPECT_EQ(max_of(x.data(), n), 60.0f) << n;
    EXPECT_TRUE(all_finite(x.data(), n)) << n;
    for (const float bad : {INFINITY, -INFINITY, NAN}) {
      std::vector<float> y = x;
      y[size_t(n - 1)] = bad;
      EXPECT_FALSE(all_finite(y.data(), n)) << n << " " << bad;
      y = x;
      y[0] = bad;
      EXPECT_FALSE(all_finite(y.data(), n)) << n << " " << bad;
    }
    std::vector<float> q = x;
    divide(q.data(), n, 7.3f);
    for (std::ptrdiff_t j = 0; j < n; ++j) ASSERT_EQ(q[size_t(j)], x[size_t(j)] / 7.3f) << n;
  }
}

TEST(GptKernel, AddScaledFiniteIsYPlusAXAndStopsAtANumberNotFinite) {
  std::mt19937 gen(13);
  for (const std::ptrdiff_t n : kLengths) {
    const std::vector<float> x = uniform(gen, n, -5, 5), y = uniform(gen, n, -5, 5);
    std::vector<float> got = y;
    EXPECT_TRUE(add_scaled_finite(got.data(), 0.3f, x.data(), n)) << n;
    for (std::ptrdiff_t j = 0; j < n; ++j)
      ASSERT_EQ(got[size_t(j)], y[size_t(j)] + 0.3f * x[size_t(j)]) << n << " " << j;
    for (const float bad : {INFINITY, -INFINITY, NAN})
      for (const std::ptrdiff_t at : {std::ptrdiff_t(0), n - 1}) {
        std::vector<float> z = x;
        z[size_t(at)] = bad;
        got = y;
        EXPECT_FALSE(add_scaled_finite(got.data(), 0.3f, z.data(), n)) << n << " " << at;
      }
  }
}

// A causal head's softmax and its backward: gpt.cpp's float steps written out (the whole row's
// products and sum, as Eigen takes them; a zero's sign aside, == here), and float64 nearby.
TEST(GptKernel, CausalSoftmaxIsGpt_cppsStepsAndNearFloat64) {
  std::mt19937 gen(29);
  for (const std::ptrdiff_t t : {1, 2, 3, 4, 5, 8, 9, 63, 64, 65}) {
    const float scale = 1 / std::sqrt(12.0f);  // not a power of 2: the order shows
    const std::vector<float> raw = uniform(gen, t * t, -12, 12), d = uniform(gen, t * t, -1, 1);
    std::vector<float> s = raw, p(raw.size()), dp = d;
    causal_softmax(s.data(), p.data(), t, scale);
    causal_softmax_backward(p.data(), dp.data(), t, scale);
    for (std::ptrdiff_t i = 0; i < t; ++i) {
      std::vector<float> row(static_cast<size_t>(t)), w(static_cast<size_t>(t));
      for (std::ptrdiff_t j = 0; j < t; ++j) row[size_t(j)] = raw[size_t(i * t + j)] * scale;
      float top = row[0];
      for (std::ptrdiff_t j = 1; j <= i; ++j) top = top < row[size_t(j)] ? row[size_t(j)] : top;
      float sum = 0;
      for (std::ptrdiff_t j = 0; j < t; ++j) {
        w[size_t(j)] = j <= i ? std::exp(row[size_t(j)] - top) : 0.0f;
        sum += w[size_t(j)];
      }
      double sum64 = 0;
      for (std::ptrdiff_t j = 0; j <= i; ++j) sum64 += std::exp(double(row[size_t(j)]) - top);
      float dot = d[size_t(i * t)] * (w[0] / sum);
      for (std::ptrdiff_t j = 1; j < t; ++j) dot += d[size_t(i * t + j)] * (w[size_t(j)] / sum);
      double dot64 = 0;
      for (std::ptrdiff_t j = 0; j <= i; ++j)
        dot64 += d[size_t(i * t + j)] * std::exp(double(row[size_t(j)]) - top) / sum64;
      for (std::ptrdiff_t j = 0; j < t; ++j) {
        const size_t e = size_t(i * t + j);
        ASSERT_EQ(s[e], row[size_t(j)]) << t << " " << i << " " << j;
        const float want = w[size_t(j)] / sum;
        ASSERT_EQ(p[e], want) << t << " " << i << " " << j;
        ASSERT_EQ(dp[e], want * (d[e] - dot) * scale) << t << " " << i << " " << j;
        if (j > i) continue;
        const double p64 = std::exp(double(row[size_t(j)]) - top) / sum64;
        ASSERT_NEAR(p[e], p64, 1e-6) << t << " " << i << " " << j;
        ASSERT_NEAR(dp[e], p64 * (d[e] - dot64) * scale, 1e-6) << t << " " << i << " " << j;
      }
    }
  }
}

// LayerNorm, forward and backward: gpt.cpp's float steps written out row by row (each sum term
// by term from its first), to the bit, and float64's LayerNorm and gradient nearby.
TEST(GptKernel, LayerNormIsGpt_cppsStepsAndNearFloat64) {
  std::mt19937 gen(19);
  const float eps = float(1e-5);
  int checked = 0;
  for (const std::ptrdiff_t rows : {1, 3, 4, 5, 9})
    for (const std::ptrdiff_t c : {1, 2, 3, 4, 5, 7, 8, 9, 63, 64, 65}) {
      const std::vector<float> x = uniform(gen, rows * c, -3, 3), g = uniform(gen, c, 0.5f, 1.5f),
                               b = uniform(gen, c, -1, 1), dh = uniform(gen, rows * c, -1, 1),
                               dx0 = uniform(gen, rows * c, -1, 1), dg0 = uniform(gen, c, -1, 1),
                               db0 = uniform(gen, c, -1, 1);
      std::vector<float> h(x.size()), mean(static_cast<size_t>(rows)),
          rstd(static_cast<size_t>(rows));
      layernorm_forward(x.data(), rows, c, g.data(), b.data(), h.data(), mean.data(), rstd.data());
      std::vector<float> dx = dx0, dg = dg0, db = db0;
      layernorm_backward(x.data(), mean.data(), rstd.data(), g.data(), dh.data(), rows, c,
                         dx.data(), dg.data(), db.data());
      std::vector<float> want_dg = dg0, want_db = db0;
      for (std::ptrdiff_t i = 0; i < rows; ++i) {
        const auto at = [&](const std::vector<float>& v, std::ptrdiff_t j) {
          return v[size_t(i * c + j)];
        };
        float sum = at(x, 0);
        for (std::ptrdiff_t j = 1; j < c; ++j) sum += at(x, j);
        const float m = sum / float(c);
        float sq = (at(x, 0) - m) * (at(x, 0) - m);
        for (std::ptrdiff_t j = 1; j < c; ++j) sq += (at(x, j) - m) * (at(x, j) - m);
        const float r = 1.0f / std::sqrt(sq / float(c) + eps);
        ASSERT_EQ(mean[size_t(i)], m) << rows << "×" << c << " row " << i;
        ASSERT_EQ(rstd[size_t(i)], r) << rows << "×" << c << " row " << i;
        double m64 = 0, var64 = 0;
        for (std::ptrdiff_t j = 0; j < c; ++j) m64 += at(x, j) / double(c);
        for (std::ptrdiff_t j = 0; j < c; ++j) var64 += std::pow(at(x, j) - m64, 2) / double(c);
        const double r64 = 1 / std::sqrt(var64 + 1e-5);
        std::vector<float> xhat(static_cast<size_t>(c)), dxhat(static_cast<size_t>(c));
        double mean_d64 = 0, mean_dx64 = 0;
        for (std::ptrdiff_t j = 0; j < c; ++j) {
          const size_t k = size_t(j);
          ASSERT_EQ(at(h, j), (at(x, j) - m) * r * g[k] + b[k]) << c << " " << i << " " << j;
          const double xhat64 = (at(x, j) - m64) * r64;
          ASSERT_NEAR(at(h, j), xhat64 * g[k] + b[k], 1e-5) << c << " " << i << " " << j;
          xhat[k] = (at(x, j) - m) * r;
          dxhat[k] = at(dh, j) * g[k];
          want_dg[k] += at(dh, j) * xhat[k];
          want_db[k] += at(dh, j);
          mean_d64 += double(at(dh, j)) * g[k] / double(c);
          mean_dx64 += double(at(dh, j)) * g[k] * xhat64 / double(c);
        }
        float sd = dxhat[0], sdx = dxhat[0] * xhat[0];
        for (std::ptrdiff_t j = 1; j < c; ++j) {
          sd += dxhat[size_t(j)];
          sdx += dxhat[size_t(j)] * xhat[size_t(j)];
        }
        const float mean_d = sd / float(c), mean_dx = sdx / float(c);
        for (std::ptrdiff_t j = 0; j < c; ++j) {
          const size_t k = size_t(j);
          ASSERT_EQ(at(dx, j), at(dx0, j) + r * ((dxhat[k] - mean_d) - xhat[k] * mean_dx))
              << c << " " << i << " " << j;
          const double xhat64 = (at(x, j) - m64) * r64;
          const double want64 =
              at(dx0, j) + r64 * (double(at(dh, j)) * g[k] - mean_d64 - xhat64 * mean_dx64);
          ASSERT_NEAR(at(dx, j), want64, 2e-5 * (1 + r64)) << c << " " << i << " " << j;
        }
      }
      ASSERT_EQ(dg, want_dg) << rows << "×" << c;
      ASSERT_EQ(db, want_db) << rows << "×" << c;
      ++checked;
    }
  EXPECT_EQ(checked, 5 * 11);
}

// AdamW two parameters at a time in double: gpt.cpp's adamw_step, written out here per
// parameter, to the bit.
TEST(GptKernel, AdamWIsGpt_cppsStepInDouble) {
  std::mt19937 gen(17);
  const AdamWStep s{0.9, 0.95, 1 - std::pow(0.9, 3), 1 - std::pow(0.95, 3), 3e-3, 1e-8, 0.1};
  for (const std::ptrdiff_t n : kLengths) {
    const std::vector<float> g = uniform(gen, n, -2, 2), m0 = uniform(gen, n, -0.1f, 0.1f),
                             p0 = uniform(gen, n, -1, 1);
    const std::vector<float> v0 = uniform(gen, n, 0, 0.01f);
    std::vector<float> p = p0, m = m0, v = v0;
    adamw(p.data(), g.data(), m.data(), v.data(), n, s);
    for (std::ptrdiff_t j = 0; j < n; ++j) {
      const size_t i = size_t(j);
      const double gj = g[i], mj = s.beta1 * double(m0[i]) + (1 - s.beta1) * gj;
      const double vj = s.beta2 * double(v0[i]) + (1 - s.beta2) * gj * gj;
      const double pj = p0[i];
      ASSERT_EQ(m[i], float(mj)) << n << " " << j;
      ASSERT_EQ(v[i], float(vj)) << n << " " << j;
      ASSERT_EQ(p[i],
                float(pj - s.lr * ((mj / s.c1) / (std::sqrt(vj / s.c2) + s.eps) + s.decay * pj)))
          << n << " " << j;
    }
  }
}

TEST(GptKernel, GeluForwardAndBackwardAreGpt_cppsFloatExpressionsAndNearFloat64) {
  std::mt19937 gen(5);
  const float s = float(0.7978845608028654), c = float(0.044715), c3 = float(3 * 0.044715);
  for (const std::ptrdiff_t n : kLengths) {
    const std::vector<float> x = uniform(gen, n, -6, 6), d = uniform(gen, n, -1, 1);
    std::vector<float> t(static_cast<size_t>(n)), g(static_cast<size_t>(n)), dd = d;
    gelu_forward(x.data(), t.data(), g.data(), n);
    gelu_backward(x.data(), t.data(), dd.data(), n);
    for (std::ptrdiff_t j = 0; j < n; ++j) {
      const float v = x[size_t(j)];
      // gpt.cpp's expressions, evaluated in float as written, through the same tanh
      float u = s * (v + c * v * v * v);
      tanh_all(&u, 1);
      ASSERT_EQ(t[size_t(j)], u) << v;
      ASSERT_EQ(g[size_t(j)], 0.5f * v * (1.0f + u)) << v;
      const float slope = 0.5f * (1.0f + u) + 0.5f * v * (1.0f - u * u) * s * (1.0f + c3 * v * v);
      ASSERT_EQ(dd[size_t(j)], d[size_t(j)] * slope) << v;
      // and GELU in float64
      const double xv = double(v),
                   tv = std::tanh(0.7978845608028654 * (xv + 0.044715 * xv * xv * xv));
      ASSERT_NEAR(g[size_t(j)], 0.5 * xv * (1 + tv), 1e-6 * (1 + std::abs(xv))) << v;
      const double want = 0.5 * (1 + tv) + 0.5 * xv * (1 - tv * tv) * 0.7978845608028654 *
                                               (1 + 3 * 0.044715 * xv * xv);
      ASSERT_NEAR(dd[size_t(j)], double(d[size_t(j)]) * want, 2e-6) << v;
    }
  }
}

// The logits' softmax and cross-entropy: the bits of gpt.cpp's float steps, written out here
// one row at a time (max, e^x through exp_shifted, the sum term by term, the division, the
// target's −1, the division by the rows counted), and float64's softmax and loss nearby.
TEST(GptKernel, SoftmaxCrossEntropyIsGpt_cppsStepsAndNearFloat64) {
  std::mt19937 gen(11);
  int checked = 0;
  for (const std::ptrdiff_t rows : {1, 3, 4, 5, 9})
    for (const std::ptrdiff_t n : kLengths)
      for (const bool gradient : {false, true})
        for (const float counted : {1.0f, 7.0f, 64.0f}) {
          const std::vector<float> x = uniform(gen, rows * n, -20, 20);
          std::vector<std::int32_t> targets(static_cast<size_t>(rows));
          for (std::int32_t& t : targets) t = std::int32_t(gen() % size_t(n + 1)) - 1;  // −1: none
          std::vector<float> out(x.size()), top(static_cast<size_t>(rows)),
              s(static_cast<size_t>(rows));
          double loss = 0;
          ASSERT_TRUE(softmax_cross_entropy(x.data(), rows, n, targets.data(), counted, gradient,
                                            out.data(), top.data(), s.data(), loss));
          double want_loss = 0;
          for (std::ptrdiff_t i = 0; i < rows; ++i) {
            const float* xi = x.data() + i * n;
            float m = xi[0];
            for (std::ptrdiff_t j = 1; j < n; ++j) m = m < xi[j] ? xi[j] : m;
            std::vector<float> e(static_cast<size_t>(n));
            exp_shifted(xi, m, e.data(), n);
            float sum = e[0];
            for (std::ptrdiff_t j = 1; j < n; ++j) sum += e[size_t(j)];
            ASSERT_EQ(top[size_t(i)], m);
            ASSERT_EQ(s[size_t(i)], sum);
            const std::int32_t t = targets[size_t(i)];
            double top64 = xi[0], sum64 = 0;
            for (std::ptrdiff_t j = 0; j < n; ++j) top64 = std::max(top64, double(xi[j]));
            for (std::ptrdiff_t j = 0; j < n; ++j) sum64 += std::exp(double(xi[j]) - top64);
            for (std::ptrdiff_t j = 0; j < n; ++j) {
              float want = e[size_t(j)] / sum;
              const double p64 = std::exp(double(xi[j]) - top64) / sum64;
              // e^x's error grows with its distance from the top (ExpShifted… above), the
              // float sum's with its terms
              ASSERT_NEAR(want, p64,
                          p64 * (1e-6 + 2e-7 * (top64 - double(xi[j])) + 6e-8 * double(n)))
                  << rows << " " << n << " " << j;
              if (gradient) want = t < 0 ? 0.0f : (want - (j == t ? 1.0f : 0.0f)) / counted;
              ASSERT_EQ(out[size_t(i * n + j)], want)
                  << rows << "×" << n << " row " << i << " column " << j << " target " << t;
            }
            if (t >= 0) {
              want_loss -= std::log(double(e[size_t(t)] / sum));
              ASSERT_NEAR(-std::log(double(e[size_t(t)] / sum)),
                          -(double(xi[t]) - top64 - std::log(sum64)),
                          1e-6 + 2e-7 * (top64 - double(xi[t])) + 6e-8 * double(n));
            }
          }
          ASSERT_EQ(loss, want_loss);
          ++checked;
        }
  EXPECT_EQ(checked, 5 * 12 * 2 * 3);
}

TEST(GptKernel, SoftmaxCrossEntropyRefusesALogitThatIsNotFinite) {
  for (const std::ptrdiff_t n : kLengths)
    for (const float bad : {INFINITY, -INFINITY, NAN}) {
      std::vector<float> x(size_t(3 * n), 0.5f), out(x.size()), top(3), s(3);
      x[size_t(2 * n + n - 1)] = bad;  // the last row's last logit
      double loss = 0;
      EXPECT_FALSE(softmax_cross_entropy(x.data(), 3, n, nullptr, 1, false, out.data(), top.data(),
                                         s.data(), loss))
          << n << " " << bad;
    }
}

}  // namespace
