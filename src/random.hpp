// random.hpp: the core's one seeded random stream, splitmix64, written out so that native and
// WASM builds draw the same numbers on every platform: dropout's cells, and the unit-variance
// q and k of the √d_k lab.
#pragma once

#include <cmath>
#include <cstdint>

namespace attention {

class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}

  // In [0, 1), from the top 53 bits of the next number.
  double uniform() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return static_cast<double>(z >> 11) * 0x1.0p-53;
  }

  // N(0, 1) by Box–Muller, from two uniforms (the first in (0, 1], so that its log is finite).
  double normal() {
    constexpr double kPi = 3.14159265358979323846;
    const double u1 = 1.0 - uniform();
    const double u2 = uniform();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * kPi * u2);
  }

 private:
  std::uint64_t state_;
};

}  // namespace attention
