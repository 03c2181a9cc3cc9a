// gpt_kernel.cpp: c = a·b in blocks, as GotoBLAS does: for each block of kKc terms, b in panels
// of 8 columns; for each block of kMc rows, a in groups of 4 rows; then a micro-kernel multiplies
// one group by one panel: 4 rows × 8 columns, 8 accumulators, written for V8's register allocator
// as the attention kernel's are (kernel.cpp). A panel or a group is read where it lies when its
// matrix's layout allows (b row-major; a either way, four row pointers or one column pointer),
// and packed otherwise: a transposed b, and the edges, padded with zeros, which go through a 4×8
// scratch. Until 2026-12-02 every a and b was packed; reading them in place where they allow it
// (with the weights' transposes that gpt.cpp makes once a step) took the products of a training
// step's 16 slices from about 30 to 24 ms in a WASM harness (docs/performance.md).
// The model's other steps follow: the softmaxes, LayerNorm, GELU, AdamW.
#include "gpt_kernel.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "kernel.hpp"
#include "simd.hpp"

namespace attention::fast {
namespace {

using Index = std::ptrdiff_t;
using simd::f32x4;

constexpr Index kRows = 4, kCols = 8;
constexpr Index kKc = 256;  // terms per block: a packed panel of b is kKc × 8 floats (8 KB)
constexpr Index kMc = 64;   // rows per block of a: kMc × kKc floats (64 KB)

Index round_up(Index n, Index m) { return (n + m - 1) / m * m; }

// A buffer that only grows: resizing a std::vector up fills the new floats with zeros first.
struct Scratch {
  std::vector<float> data;
  float* at_least(Index n) {
    if (Index(data.size()) < n) data.resize(size_t(n));
    return data.data();
  }
};

// out (4, 8) = 0 + Σ, or out (4, 8) += Σ when `accumulate`, where Σ is a (4 rows:
// a[k·a_step + r·a_row] is row r's term k) · b (terms × 8: b[k·b_step + c] is column c's term k),
// each sum taken term by term. A packed group has a_step 4 and a_row 1, a packed panel b_step 8;
// a matrix read where it lies has its strides.
inline void product_4x8(const float* a, Index a_step, Index a_row, const float* b, Index b_step,
                        Index terms, float* out, Index ld, bool accumulate) {
  using namespace simd;
  f32x4 c00 = zero(), c01 = zero(), c10 = zero(), c11 = zero();
  f32x4 c20 = zero(), c21 = zero(), c30 = zero(), c31 = zero();
  const float *a1 = a + a_row, *a2 = a1 + a_row, *a3 = a2 + a_row;
  ATTENTION_NO_UNROLL
  for (Index k = 0; k < terms; ++k) {
    const f32x4 b0 = load(b), b1 = load(b + 4);
    b += b_step;
    f32x4 x = load_splat(a);
    c00 = add(c00, mul(x, b0));
    c01 = add(c01, mul(x, b1));
    x = load_splat(a1);
    c10 = add(c10, mul(x, b0));
    c11 = add(c11, mul(x, b1));
    x = load_splat(a2);
    c20 = add(c20, mul(x, b0));
    c21 = add(c21, mul(x, b1));
    x = load_splat(a3);
    c30 = add(c30, mul(x, b0));
    c31 = add(c31, mul(x, b1));
    a += a_step;
    a1 += a_step;
    a2 += a_step;
    a3 += a_step;
  }
  // 0 + Σ, not Σ: the same bits as a cleared c plus Σ (a −0 sum becomes +0)
  const f32x4 base = zero();
  const auto put = [&](float* o, f32x4 x) { store(o, add(accumulate ? load(o) : base, x)); };
  put(out, c00);
  put(out + 4, c01);
  out += ld;
  put(out, c10);
  put(out + 4, c11);
  out += ld;
  put(out, c20);
  put(out + 4, c21);
  out += ld;
  put(out, c30);
  put(out + 4, c31);
}

// b's terms [k0, k0 + terms) × columns [j0, j0 + cols), cols ≤ 8, as one panel of terms × 8;
// the missing columns are zeros. Every float of the pack is written once (no clearing first).
void pack_panel(const View& b, Index k0, Index terms, Index j0, Index cols, float* out) {
  for (Index k = 0; k < terms; ++k) {
    const float* row = b.data + (k0 + k) * b.row_stride + j0 * b.col_stride;
    for (Index c = 0; c < cols; ++c) out[k * kCols + c] = row[c * b.col_stride];
    for (Index c = cols; c < kCols; ++c) out[k * kCols + c] = 0.0f;
  }
}

// a's rows [i0, i0 + rows) × terms [k0, k0 + terms), rows ≤ 4, as one group of 4 rows
// interleaved; the missing rows are zeros. Every float is written once, as in pack_panel.
void pack_group(const View& a, Index i0, Index rows, Index k0, Index terms, float* out) {
  for (Index r = 0; r < rows; ++r) {
    const float* row = a.data + (i0 + r) * a.row_stride + k0 * a.col_stride;
    for (Index k = 0; k < terms; ++k) out[k * kRows + r] = row[k * a.col_stride];
  }
  for (Index r = rows; r < kRows; ++r)
    for (Index k = 0; k < terms; ++k) out[k * kRows + r] = 0.0f;
}

}  // namespace

// For each block of kKc terms: b's panels of 8 columns, each read in place when b is row-major
// (col_stride 1) and the panel whole, else packed; for each block of kMc rows, a's groups of 4
// rows, read in place when a has a stride of 1 either way and the group is whole, else packed.
// Each element's sum is the same whichever way its numbers are read.
void gemm(View a, View b, float* c, Index ldc, bool accumulate, Zeros zeros) {
  const Index m = a.rows, n = b.cols, depth = a.cols;
  if (depth == 0) {
    for (Index i = 0; i < m && !accumulate; ++i) std::fill_n(c + i * ldc, n, 0.0f);
    return;
  }
  static Scratch packed_a, packed_b;
  const bool b_in_place = b.col_stride == 1;
  const bool a_in_place = a.row_stride == 1 || a.col_stride == 1;
  const Index panels = round_up(n, kCols) / kCols;
  for (Index k0 = 0; k0 < depth; k0 += kKc) {
    const Index terms = std::min(kKc, depth - k0);
    const bool add_to_c = accumulate || k0 > 0;
    // the panels: where each is read, and its step
    float* const pb = packed_b.at_least(panels * terms * kCols);
    for (Index p = 0; p < panels; ++p) {
      const Index cols = std::min(kCols, n - p * kCols);
      if (!(b_in_place && cols == kCols))
        pack_panel(b, k0, terms, p * kCols, cols, pb + p * terms * kCols);
    }
    for (Index i0 = 0; i0 < m; i0 += kMc) {
      const Index rows = std::min(kMc, m - i0), groups = round_up(rows, kRows) / kRows;
      float* const pa = packed_a.at_least(groups * terms * kRows);
      for (Index g = 0; g < groups; ++g) {
        const Index r = std::min(kRows, rows - g * kRows);
        if (!(a_in_place && r == kRows))
          pack_group(a, i0 + g * kRows, r, k0, terms, pa + g * terms * kRows);
      }
      for (Index p = 0; p < panels; ++p) {
        const Index j = p * kCols, cols = std::min(kCols, n - j);
        const bool b_here = b_in_place && cols == kCols;
        const float* panel = b_here ? b.data + k0 * b.row_stride + j : pb + p * terms * kCols;
        const Index b_step = b_here ? b.row_stride : kCols;
        for (Index g = 0; g < groups; ++g) {
          const Index i = i0 + g * kRows, r_end = std::min(kRows, m - i);
          const bool a_here = a_in_place && r_end == kRows;
          const float* group =
              a_here ? a.data + i * a.row_stride + k0 * a.col_stride : pa + g * terms * kRows;
          const Index a_step = a_here ? a.col_stride : kRows, a_row = a_here ? a.row_stride : 1;
          // the group's terms that are not all zeros: [from, to) of this block's
          Index from = 0, to = terms;
          if (zeros == Zeros::kAbove) to = std::clamp<Index>(i + kRows - k0, 0, terms);
          if (zeros == Zeros::kBelow) from = std::clamp<Index>(i - k0, 0, to);
          const float *a_from = group + from * a_step, *b_from = panel + from * b_step;
          if (r_end == kRows && cols == kCols) {
            product_4x8(a_from, a_step, a_row, b_from, b_step, to - from, c + i * ldc + j, ldc,
                        add_to_c);
            continue;
          }
          float tile[kRows * kCols];
          product_4x8(a_from, a_step, a_row, b_from, b_step, to - from, tile, kCols, false);
          for (Index row = 0; row < r_end; ++row) {
            float* out = c + (i + row) * ldc + j;
            for (Index col = 0; col < cols; ++col)
              out[col] = (add_to_c ? out[col] : 0.0f) + tile[row * kCols + col];
          }
        }
      }
    }
  }
}

constexpr float kLog2e = 1.44269504088896340736f;

// The attention kernel's 2^x (kernel.cpp), with log2 e folded in.
void exp_shifted(const float* x, float top, float* out, Index n) {
  for (Index j = 0; j < n; ++j) out[j] = (x[j] - top) * kLog2e;
  exp2_negative(out, out, n);
}

// tanh(u) = sign(u)·(1 − e)/(1 + e) with e = e^(−2|u|) ≤ 1.
void tanh_all(float* x, Index n) {
  using namespace simd;
  static std::vector<float> e;
  e.resize(size_t(n));
  float* const ep = e.data();
  const f32x4 scale = splat(-2 * kLog2e), one = splat(1.0f);
  Index j = 0;
  for (; j + 4 <= n; j += 4) store(ep + j, mul(scale, abs(load(x + j))));
  for (; j < n; ++j) ep[j] = -2 * kLog2e * std::abs(x[j]);
  exp2_negative(ep, ep, n);
  for (j = 0; j + 4 <= n; j += 4) {
    const f32x4 v = load(ep + j);
    store(x + j, or_sign(div(sub(one, v), add(one, v)), load(x + j)));
  }
  for (; j < n; ++j) x[j] = std::copysign((1 - ep[j]) / (1 + ep[j]), x[j]);
}

float max_of(const float* x, Index n) {
  if (n < 4) {
    float top = x[0];
    for (Index j = 1; j < n; ++j) top = top < x[j] ? x[j] : top;
    return top;
  }
  simd::f32x4 top = simd::load(x);
  Index j = 4;
  for (; j + 4 <= n; j += 4) top = simd::pmax(top, simd::load(x + j));
  float out = simd::hmax(top);
  for (; j < n; ++j) out = out < x[j] ? x[j] : out;
  return out;
}

bool all_finite(const float* x, Index n) {
  Index j = 0;
  for (; j + 4 <= n; j += 4) {
    if (!simd::all_lanes(simd::finite_mask(simd::load(x + j)))) return false;
  }
  for (; j < n; ++j) {
    if (!std::isfinite(x[j])) return false;
  }
  return true;
}

bool add_scaled_finite(float* y, float a, const float* x, Index n) {
  using namespace simd;
  const f32x4 aa = splat(a);
  Index j = 0;
  for (; j + 4 <= n; j += 4) {
    const f32x4 v = load(x + j);
    if (!all_lanes(finite_mask(v))) return false;
    store(y + j, add(load(y + j), mul(aa, v)));
  }
  for (; j < n; ++j) {
    if (!std::isfinite(x[j])) return false;
    y[j] = y[j] + a * x[j];
  }
  return true;
}

void causal_softmax(float* s, float* p, Index t, float scale) {
  using namespace simd;
  const f32x4 sc = splat(scale);
  for (Index i = 0; i < t; ++i) {
    float* const si = s + i * t;
    float* const pi = p + i * t;
    Index j = 0;
    for (; j + 4 <= t; j += 4) store(si + j, mul(load(si + j), sc));
    for (; j < t; ++j) si[j] = si[j] * scale;
    const float top = max_of(si, i + 1);
    float sum = 0;
    for (j = 0; j <= i; ++j) {
      pi[j] = std::exp(si[j] - top);
      sum += pi[j];
    }
    std::fill(pi + i + 1, pi + t, 0.0f);
    divide(pi, i + 1, sum);
  }
}

void causal_softmax_backward(const float* p, float* dp, Index t, float scale) {
  using namespace simd;
  const f32x4 sc = splat(scale);
  for (Index i = 0; i < t; ++i) {
    const float* const pi = p + i * t;
    float* const di = dp + i * t;
    float dot = di[0] * pi[0];
    for (Index j = 1; j <= i; ++j) dot += di[j] * pi[j];
    const f32x4 dd = splat(dot);
    Index j = 0;
    for (; j + 4 <= i + 1; j += 4) store(di + j, mul(mul(load(pi + j), sub(load(di + j), dd)), sc));
    for (; j <= i; ++j) di[j] = pi[j] * (di[j] - dot) * scale;
    std::fill(di + i + 1, di + t, 0.0f);
  }
}

constexpr float kLnEps = float(1e-5);  // gpt.cpp's, rounded to float as there

// Four rows at a time: their means' and variances' sums in four chains side by side, then each
// row's h in SIMD.
void layernorm_forward(const float* x, Index rows, Index c, const float* g, const float* b,
                       float* h, float* mean, float* rstd) {
  using namespace simd;
  for (Index i0 = 0; i0 < rows; i0 += 4) {
    const Index block = std::min<Index>(4, rows - i0);
    const float* xr[4];
    for (Index r = 0; r < 4; ++r) xr[r] = x + (i0 + std::min(r, block - 1)) * c;
    float s[4] = {xr[0][0], xr[1][0], xr[2][0], xr[3][0]};
    for (Index j = 1; j < c; ++j)
      for (Index r = 0; r < 4; ++r) s[r] += xr[r][j];
    float m[4], q[4];
    for (Index r = 0; r < 4; ++r) {
      m[r] = s[r] / float(c);
      const float d = xr[r][0] - m[r];
      q[r] = d * d;
    }
    for (Index j = 1; j < c; ++j)
      for (Index r = 0; r < 4; ++r) {
        const float d = xr[r][j] - m[r];
        q[r] += d * d;
      }
    for (Index r = 0; r < block; ++r) {
      const Index i = i0 + r;
      const float rs = 1.0f / std::sqrt(q[r] / float(c) + kLnEps);
      mean[i] = m[r];
      rstd[i] = rs;
      const f32x4 mm = splat(m[r]), rr = splat(rs);
      float* const hi = h + i * c;
      Index j = 0;
      for (; j + 4 <= c; j += 4)
        store(hi + j, add(mul(mul(sub(load(xr[r] + j), mm), rr), load(g + j)), load(b + j)));
      for (; j < c; ++j) hi[j] = (xr[r][j] - m[r]) * rs * g[j] + b[j];
    }
  }
}

void layernorm_backward(const float* x, const float* mean, const float* rstd, const float* g,
                        const float* dh, Index rows, Index c, float* dx, float* dg, float* db) {
  using namespace simd;
  static Scratch scratch;
  float* const xhat = scratch.at_least(2 * c);
  float* const dxhat = xhat + c;
  for (Index i = 0; i < rows; ++i) {
    const float *xi = x + i * c, *dhi = dh + i * c;
    const f32x4 mm = splat(mean[i]), rr = splat(rstd[i]);
    Index j = 0;
    for (; j + 4 <= c; j += 4) {
      const f32x4 xh = mul(sub(load(xi + j), mm), rr), d = load(dhi + j);
      store(xhat + j, xh);
      store(dxhat + j, mul(d, load(g + j)));
      store(dg + j, add(load(dg + j), mul(d, xh)));
      store(db + j, add(load(db + j), d));
    }
    for (; j < c; ++j) {
      xhat[j] = (xi[j] - mean[i]) * rstd[i];
      dxhat[j] = dhi[j] * g[j];
      dg[j] += dhi[j] * xhat[j];
      db[j] += dhi[j];
    }
    float sd = dxhat[0], sdx = dxhat[0] * xhat[0];
    for (j = 1; j < c; ++j) {
      sd += dxhat[j];
      sdx += dxhat[j] * xhat[j];
    }
    const float mean_d = sd / float(c), mean_dx = sdx / float(c);
    const f32x4 md = splat(mean_d), mdx = splat(mean_dx);
    float* const dxi = dx + i * c;
    for (j = 0; j + 4 <= c; j += 4) {
      const f32x4 t = sub(sub(load(dxhat + j), md), mul(load(xhat + j), mdx));
      store(dxi + j, add(load(dxi + j), mul(rr, t)));
    }
    for (; j < c; ++j) dxi[j] += rstd[i] * ((dxhat[j] - mean_d) - xhat[j] * mean_dx);
  }
}

// gpt.cpp's order: m = β1·m + (1 − β1)·g, v = β2·v + ((1 − β2)·g)·g, then
// p − lr·((m/c1)/(√(v/c2) + ε) + decay·p), in double, each rounded to float once.
void adamw(float* p, const float* g, float* m, float* v, Index n, const AdamWStep& s) {
  using simd::f64x2;
  const f64x2 b1 = simd::splat(s.beta1), b2 = simd::splat(s.beta2);
  const f64x2 rest1 = simd::splat(1 - s.beta1), rest2 = simd::splat(1 - s.beta2);
  const f64x2 c1 = simd::splat(s.c1), c2 = simd::splat(s.c2), lr = simd::splat(s.lr);
  const f64x2 eps = simd::splat(s.eps), decay = simd::splat(s.decay);
  const auto step = [&](f64x2 g2, f64x2& m2, f64x2& v2, f64x2& p2) {
    using namespace simd;
    m2 = add(mul(b1, m2), mul(rest1, g2));
    v2 = add(mul(b2, v2), mul(mul(rest2, g2), g2));
    p2 = sub(p2, mul(lr, add(div(div(m2, c1), add(sqrt(div(v2, c2)), eps)), mul(decay, p2))));
  };
  Index j = 0;
  for (; j + 4 <= n; j += 4) {
    using namespace simd;
    const f32x4 g4 = load(g + j), m4 = load(m + j), v4 = load(v + j), p4 = load(p + j);
    f64x2 m_low = low_to_f64(m4), v_low = low_to_f64(v4);
    f64x2 m_high = high_to_f64(m4), v_high = high_to_f64(v4);
    f64x2 p_low = low_to_f64(p4), p_high = high_to_f64(p4);
    step(low_to_f64(g4), m_low, v_low, p_low);
    step(high_to_f64(g4), m_high, v_high, p_high);
    store(m + j, to_f32(m_low, m_high));
    store(v + j, to_f32(v_low, v_high));
    store(p + j, to_f32(p_low, p_high));
  }
  for (; j < n; ++j) {
    const double gj = double(g[j]);
    const double mj = s.beta1 * double(m[j]) + (1 - s.beta1) * gj;
    const double vj = s.beta2 * double(v[j]) + (1 - s.beta2) * gj * gj;
    m[j] = float(mj);
    v[j] = float(vj);
    const double pj = double(p[j]);
    p[j] = float(pj - s.lr * ((mj / s.c1) / (std::sqrt(vj / s.c2) + s.eps) + s.decay * pj));
  }
}

void divide(float* x, Index n, float d) {
  const simd::f32x4 dd = simd::splat(d);
  Index j = 0;
  for (; j + 4 <= n; j += 4) simd::store(x + j, simd::div(simd::load(x + j), dd));
  for (; j < n; ++j) x[j] = x[j] / d;
}

// The largest of x[0..n), n ≥ 1, and whether every x[j] is finite (else the largest means
// nothing).
float max_finite(const float* x, Index n, bool& finite) {
  using namespace simd;
  Index j = 0;
  float out = x[0];
  finite = std::isfinite(x[0]);
  if (n >= 4) {
    f32x4 top = load(x), ok = finite_mask(top);
    for (j = 4; j + 4 <= n; j += 4) {
      const f32x4 v = load(x + j);
      top = pmax(top, v);
      ok = and_mask(ok, finite_mask(v));
    }
    out = hmax(top);
    finite = all_lanes(ok);
  }
  for (; j < n; ++j) {
    out = out < x[j] ? x[j] : out;
    finite = finite && std::isfinite(x[j]);
  }
  return out;
}

// Rows' sums term by term from the first (Eigen's order), four rows' chains side by side.
void sum_rows(const float* x, Index ld, Index rows, Index n, float* s) {
  Index i = 0;
  for (; i + 4 <= rows; i += 4) {
    const float *x0 = x + i * ld, *x1 = x0 + ld, *x2 = x1 + ld, *x3 = x2 + ld;
    float s0 = x0[0], s1 = x1[0], s2 = x2[0], s3 = x3[0];
    for (Index j = 1; j < n; ++j) {
      s0 += x0[j];
      s1 += x1[j];
      s2 += x2[j];
      s3 += x3[j];
    }
    s[i] = s0;
    s[i + 1] = s1;
    s[i + 2] = s2;
    s[i + 3] = s3;
  }
  for (; i < rows; ++i) {
    const float* xi = x + i * ld;
    float si = xi[0];
    for (Index j = 1; j < n; ++j) si += xi[j];
    s[i] = si;
  }
}

// x[j] = (x[j] / d) / e for j < n, or x[j] = (x[j] / d) · (1/e) when e is a power of 2 (the
// same bits: the two are the same real number, rounded once).
void divide_twice(float* x, Index n, float d, float e) {
  using namespace simd;
  int exponent = 0;
  const bool power_of_2 = std::frexp(e, &exponent) == 0.5f;
  const f32x4 dd = splat(d), ee = splat(e), inverse = splat(1.0f / e);
  Index j = 0;
  if (power_of_2) {
    for (; j + 4 <= n; j += 4) store(x + j, mul(div(load(x + j), dd), inverse));
  } else {
    for (; j + 4 <= n; j += 4) store(x + j, div(div(load(x + j), dd), ee));
  }
  for (; j < n; ++j) x[j] = (x[j] / d) / e;
}

bool softmax_cross_entropy(const float* x, Index rows, Index n, const std::int32_t* targets,
                           float counted, bool gradient, float* out, float* top, float* s,
                           double& loss) {
  loss = 0;
  // a block of 4 rows at a time, whose e^x stay in the cache from one pass to the next
  for (Index i0 = 0; i0 < rows; i0 += 4) {
    const Index block = std::min<Index>(4, rows - i0);
    for (Index i = i0; i < i0 + block; ++i) {
      bool finite = true;
      top[i] = max_finite(x + i * n, n, finite);
      if (!finite) return false;
      exp_shifted(x + i * n, top[i], out + i * n, n);
    }
    sum_rows(out + i0 * n, n, block, n, s + i0);
    for (Index i = i0; i < i0 + block; ++i) {
      float* const row = out + i * n;
      const std::int32_t t = targets ? targets[i] : -1;
      const float p = t >= 0 ? row[t] / s[i] : 0.0f;
      if (t >= 0) loss -= std::log(double(p));
      if (!gradient) {
        divide(row, n, s[i]);
      } else if (t < 0) {
        std::fill_n(row, n, 0.0f);
      } else {
        divide_twice(row, n, s[i], counted);
        row[t] = (p - 1.0f) / counted;
      }
    }
  }
  return true;
}

// As gpt.cpp's, its double constants rounded to float.
constexpr float kGeluS = float(0.7978845608028654);  // √(2/π)
constexpr float kGeluC = float(0.044715);
constexpr float kGeluC3 = float(3 * 0.044715);

// gpt.cpp's order: s·(x + ((c·x)·x)·x), then ((0.5·x)·(1 + t)).
void gelu_forward(const float* x, float* t, float* g, Index n) {
  using namespace simd;
  const f32x4 s = splat(kGeluS), c = splat(kGeluC);
  Index j = 0;
  for (; j + 4 <= n; j += 4) {
    const f32x4 v = load(x + j);
    store(t + j, mul(s, add(v, mul(mul(mul(c, v), v), v))));
  }
  for (; j < n; ++j) t[j] = kGeluS * (x[j] + kGeluC * x[j] * x[j] * x[j]);
  tanh_all(t, n);
  const f32x4 half = splat(0.5f), one = splat(1.0f);
  for (j = 0; j + 4 <= n; j += 4) store(g + j, mul(mul(half, load(x + j)), add(one, load(t + j))));
  for (; j < n; ++j) g[j] = 0.5f * x[j] * (1.0f + t[j]);
}

// gpt.cpp's order: 0.5·(1 + t) + (((0.5·x)·(1 − t·t))·s)·(1 + (3c·x)·x).
void gelu_backward(const float* x, const float* t, float* d, Index n) {
  using namespace simd;
  const f32x4 half = splat(0.5f), one = splat(1.0f), s = splat(kGeluS), c3 = splat(kGeluC3);
  Index j = 0;
  for (; j + 4 <= n; j += 4) {
    const f32x4 v = load(x + j), u = load(t + j);
    const f32x4 slope =
        add(mul(half, add(one, u)),
            mul(mul(mul(mul(half, v), sub(one, mul(u, u))), s), add(one, mul(mul(c3, v), v))));
    store(d + j, mul(load(d + j), slope));
  }
  for (; j < n; ++j) {
    const float v = x[j], u = t[j];
    d[j] =
        d[j] * (0.5f * (1.0f + u) + 0.5f * v * (1.0f - u * u) * kGeluS * (1.0f + kGeluC3 * v * v));
  }
}

}  // namespace attention::fast
