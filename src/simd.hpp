// simd.hpp: the few four-lane float operations the fast kernel is written in. Under Emscripten
// with -msimd128 each is one <wasm_simd128.h> intrinsic; elsewhere (the native build and its
// tests) the same names are GCC/Clang vector extensions, so one kernel source serves both.
#pragma once

#include <cstdint>

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#else
#include <cmath>
#include <cstring>
#endif

// Keeps clang from unrolling a hot loop: V8 has 16 SIMD registers, and an unrolled micro-kernel
// spills (docs/toolchain.md, "SIMD").
#if defined(__clang__)
#define ATTENTION_NO_UNROLL _Pragma("clang loop unroll(disable)")
#else
#define ATTENTION_NO_UNROLL _Pragma("GCC unroll 1")
#endif

// Keeps a function out of its callers, so that V8 compiles it on its own, soon after it gets hot.
#define ATTENTION_NOINLINE __attribute__((noinline))

namespace attention::simd {

#if defined(__wasm_simd128__)

using f32x4 = v128_t;

inline f32x4 load(const float* p) { return wasm_v128_load(p); }
inline void store(float* p, f32x4 a) { wasm_v128_store(p, a); }
inline f32x4 splat(float x) { return wasm_f32x4_splat(x); }
inline f32x4 load_splat(const float* p) { return wasm_v128_load32_splat(p); }
inline f32x4 add(f32x4 a, f32x4 b) { return wasm_f32x4_add(a, b); }
inline f32x4 sub(f32x4 a, f32x4 b) { return wasm_f32x4_sub(a, b); }
inline f32x4 mul(f32x4 a, f32x4 b) { return wasm_f32x4_mul(a, b); }
inline f32x4 div(f32x4 a, f32x4 b) { return wasm_f32x4_div(a, b); }
inline f32x4 abs(f32x4 a) { return wasm_f32x4_abs(a); }
// a with b's sign bit added: copysign(a, b) for a ≥ +0.
inline f32x4 or_sign(f32x4 a, f32x4 b) {
  return wasm_v128_or(a, wasm_v128_and(b, wasm_i32x4_splat(std::int32_t(0x80000000u))));
}
// All ones in each lane where a is finite (a − a is 0, not NaN), else zeros.
inline f32x4 finite_mask(f32x4 a) {
  return wasm_f32x4_eq(wasm_f32x4_sub(a, a), wasm_f32x4_splat(0.0f));
}
inline bool all_lanes(f32x4 mask) { return wasm_i32x4_all_true(mask); }
inline f32x4 and_mask(f32x4 a, f32x4 b) { return wasm_v128_and(a, b); }
// a < b ? b : a, lane by lane: one instruction, where IEEE max is several in V8.
inline f32x4 pmax(f32x4 a, f32x4 b) { return wasm_f32x4_pmax(a, b); }
// The float whose bits are (bits(a) + k) << 23: puts an integer held in a's low bits into the
// exponent field.
inline f32x4 shift_to_exponent(f32x4 a, std::int32_t k) {
  return wasm_i32x4_shl(wasm_i32x4_add(a, wasm_i32x4_splat(k)), 23);
}
inline float first(f32x4 a) { return wasm_f32x4_extract_lane(a, 0); }
inline float hsum(f32x4 a) {
  return (wasm_f32x4_extract_lane(a, 0) + wasm_f32x4_extract_lane(a, 1)) +
         (wasm_f32x4_extract_lane(a, 2) + wasm_f32x4_extract_lane(a, 3));
}
inline float hmax(f32x4 a) {
  const float x = wasm_f32x4_extract_lane(a, 0), y = wasm_f32x4_extract_lane(a, 1),
              z = wasm_f32x4_extract_lane(a, 2), w = wasm_f32x4_extract_lane(a, 3);
  const float xy = x < y ? y : x, zw = z < w ? w : z;
  return xy < zw ? zw : xy;
}

// Two doubles (a struct, so that its operations overload f32x4's).
struct f64x2 {
  v128_t v;
};
inline f64x2 splat(double x) { return {wasm_f64x2_splat(x)}; }
inline f64x2 add(f64x2 a, f64x2 b) { return {wasm_f64x2_add(a.v, b.v)}; }
inline f64x2 sub(f64x2 a, f64x2 b) { return {wasm_f64x2_sub(a.v, b.v)}; }
inline f64x2 mul(f64x2 a, f64x2 b) { return {wasm_f64x2_mul(a.v, b.v)}; }
inline f64x2 div(f64x2 a, f64x2 b) { return {wasm_f64x2_div(a.v, b.v)}; }
inline f64x2 sqrt(f64x2 a) { return {wasm_f64x2_sqrt(a.v)}; }
// a's lanes 0 and 1, or 2 and 3, as doubles (exactly)
inline f64x2 low_to_f64(f32x4 a) { return {wasm_f64x2_promote_low_f32x4(a)}; }
inline f64x2 high_to_f64(f32x4 a) {
  return {wasm_f64x2_promote_low_f32x4(wasm_i32x4_shuffle(a, a, 2, 3, 2, 3))};
}
// low's two doubles and high's rounded to float, in lanes 0, 1 and 2, 3
inline f32x4 to_f32(f64x2 low, f64x2 high) {
  return wasm_i32x4_shuffle(wasm_f32x4_demote_f64x2_zero(low.v),
                            wasm_f32x4_demote_f64x2_zero(high.v), 0, 1, 4, 5);
}

#else

typedef float f32x4 __attribute__((vector_size(16)));
typedef std::int32_t i32x4 __attribute__((vector_size(16)));

inline f32x4 load(const float* p) {
  f32x4 a;
  std::memcpy(&a, p, sizeof a);
  return a;
}
inline void store(float* p, f32x4 a) { std::memcpy(p, &a, sizeof a); }
inline f32x4 splat(float x) { return f32x4{x, x, x, x}; }
inline f32x4 load_splat(const float* p) { return splat(*p); }
inline f32x4 add(f32x4 a, f32x4 b) { return a + b; }
inline f32x4 sub(f32x4 a, f32x4 b) { return a - b; }
inline f32x4 mul(f32x4 a, f32x4 b) { return a * b; }
inline f32x4 div(f32x4 a, f32x4 b) { return a / b; }
inline f32x4 or_sign(f32x4 a, f32x4 b) {
  i32x4 x, y;
  std::memcpy(&x, &a, sizeof a);
  std::memcpy(&y, &b, sizeof b);
  x |= y & std::int32_t(0x80000000u);
  std::memcpy(&a, &x, sizeof a);
  return a;
}
inline f32x4 finite_mask(f32x4 a) {
  const i32x4 m = (a - a) == splat(0.0f);
  f32x4 out;
  std::memcpy(&out, &m, sizeof m);
  return out;
}
inline bool all_lanes(f32x4 mask) {
  i32x4 m;
  std::memcpy(&m, &mask, sizeof m);
  return (m[0] & m[1] & m[2] & m[3]) != 0;
}
inline f32x4 and_mask(f32x4 a, f32x4 b) {
  i32x4 x, y;
  std::memcpy(&x, &a, sizeof a);
  std::memcpy(&y, &b, sizeof b);
  x &= y;
  std::memcpy(&a, &x, sizeof a);
  return a;
}
inline f32x4 abs(f32x4 a) {
  i32x4 bits;
  std::memcpy(&bits, &a, sizeof a);
  bits &= 0x7fffffff;
  std::memcpy(&a, &bits, sizeof a);
  return a;
}
inline f32x4 pmax(f32x4 a, f32x4 b) { return a < b ? b : a; }
inline f32x4 shift_to_exponent(f32x4 a, std::int32_t k) {
  i32x4 bits;
  std::memcpy(&bits, &a, sizeof a);
  bits = (bits + k) << 23;
  std::memcpy(&a, &bits, sizeof a);
  return a;
}
inline float first(f32x4 a) { return a[0]; }
inline float hsum(f32x4 a) { return (a[0] + a[1]) + (a[2] + a[3]); }
inline float hmax(f32x4 a) {
  const float xy = a[0] < a[1] ? a[1] : a[0], zw = a[2] < a[3] ? a[3] : a[2];
  return xy < zw ? zw : xy;
}

typedef double f64x2_lanes __attribute__((vector_size(16)));
struct f64x2 {
  f64x2_lanes v;
};
inline f64x2 splat(double x) { return {f64x2_lanes{x, x}}; }
inline f64x2 add(f64x2 a, f64x2 b) { return {a.v + b.v}; }
inline f64x2 sub(f64x2 a, f64x2 b) { return {a.v - b.v}; }
inline f64x2 mul(f64x2 a, f64x2 b) { return {a.v * b.v}; }
inline f64x2 div(f64x2 a, f64x2 b) { return {a.v / b.v}; }
inline f64x2 sqrt(f64x2 a) { return {f64x2_lanes{std::sqrt(a.v[0]), std::sqrt(a.v[1])}}; }
inline f64x2 low_to_f64(f32x4 a) { return {f64x2_lanes{a[0], a[1]}}; }
inline f64x2 high_to_f64(f32x4 a) { return {f64x2_lanes{a[2], a[3]}}; }
inline f32x4 to_f32(f64x2 low, f64x2 high) {
  return f32x4{float(low.v[0]), float(low.v[1]), float(high.v[0]), float(high.v[1])};
}

#endif

inline f32x4 zero() { return splat(0.0f); }

}  // namespace attention::simd
