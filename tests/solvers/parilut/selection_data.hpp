#pragma once
// Test data for the selection tests, host and GPU: magnitudes with a chosen
// number of distinct values, and the answer by std::nth_element.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <random>
#include <vector>

namespace tb::test {

// n values with `distinct` different magnitudes (many ties when few).
inline std::vector<double> magnitudes(std::size_t n, int distinct, unsigned seed) {
  std::mt19937_64 gen(seed);
  std::uniform_int_distribution<int> d(0, distinct - 1);
  std::vector<double> v(n);
  for (double& e : v) e = std::ldexp(double(d(gen)) + 0.5, -7);
  return v;
}

inline double nth(std::vector<double> v, std::size_t k) {
  std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(k), v.end());
  return v[k];
}

}  // namespace tb::test
