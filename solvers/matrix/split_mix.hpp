#pragma once
// SplitMix64 (Steele, Lea and Flood 2014): a fixed, library-independent
// sequence, so a seed names the same generated matrix on every compiler and
// platform (std::uniform_real_distribution is not specified bit for bit).
#include <cstdint>

namespace tb {

class SplitMix {
 public:
  explicit SplitMix(std::uint64_t seed) : s_(seed * 0x9E3779B97F4A7C15ull + 1) {}
  double uniform(double lo, double hi) { return lo + (hi - lo) * double(next() >> 11) * 0x1.0p-53; }

 private:
  std::uint64_t next() {
    std::uint64_t z = (s_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  std::uint64_t s_;
};

}  // namespace tb
