// kernel.cpp: the fast float32 kernels behind attend_batched (see kernel.hpp). One head at a
// time, in passes numbered as in the reference: scores, softmax, weights·V.
//
// Written for V8's register allocator (docs/toolchain.md, "SIMD"): micro-
// kernels of 4 rows × 8 columns (8 accumulators), pointer-increment loops that clang may not
// unroll, each broadcast used at once. log2 e is folded into the queries' scale so that the
// softmax needs 2^x, not e^x.
#include "kernel.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstddef>
#include <limits>

#include "simd.hpp"

namespace attention::fast {
namespace {

using Index = std::ptrdiff_t;
using simd::f32x4;

// A micro-tile: 4 query rows × 8 columns (two vectors), so 8 accumulators.
constexpr Index kRows = 4, kCols = 8;
// The fused kernel's tiles: kTileKeys keys at a time (outer), kTileQueries query rows (inner).
constexpr Index kTileKeys = 256, kTileQueries = 64;
// The 3-pass kernel's block of query rows, whose weights rows stay in cache between passes.
constexpr Index kBlockQueries = 32;

constexpr double kLog2e = 1.44269504088896340736;
constexpr float kInfinity = std::numeric_limits<float>::infinity();
// Inputs bounded by this (a quarter of FLT_MAX) leave room for every rounding below.
constexpr double kSafe = FLT_MAX / 4.0;

Index round_up(Index n, Index m) { return (n + m - 1) / m * m; }

// ---- 2^x ----

// 2^x for x ≤ 0, in two precisions: x = n + f with n = round(x) and f in [−½, ½]; 2^f by a
// minimax polynomial 1 + f·q(f), in pairs of terms (Estrin's scheme), whose short dependency
// chains keep more of them in flight than Horner's rule; 2^n by writing n + 127 into the
// exponent field. Below −126.5 (and at −∞) n is −127, whose exponent field is 0: the result is
// exactly 0, so blocked keys get weight 0.
//
// exp2_neg: degree 6 (relative error 1.9e-9), within about 1 ulp of float; the model's kernels'
// (exp2_negative), whose bits its training fingerprint holds. exp2_neg_short: degree 5 (relative
// error 4.3e-7, a few ulps), two operations fewer, for the attention's softmax, whose error
// against float64 (1e-5) it leaves room for.

// n and f: t's bits are those of 1.5·2^23 plus n; f = x − n.
inline void exp2_split(f32x4& x, f32x4& t) {
  using namespace simd;
  const f32x4 magic = splat(0x1.8p23f);  // adding 1.5·2^23 rounds to an integer
  const f32x4 clamped = pmax(x, splat(-127.0f));
  t = add(clamped, magic);
  x = sub(clamped, sub(t, magic));
}

// p·2^n, n from t's bits
inline f32x4 exp2_scale(f32x4 p, f32x4 t) {
  return simd::mul(p, simd::shift_to_exponent(t, 127 - 0x4B400000));
}

inline f32x4 exp2_neg(f32x4 x) {
  using namespace simd;
  f32x4 f = x, t;
  exp2_split(f, t);
  // q = (c1 + c2 f) + f²(c3 + c4 f) + f⁴(c5 + c6 f)
  const f32x4 f2 = mul(f, f);
  const f32x4 q12 = add(splat(0x1.62e430p-1f), mul(f, splat(0x1.ebfbdap-3f)));
  const f32x4 q34 = add(splat(0x1.c6aed4p-5f), mul(f, splat(0x1.3b2dbcp-7f)));
  const f32x4 q56 = add(splat(0x1.5f456ap-10f), mul(f, splat(0x1.41d334p-13f)));
  const f32x4 q = add(q12, mul(f2, add(q34, mul(f2, q56))));
  return exp2_scale(add(splat(1.0f), mul(f, q)), t);
}

inline f32x4 exp2_neg_short(f32x4 x) {
  using namespace simd;
  f32x4 f = x, t;
  exp2_split(f, t);
  // q = (c1 + c2 f) + f²((c3 + c4 f) + f² c5), minimax for 2^f's relative error (Remez)
  const f32x4 f2 = mul(f, f);
  const f32x4 q12 = add(splat(0x1.62e39ep-1f), mul(f, splat(0x1.ebfa4ep-3f)));
  const f32x4 q34 = add(splat(0x1.c74322p-5f), mul(f, splat(0x1.3cbea8p-7f)));
  const f32x4 q = add(q12, mul(f2, add(q34, mul(f2, splat(0x1.23a608p-10f)))));
  return exp2_scale(add(splat(1.0f), mul(f, q)), t);
}

inline float exp2_neg_short(float x) { return simd::first(exp2_neg_short(simd::splat(x))); }

// ---- packing ----

// K rows (count, d) → panels of eight keys, (round_up(count, 8) / 8, d, 8): for each of the d
// dimensions, eight keys side by side. Missing keys are 0.
void pack_keys(const float* k, Index count, Index d, float* panels) {
  for (Index j0 = 0; j0 < count; j0 += kCols) {
    const Index n = std::min(kCols, count - j0);
    float* dst = panels + j0 * d;
    for (Index c = 0; c < d; ++c, dst += kCols) {
      for (Index r = 0; r < n; ++r) dst[r] = k[(j0 + r) * d + c];
      for (Index r = n; r < kCols; ++r) dst[r] = 0;
    }
  }
}

// V rows (count, d_v) → panels of eight value columns, (round_up(d_v, 8) / 8, stride, 8) with
// stride ≥ count: row j of panel g holds V[j][8g..8g+7]. Missing columns are 0.
void pack_values(const float* v, Index count, Index d_v, Index stride, float* panels) {
  for (Index c0 = 0; c0 < d_v; c0 += kCols) {
    const Index n = std::min(kCols, d_v - c0);
    float* dst = panels + c0 * stride;
    const float* src = v + c0;
    for (Index j = 0; j < count; ++j, dst += kCols, src += d_v) {
      if (n == kCols) {
        simd::store(dst, simd::load(src));
        simd::store(dst + 4, simd::load(src + 4));
        continue;
      }
      for (Index c = 0; c < n; ++c) dst[c] = src[c];
      for (Index c = n; c < kCols; ++c) dst[c] = 0;
    }
  }
}

// Q rows (count, d) × factor → (round_up(count, 4), d); the padding rows are 0.
void scale_queries(const float* q, Index count, Index d, float factor, float* out) {
  const Index n = count * d, padded = round_up(count, kRows) * d;
  const f32x4 f = simd::splat(factor);
  Index i = 0;
  for (; i + 4 <= n; i += 4) simd::store(out + i, simd::mul(simd::load(q + i), f));
  for (; i < n; ++i) out[i] = q[i] * factor;
  std::fill(out + n, out + padded, 0.0f);
}

// ---- micro-kernels ----

// s (4, 8) = q (4 rows of d, contiguous) · panel (d, 8): four queries against eight keys. With
// `top` (4 vectors, one a row), each row's largest so far takes in its eight new scores, from
// the registers, so that the softmax need not read the row again for its max.
inline void scores_4x8(const float* q, Index d, const float* panel, float* s, Index ld_s,
                       f32x4* top) {
  using namespace simd;
  const float* q0 = q;
  const float* q1 = q0 + d;
  const float* q2 = q1 + d;
  const float* q3 = q2 + d;
  const float* const end = q0 + d;
  f32x4 a00 = zero(), a01 = zero(), a10 = zero(), a11 = zero();
  f32x4 a20 = zero(), a21 = zero(), a30 = zero(), a31 = zero();
  ATTENTION_NO_UNROLL
  while (q0 != end) {
    const f32x4 k0 = load(panel), k1 = load(panel + 4);
    panel += kCols;
    f32x4 b = load_splat(q0++);
    a00 = add(a00, mul(b, k0));
    a01 = add(a01, mul(b, k1));
    b = load_splat(q1++);
    a10 = add(a10, mul(b, k0));
    a11 = add(a11, mul(b, k1));
    b = load_splat(q2++);
    a20 = add(a20, mul(b, k0));
    a21 = add(a21, mul(b, k1));
    b = load_splat(q3++);
    a30 = add(a30, mul(b, k0));
    a31 = add(a31, mul(b, k1));
  }
  store(s, a00);
  store(s + 4, a01);
  s += ld_s;
  store(s, a10);
  store(s + 4, a11);
  s += ld_s;
  store(s, a20);
  store(s + 4, a21);
  s += ld_s;
  store(s, a30);
  store(s + 4, a31);
  if (top == nullptr) return;
  top[0] = pmax(top[0], pmax(a00, a01));
  top[1] = pmax(top[1], pmax(a10, a11));
  top[2] = pmax(top[2], pmax(a20, a21));
  top[3] = pmax(top[3], pmax(a30, a31));
}

// o (4, 8) += p (4, count) · panel (count, 8): four rows of weights against eight value
// columns. p[r] and o[r] point at row r of each; rows may repeat, with the same result.
inline void values_4x8(const float* const* p, const float* panel, Index count, float* const* o) {
  using namespace simd;
  const float* p0 = p[0];
  const float* p1 = p[1];
  const float* p2 = p[2];
  const float* p3 = p[3];
  f32x4 a00 = load(o[0]), a01 = load(o[0] + 4), a10 = load(o[1]), a11 = load(o[1] + 4);
  f32x4 a20 = load(o[2]), a21 = load(o[2] + 4), a30 = load(o[3]), a31 = load(o[3] + 4);
  const float* const end = p0 + count;
  ATTENTION_NO_UNROLL
  while (p0 != end) {
    const f32x4 v0 = load(panel), v1 = load(panel + 4);
    panel += kCols;
    f32x4 b = load_splat(p0++);
    a00 = add(a00, mul(b, v0));
    a01 = add(a01, mul(b, v1));
    b = load_splat(p1++);
    a10 = add(a10, mul(b, v0));
    a11 = add(a11, mul(b, v1));
    b = load_splat(p2++);
    a20 = add(a20, mul(b, v0));
    a21 = add(a21, mul(b, v1));
    b = load_splat(p3++);
    a30 = add(a30, mul(b, v0));
    a31 = add(a31, mul(b, v1));
  }
  store(o[0], a00);
  store(o[0] + 4, a01);
  store(o[1], a10);
  store(o[1] + 4, a11);
  store(o[2], a20);
  store(o[2] + 4, a21);
  store(o[3], a30);
  store(o[3] + 4, a31);
}

// ---- tiles: one function each, so that V8 compiles them small and soon ----

// s (rows, cols) = queries (rows, d) · keys (panels of eight, cols keys), micro-tile by
// micro-tile. `queries` has its rows padded to a multiple of 4. Group g (rows 4g..4g+3) may see
// keys [0, seen[g]): micro-tiles past that are skipped. Edges go through a 4×8 scratch. With
// `top` (rows vectors), row r's takes in its scores in columns [0, whole[r / 4]) (a multiple
// of 8: whole micro-tiles that all four rows see).
ATTENTION_NOINLINE void scores_tile(const float* queries, Index rows, Index d, const float* keys,
                                    Index cols, const Index* seen, float* s, Index ld_s, f32x4* top,
                                    const Index* whole) {
  const Index groups = round_up(rows, kRows) / kRows;
  for (Index j = 0; j < cols; j += kCols) {
    const float* const panel = keys + j * d;
    for (Index g = 0; g < groups; ++g) {
      if (seen[g] <= j) continue;
      const Index i = g * kRows, n = std::min(kCols, cols - j), m = std::min(kRows, rows - i);
      if (n == kCols && m == kRows) {
        f32x4* const t = top != nullptr && j < whole[g] ? top + i : nullptr;
        scores_4x8(queries + i * d, d, panel, s + i * ld_s + j, ld_s, t);
        continue;
      }
      float tile[kRows * kCols];
      scores_4x8(queries + i * d, d, panel, tile, kCols, nullptr);
      for (Index r = 0; r < m; ++r) std::copy_n(tile + r * kCols, n, s + (i + r) * ld_s + j);
    }
  }
}

// out (rows, d_v8) += p (rows, …) · values (panels of eight columns, `stride` apart), with
// out's rows ld_out apart. Group g (rows 4g..4g+3) uses keys [0, seen[g]). In a last group of
// fewer than 4 rows the missing rows repeat the group's first one.
ATTENTION_NOINLINE void values_tile(const float* p, Index ld_p, Index rows, const float* values,
                                    Index stride, Index d_v8, const Index* seen, float* out,
                                    Index ld_out) {
  const Index groups = round_up(rows, kRows) / kRows;
  for (Index c = 0; c < d_v8; c += kCols) {
    for (Index g = 0; g < groups; ++g) {
      if (seen[g] == 0) continue;
      const Index i = g * kRows, m = std::min(kRows, rows - i);
      const float* pr[kRows];
      float* o[kRows];
      for (Index k = 0; k < kRows; ++k) {
        const Index row = i + (k < m ? k : 0);
        pr[k] = p + row * ld_p;
        o[k] = out + row * ld_out + c;
      }
      values_4x8(pr, values + c * stride, seen[g], o);
    }
  }
}

// ---- rows ----

// The largest of x[0..n), n ≥ 1.
inline float row_max(const float* x, Index n) {
  float best = -kInfinity;
  Index j = 0;
  if (n >= 4) {
    f32x4 m = simd::load(x);
    for (j = 4; j + 4 <= n; j += 4) m = simd::pmax(m, simd::load(x + j));
    best = simd::hmax(m);
  }
  for (; j < n; ++j) best = x[j] > best ? x[j] : best;
  return best;
}

// x[j] = 2^(x[j] − m) for j < n, where m ≥ every x[j]; returns their sum.
inline float row_exp2(float* x, Index n, float m) {
  const f32x4 mv = simd::splat(m);
  f32x4 sum = simd::zero();
  Index j = 0;
  for (; j + 4 <= n; j += 4) {
    const f32x4 e = exp2_neg_short(simd::sub(simd::load(x + j), mv));
    simd::store(x + j, e);
    sum = simd::add(sum, e);
  }
  float total = simd::hsum(sum);
  for (; j < n; ++j) total += x[j] = exp2_neg_short(x[j] - m);
  return total;
}

// out[j] = x[j] × c for j < n; out may be x.
ATTENTION_NOINLINE void scale_row(const float* x, Index n, float c, float* out) {
  const f32x4 cv = simd::splat(c);
  Index j = 0;
  for (; j + 4 <= n; j += 4) simd::store(out + j, simd::mul(simd::load(x + j), cv));
  for (; j < n; ++j) out[j] = x[j] * c;
}

// The keys of a tile starting at key j0 (kb of them) that query row i may see: [0, visible).
Index visible(bool causal, Index i, Index j0, Index kb) {
  return causal ? std::clamp<Index>(i - j0 + 1, 0, kb) : kb;
}

// The fused kernel's softmax for one tile, online: for each row r < rows (query i0 + r) of
// the scores s (ld apart), which sees keys [0, shown) of the tile starting at key j0: the new
// row max m, 2^(score − max) in place, the row sum l and the factor that rescales what came
// before. The largest of the row's first whole[g] scores is already in top[r] (scores_tile).
// The cells its group of 4 reads in pass 5 but it may not see, up to seen[g], get 0.
ATTENTION_NOINLINE void online_softmax(float* s, Index ld, Index rows, bool causal, Index i0,
                                       Index j0, Index kb, const Index* seen, const f32x4* top,
                                       const Index* whole, float* m, float* l, float* rescale) {
  for (Index r = 0; r < rows; ++r, s += ld) {
    const Index i = i0 + r, shown = visible(causal, i, j0, kb), done = whole[r / kRows];
    std::fill(s + shown, s + std::max(shown, seen[r / kRows]), 0.0f);
    rescale[r] = 1;
    if (shown == 0) continue;
    float best = done > 0 ? simd::hmax(top[r]) : -kInfinity;
    if (shown > done) best = std::max(best, row_max(s + done, shown - done));
    const float m_new = std::max(m[i], best);
    // on a row's first tile its output and sum are still 0: nothing to rescale
    if (m_new > m[i] && m[i] > -kInfinity) rescale[r] = exp2_neg_short(m[i] - m_new);
    l[i] = l[i] * rescale[r] + row_exp2(s, shown, m_new);
    m[i] = m_new;
  }
}

// The 3-pass kernel's softmax of rows [0, rows) (queries i0 + r) of the weights w (n_k apart),
// in place: 2^(score − max) / sum; the keys a row may not see get 0.
ATTENTION_NOINLINE void softmax_rows(float* w, Index n_k, Index rows, bool causal, Index i0) {
  for (Index r = 0; r < rows; ++r, w += n_k) {
    const Index shown = visible(causal, i0 + r, 0, n_k);
    const float sum = row_exp2(w, shown, row_max(w, shown));
    const f32x4 c = simd::splat(1.0f / sum);
    Index j = 0;
    for (; j + 4 <= shown; j += 4) simd::store(w + j, simd::mul(simd::load(w + j), c));
    for (; j < shown; ++j) w[j] /= sum;
    std::fill(w + shown, w + n_k, 0.0f);
  }
}

// ---- the fused kernel: no weights ----

// Its workspace, in floats; every part starts 16-byte aligned.
struct FusedLayout {
  Index keys, values, queries, scores, out, row_max, row_sum, rescale, total;
  explicit FusedLayout(const Dims& dims) {
    const Index d = dims.d_k, d_v8 = round_up(dims.d_v, kCols), n_q = round_up(dims.n_q, 4);
    keys = 0;                                 // (kTileKeys / 8, d, 8)
    values = keys + kTileKeys * d;            // (d_v8 / 8, kTileKeys, 8)
    queries = values + d_v8 * kTileKeys;      // (kTileQueries, d)
    scores = queries + kTileQueries * d;      // (kTileQueries, kTileKeys)
    out = scores + kTileQueries * kTileKeys;  // (kTileQueries, d_v8)
    row_max = out + kTileQueries * d_v8;      // (n_q)
    row_sum = row_max + n_q;                  // (n_q)
    rescale = row_sum + n_q;                  // (kTileQueries)
    total = rescale + kTileQueries;
  }
};

// Online softmax with the key tiles outer: for each tile of keys, every block of queries that
// sees one of them updates its row max m, row sum l and unnormalised output. The output rows
// themselves hold that running sum, so memory does not grow with n.
void attend_fused(const Head& h, const Dims& dims, float factor, float* workspace) {
  const Index n_q = dims.n_q, n_k = dims.n_k, d = dims.d_k, d_v = dims.d_v;
  const Index d_v8 = round_up(d_v, kCols);
  const FusedLayout at(dims);
  float* const keys = workspace + at.keys;        // (kTileKeys / 8, d, 8)
  float* const values = workspace + at.values;    // (d_v8 / 8, kTileKeys, 8)
  float* const queries = workspace + at.queries;  // (kTileQueries, d)
  float* const scores = workspace + at.scores;    // (kTileQueries, kTileKeys)
  float* const out = workspace + at.out;          // (kTileQueries, d_v8)
  float* const m = workspace + at.row_max;        // (n_q)
  float* const l = workspace + at.row_sum;        // (n_q)
  float* const rescale = workspace + at.rescale;  // (kTileQueries)
  f32x4 top[kTileQueries];                        // each row's largest score in the tile

  // pass 0: output 0, row max −∞, row sum 0
  std::fill(h.output, h.output + n_q * d_v, 0.0f);
  std::fill(m, m + n_q, -kInfinity);
  std::fill(l, l + n_q, 0.0f);

  for (Index j0 = 0; j0 < n_k; j0 += kTileKeys) {
    const Index kb = std::min(kTileKeys, n_k - j0), panels = round_up(kb, kCols) / kCols;
    // pass 1: this tile's keys into panels of eight, its values into panels of eight columns
    pack_keys(h.k + j0 * d, kb, d, keys);
    pack_values(h.v + j0 * d_v, kb, d_v, kTileKeys, values);

    // Under a causal mask, query rows before j0 see none of these keys: skip their blocks.
    const Index first = dims.causal ? j0 / kTileQueries * kTileQueries : 0;
    for (Index i0 = first; i0 < n_q; i0 += kTileQueries) {
      const Index qb = std::min(kTileQueries, n_q - i0), groups = round_up(qb, kRows) / kRows;
      // the keys of this tile that group g's last row may see, for the micro-tiles to skip,
      // and the whole micro-tiles that its four rows all see, for the scores' max
      Index seen[kTileQueries / kRows], whole[kTileQueries / kRows];
      for (Index g = 0; g < groups; ++g) {
        const Index i = i0 + g * kRows;
        seen[g] = visible(dims.causal, i + kRows - 1, j0, kb);
        whole[g] = i + kRows <= n_q ? visible(dims.causal, i, j0, kb) / kCols * kCols : 0;
      }
      std::fill(top, top + qb, simd::splat(-kInfinity));

      // pass 2: this block's queries × scale·log2 e
      scale_queries(h.q + i0 * d, qb, d, factor, queries);

      // pass 3: scores (qb, kb), and the rows' max over whole micro-tiles; wholly masked
      // micro-tiles are skipped
      scores_tile(queries, qb, d, keys, panels * kCols, seen, scores, kTileKeys, top, whole);

      // pass 4: softmax, online: the new row max, 2^(score − max), the rescale of the old sum
      online_softmax(scores, kTileKeys, qb, dims.causal, i0, j0, kb, seen, top, whole, m, l,
                     rescale);

      // pass 5: output rows × rescale, plus weights·V, by panels of eight value columns: in
      // place when the rows are whole panels, else through a padded tile
      float* const o = d_v == d_v8 ? h.output + i0 * d_v : out;
      for (Index r = 0; r < qb; ++r) {
        const float* const src = h.output + (i0 + r) * d_v;
        if (rescale[r] != 1 || o == out) scale_row(src, d_v, rescale[r], o + r * d_v8);
        std::fill(o + r * d_v8 + d_v, o + (r + 1) * d_v8, 0.0f);
      }
      values_tile(scores, kTileKeys, qb, values, kTileKeys, d_v8, seen, o, d_v8);
      if (o == out) {
        for (Index r = 0; r < qb; ++r) {
          std::copy(out + r * d_v8, out + r * d_v8 + d_v, h.output + (i0 + r) * d_v);
        }
      }
    }
  }

  // pass 6: output / row sum
  for (Index i = 0; i < n_q; ++i)
    scale_row(h.output + i * d_v, d_v, 1.0f / l[i], h.output + i * d_v);
}

// ---- the 3-pass kernel: with the weights ----

struct BlockedLayout {
  Index keys, values, queries, out, total;
  explicit BlockedLayout(const Dims& dims) {
    const Index d = dims.d_k, d_v8 = round_up(dims.d_v, kCols);
    const Index n_k4 = round_up(dims.n_k, 4), n_k8 = round_up(dims.n_k, kCols);
    keys = 0;                           // (n_k8 / 8, d, 8)
    values = keys + n_k8 * d;           // (d_v8 / 8, n_k4, 8)
    queries = values + d_v8 * n_k4;     // (kBlockQueries, d)
    out = queries + kBlockQueries * d;  // (kBlockQueries, d_v8)
    total = out + kBlockQueries * d_v8;
  }
};

// For each block of query rows: scores straight into the caller's weights rows, the softmax in
// place, then weights·V.
void attend_blocked(const Head& h, const Dims& dims, float factor, float* workspace) {
  const Index n_q = dims.n_q, n_k = dims.n_k, d = dims.d_k, d_v = dims.d_v;
  const Index d_v8 = round_up(d_v, kCols);
  const BlockedLayout at(dims);
  float* const keys = workspace + at.keys;        // (n_k8 / 8, d, 8)
  float* const values = workspace + at.values;    // (d_v8 / 8, n_k4, 8)
  float* const queries = workspace + at.queries;  // (kBlockQueries, d)
  float* const out = workspace + at.out;          // (kBlockQueries, d_v8)
  const Index stride = round_up(n_k, 4);

  // pass 1: all of this head's keys into panels of eight, its values into column panels
  pack_keys(h.k, n_k, d, keys);
  pack_values(h.v, n_k, d_v, stride, values);

  for (Index i0 = 0; i0 < n_q; i0 += kBlockQueries) {
    const Index qb = std::min(kBlockQueries, n_q - i0), groups = round_up(qb, kRows) / kRows;
    float* const w = h.weights + i0 * n_k;  // (qb, n_k): this block's rows of the weights
    Index seen[kBlockQueries / kRows];      // the keys group g's last row may see
    for (Index g = 0; g < groups; ++g)
      seen[g] = visible(dims.causal, i0 + g * kRows + kRows - 1, 0, n_k);

    // pass 2: this block's queries × scale·log2 e
    scale_queries(h.q + i0 * d, qb, d, factor, queries);

    // pass 3: scores into the weights rows; wholly masked micro-tiles are skipped
    scores_tile(queries, qb, d, keys, n_k, seen, w, n_k, nullptr, nullptr);

    // pass 4: softmax of each row in place: 2^(score − max) / sum; keys it may not see get 0
    softmax_rows(w, n_k, qb, dims.causal, i0);

    // pass 5: out = weights·V, by panels of eight value columns
    std::fill(out, out + groups * kRows * d_v8, 0.0f);
    values_tile(w, n_k, qb, values, stride, d_v8, seen, out, d_v8);
    for (Index r = 0; r < qb; ++r) {
      std::copy(out + r * d_v8, out + r * d_v8 + d_v, h.output + (i0 + r) * d_v);
    }
  }
}

// ---- bounds, and the exact path for inputs near float's limit ----

// The largest squared norm of a row of x (rows, cols); clears `finite` when a row's is NaN or
// infinite (a non-finite input, or squares too large for float).
float max_row_norm2(const float* x, Index rows, Index cols, bool& finite) {
  float best = 0;
  for (Index i = 0; i < rows; ++i, x += cols) {
    f32x4 acc = simd::zero();
    Index c = 0;
    for (; c + 4 <= cols; c += 4) {
      const f32x4 a = simd::load(x + c);
      acc = simd::add(acc, simd::mul(a, a));
    }
    float s = simd::hsum(acc);
    for (; c < cols; ++c) s += x[c] * x[c];
    if (!(s <= FLT_MAX)) finite = false;
    best = s > best ? s : best;
  }
  return best;
}

// Σ|x| over n numbers; clears `finite` as above.
float sum_abs(const float* x, Index n, bool& finite) {
  f32x4 acc = simd::zero();
  Index i = 0;
  for (; i + 4 <= n; i += 4) acc = simd::add(acc, simd::abs(simd::load(x + i)));
  float s = simd::hsum(acc);
  for (; i < n; ++i) s += std::fabs(x[i]);
  if (!(s <= FLT_MAX)) finite = false;
  return s;
}

bool all_finite(const float* x, Index n) {
  for (Index i = 0; i < n; ++i) {
    if (!std::isfinite(x[i])) return false;
  }
  return true;
}

// The head computed cell by cell in double, for inputs so large that the bound in attend_head
// cannot rule out overflow. It first looks for the first cell whose float arithmetic overflows,
// in the reference's order (every score, then every scaled score, then the output).
Outcome attend_exact(const Head& h, const Dims& dims, double scale, float* workspace,
                     Overflow& overflow) {
  const Index n_q = dims.n_q, n_k = dims.n_k, d = dims.d_k, d_v = dims.d_v;
  const auto score = [&](Index i, Index j) {
    double sum = 0;
    for (Index c = 0; c < d; ++c) sum += double(h.q[i * d + c]) * h.k[j * d + c];
    return to_float32(sum);
  };
  const auto report = [&](Overflow::Step step, Index i, Index j, float x) {
    overflow = {step, i, j, x < 0};
    return Outcome::kOverflow;
  };
  // steps 1 and 2: scores = Q·Kᵀ, then scaled = scores × scale, as float
  for (Index i = 0; i < n_q; ++i) {
    for (Index j = 0; j < n_k; ++j) {
      if (const float s = score(i, j); std::isinf(s))
        return report(Overflow::Step::kScores, i, j, s);
    }
  }
  for (Index i = 0; i < n_q; ++i) {
    for (Index j = 0; j < n_k; ++j) {
      if (const float s = to_float32(score(i, j) * scale); std::isinf(s)) {
        return report(Overflow::Step::kScaled, i, j, s);
      }
    }
  }
  // steps 4 and 5, in double: row max, exp, sum, weights, output
  double* const acc = reinterpret_cast<double*>(workspace);  // (d_v)
  for (Index i = 0; i < n_q; ++i) {
    const Index seen = visible(dims.causal, i, 0, n_k);
    const auto logit = [&](Index j) { return double(to_float32(score(i, j) * scale)); };
    double m = -HUGE_VAL, sum = 0;
    for (Index j = 0; j < seen; ++j) m = std::max(m, logit(j));
    std::fill(acc, acc + d_v, 0.0);
    for (Index j = 0; j < seen; ++j) {
      const double e = std::exp(logit(j) - m);
      sum += e;
      for (Index c = 0; c < d_v; ++c) acc[c] += e * h.v[j * d_v + c];
      if (h.weights) h.weights[i * n_k + j] = float(e);
    }
    if (h.weights) {
      for (Index j = 0; j < seen; ++j) h.weights[i * n_k + j] = float(h.weights[i * n_k + j] / sum);
      std::fill(h.weights + i * n_k + seen, h.weights + (i + 1) * n_k, 0.0f);
    }
    for (Index c = 0; c < d_v; ++c) h.output[i * d_v + c] = to_float32(acc[c] / sum);
  }
  for (Index i = 0; i < n_q * d_v; ++i) {
    if (std::isinf(h.output[i]))
      return report(Overflow::Step::kOutput, i / d_v, i % d_v, h.output[i]);
  }
  return Outcome::kDone;
}

}  // namespace

std::int64_t workspace_floats(const Dims& dims) {
  return dims.weights ? BlockedLayout(dims).total : FusedLayout(dims).total;
}

Outcome attend_head(const Head& h, const Dims& dims, double scale, float* workspace,
                    Overflow& overflow) {
  const Index n_q = dims.n_q, n_k = dims.n_k, d = dims.d_k, d_v = dims.d_v;
  // pass 0: bounds that rule out overflow. Every score is at most max‖q_i‖·max‖k_j‖ (Cauchy–
  // Schwarz), and so is every partial sum; the fused kernel's unnormalised output is at most
  // Σ|V|. With a quarter of FLT_MAX to spare, no float below can overflow.
  bool finite = true;
  const double q2 = max_row_norm2(h.q, n_q, d, finite);
  const double k2 = max_row_norm2(h.k, n_k, d, finite);
  const double v1 = sum_abs(h.v, n_k * d_v, finite);
  const double factor = scale * kLog2e, gain = std::max(1.0, std::fabs(factor));
  if (finite && std::sqrt(q2) * gain < kSafe && std::sqrt(q2 * k2) * gain < kSafe && v1 < kSafe) {
    if (dims.weights) {
      attend_blocked(h, dims, static_cast<float>(factor), workspace);
    } else {
      attend_fused(h, dims, static_cast<float>(factor), workspace);
    }
    return Outcome::kDone;
  }
  if (!all_finite(h.q, n_q * d) || !all_finite(h.k, n_k * d) || !all_finite(h.v, n_k * d_v)) {
    return Outcome::kNotFinite;
  }
  return attend_exact(h, dims, scale, workspace, overflow);
}

void exp2_negative(const float* x, float* out, std::int64_t n) {
  Index i = 0;
  for (; i + 4 <= n; i += 4) simd::store(out + i, exp2_neg(simd::load(x + i)));
  for (; i < n; ++i) out[i] = simd::first(exp2_neg(simd::splat(x[i])));
}

void exp2_negative_short(const float* x, float* out, std::int64_t n) {
  Index i = 0;
  for (; i + 4 <= n; i += 4) simd::store(out + i, exp2_neg_short(simd::load(x + i)));
  for (; i < n; ++i) out[i] = exp2_neg_short(x[i]);
}

}  // namespace attention::fast
