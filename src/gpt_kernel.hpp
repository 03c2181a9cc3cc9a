// gpt_kernel.hpp: the float32 kernels of the model's training in WebAssembly, on four-lane
// SIMD (simd.hpp): a matrix product, e^x and tanh, the logits' softmax and cross-entropy, a
// causal head's softmax, LayerNorm, GELU, AdamW. Eigen 3.4 has no WebAssembly SIMD of its own,
// and its products run about 2.5x slower there (docs/performance.md). The native build keeps
// Eigen's and std's, and tests these against gpt.cpp's float steps and a float64 reference.
#pragma once

#include <cstddef>
#include <cstdint>

namespace attention::fast {

// A float matrix read through strides: element (i, j) is data[i·row_stride + j·col_stride], so
// that a transpose or a block is a view, never a copy.
struct View {
  const float* data;
  std::ptrdiff_t rows, cols, row_stride, col_stride;
};

// Where a holds zeros that a product may skip: none known; every a(i, k) with k > i (a lower
// triangle, as a causal head's weights); every a(i, k) with k < i (an upper one, their
// transpose). The terms skipped are each ±0 (a finite b times a's 0): a sum skips them at its
// end, where adding ±0 to a sum that started at +0 leaves it as it was, or at its start, before
// its first term, where they summed to +0 anyway; so the bits are the full product's.
enum class Zeros { kNone, kAbove, kBelow };

// c (a.rows, b.cols), row-major with rows ldc apart: c = a·b, or c += a·b when `accumulate`.
// a.cols must equal b.rows; c must not overlap a or b. Each element's sum is taken term by term,
// from +0, in blocks of 256 terms added to c in turn.
void gemm(View a, View b, float* c, std::ptrdiff_t ldc, bool accumulate,
          Zeros zeros = Zeros::kNone);

// out[j] = e^(x[j] − top) for j < n, where every x[j] ≤ top; out may be x. Within a few ulp of
// float, and exactly 0 below e^−87.7 (2^−126.5).
void exp_shifted(const float* x, float top, float* out, std::ptrdiff_t n);

// x[j] = tanh(x[j]) for j < n, within about 1e-7 of it.
void tanh_all(float* x, std::ptrdiff_t n);

// The steps below are SIMD for speed and do each element's float operations in the order that
// gpt.cpp's Eigen expressions write them, so that they give the same bits: each sum is taken
// term by term from its first, as Eigen sums without SIMD (WebAssembly), never in lanes; the
// speed comes from the element-wise work and from taking several rows' sums side by side.

// The logits' softmax and the cross-entropy, in one pass over each row of x (rows, n),
// row-major: the row's largest top[i], s[i] = Σ_j e^(x_ij − top[i]) in order of j, and out's
// row (rows, n): the softmax e^(x − top)/s, or, with `gradient`, the mean loss's gradient
// (softmax − one-hot(t))/counted for the row's target t = targets[i] (zeros when t < 0). No
// probability matrix besides out. targets may be null (no targets). loss: the loss summed as
// 0 − log p_t − …, p_t the softmax at the target, over the rows with one. False, with the
// outputs unfinished, when a logit is not finite.
bool softmax_cross_entropy(const float* x, std::ptrdiff_t rows, std::ptrdiff_t n,
                           const std::int32_t* targets, float counted, bool gradient, float* out,
                           float* top, float* s, double& loss);

// The largest of x[0..n), n ≥ 1, none NaN.
float max_of(const float* x, std::ptrdiff_t n);

// Whether every x[j], j < n, is finite.
bool all_finite(const float* x, std::ptrdiff_t n);

// y[j] = y[j] + a·x[j] for j < n, one pass; false when an x[j] is not finite (y then partly
// added to).
bool add_scaled_finite(float* y, float a, const float* x, std::ptrdiff_t n);

// A causal head's softmax: its scores s (t, t), row-major, scaled in place by `scale`, and its
// weights p (t, t): row i's softmax over columns 0..i, e^(s − the largest) by std::exp, summed
// from +0 in order of j, each divided by the sum; 0 above the diagonal.
void causal_softmax(float* s, float* p, std::ptrdiff_t t, float scale);

// Its backward: dp (t, t), the gradient for the weights p, becomes the gradient for the
// unscaled scores: (p·(dp − Σ_j dp·p))·scale for j ≤ i, the sum term by term from its first
// over j ≤ i (the terms above the diagonal are ±0: without them the sum is the same but for the
// sign of a zero, which the products that read it skip or add to a sum begun at +0); 0 above.
void causal_softmax_backward(const float* p, float* dp, std::ptrdiff_t t, float scale);

// LayerNorm forward over rows of x (rows, c), row-major: mean[i] = Σ_j x_ij / c and
// var = Σ_j (x_ij − mean)² / c, each sum term by term; rstd[i] = 1/√(var + 1e-5) and
// h = ((x − mean)·rstd)·g + b, g and b (c).
void layernorm_forward(const float* x, std::ptrdiff_t rows, std::ptrdiff_t c, const float* g,
                       const float* b, float* h, float* mean, float* rstd);

// LayerNorm backward from the forward's x, mean and rstd: with x̂ = (x − mean)·rstd and
// d̂ = dh·g, dg += dh·x̂ and db += dh row by row, and dx += rstd·((d̂ − mean d̂) − x̂·mean(d̂·x̂)),
// the means' sums term by term.
void layernorm_backward(const float* x, const float* mean, const float* rstd, const float* g,
                        const float* dh, std::ptrdiff_t rows, std::ptrdiff_t c, float* dx,
                        float* dg, float* db);

// One AdamW step's numbers (gpt.hpp's AdamW): the moments' decay rates, their bias corrections
// c = 1 − β^step, the learning rate, ε, and the weight decay of the tensor at hand.
struct AdamWStep {
  double beta1, beta2, c1, c2, lr, eps, decay;
};

// The step for n parameters p from their gradients g, moments m and v updated in place; each
// in double as gpt.cpp's adamw_step writes it, two at a time.
void adamw(float* p, const float* g, float* m, float* v, std::ptrdiff_t n, const AdamWStep& s);

// x[j] = x[j] / d for j < n.
void divide(float* x, std::ptrdiff_t n, float d);

// GELU (tanh form) forward: t = tanh(s·(x + 0.044715·x·x·x)) and g = 0.5·x·(1 + t), s = √(2/π);
// t and g may not overlap x.
void gelu_forward(const float* x, float* t, float* g, std::ptrdiff_t n);

// GELU backward: d[j] ·= GELU's slope at x[j], from its t[j] (gelu_forward's).
void gelu_backward(const float* x, const float* t, float* d, std::ptrdiff_t n);

}  // namespace attention::fast
