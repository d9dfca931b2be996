#pragma once
// The reference every analytic Jacobian of the compressible room is checked
// against: central differences, step 1e-6 (1 + |s_m|) per component.
#include <cmath>

#include "physics/compressible/gas.hpp"

namespace tb::test {

// d f / d s, column m from the central difference in the m-th component of s.
template <class F>
compressible::Block finite_difference(const compressible::State& s, F f) {
  using compressible::num_vars;
  compressible::Block j{};
  for (int m = 0; m < num_vars; ++m) {
    const double h = 1e-6 * (1.0 + std::abs(s[m]));
    compressible::State plus = s, minus = s;
    plus[m] += h, minus[m] -= h;
    const compressible::State fp = f(plus), fm = f(minus);
    for (int k = 0; k < num_vars; ++k) j[k * num_vars + m] = (fp[k] - fm[k]) / (2.0 * h);
  }
  return j;
}

}  // namespace tb::test
