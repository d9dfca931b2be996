#pragma once
// Reproducible random test data.
#include <random>
#include <vector>

namespace tb::test {

// n values uniform in [-1, 1), the same for a given seed on every platform run.
inline std::vector<double> random_vector(std::size_t n, unsigned seed) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  std::vector<double> v(n);
  for (double& e : v) e = d(gen);
  return v;
}

}  // namespace tb::test
