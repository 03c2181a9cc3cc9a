// kernel.hpp: the fast float32 path of attend_batched, one head at a time. The readable
// reference is compute() in attention.cpp; this computes the same softmax(Q·Kᵀ·scale)·V with
// register-blocked SIMD micro-kernels (simd.hpp) and a base-2 exp.
//
// Two kernels: without the weights, a fused one (online softmax, key tiles outer), whose memory
// is a fixed set of tiles plus two numbers per query row; with the weights, a blocked 3-pass
// one (scores, softmax, weights·V) that writes the scores straight into the caller's weights.
// Under a causal mask, tiles that are wholly masked are skipped. Explicit masks and dropout are
// not handled here: attend_batched runs those on the reference.
#pragma once

#include <cstdint>

namespace attention::fast {

struct Dims {
  std::int64_t n_q = 0, n_k = 0, d_k = 0, d_v = 0;
  bool causal = false;   // query i sees keys 0..i
  bool weights = false;  // also write the (n_q, n_k) weights
};

// The workspace one head needs, in floats, for the caller to allocate (16-byte aligned) and
// pass to every head.
std::int64_t workspace_floats(const Dims& dims);

// What went wrong in a head whose inputs are finite: the first cell (0-based) whose arithmetic
// overflows float32, as the reference would meet it.
struct Overflow {
  enum class Step { kNone, kScores, kScaled, kOutput } step = Step::kNone;
  std::int64_t row = 0, col = 0;
  bool negative = false;  // overflows to −Infinity
};

struct Head {
  const float* q = nullptr;  // (n_q, d_k)
  const float* k = nullptr;  // (n_k, d_k)
  const float* v = nullptr;  // (n_k, d_v)
  float* output = nullptr;   // (n_q, d_v)
  float* weights = nullptr;  // (n_q, n_k) when dims.weights
};

enum class Outcome {
  kDone,
  kNotFinite,  // an input is NaN or infinite: the caller finds and names it
  kOverflow,   // see overflow
};

// One head: q, k, v in, output (and weights) out. `workspace` holds workspace_floats(dims).
// Inputs are not checked beforehand: a NaN or infinite input is reported as kNotFinite.
Outcome attend_head(const Head& head, const Dims& dims, double scale, float* workspace,
                    Overflow& overflow);

// A double as float32 holds it: rounded, and ±Infinity past its range (FLT_MAX and half an
// ulp), where a plain cast would be undefined behaviour.
inline float to_float32(double x) {
  constexpr double kPast = 0x1.ffffffp127;
  if (x >= kPast) return __builtin_huge_valf();
  if (x <= -kPast) return -__builtin_huge_valf();
  return static_cast<float>(x);
}

// 2^x for x ≤ 0, four lanes at once: within about 1 ulp (the model's kernels in
// gpt_kernel.cpp), and the attention softmax's shorter one, within a relative 6e-7 (for their
// tests).
void exp2_negative(const float* x, float* out, std::int64_t n);
void exp2_negative_short(const float* x, float* out, std::int64_t n);

}  // namespace attention::fast
