#pragma once
// The stopping rule of seed 004's solvers: Algorithm 1 stops when
// ||r||_max <= eps or after i_max iterations; the 2-norm rules of the other
// Krylov methods (rtol, atol, dtol) apply as well, so a banded solver can
// replace bicgstab+jacobi in a harness with the same tolerance.
#include <vector>

#include "solvers/krylov/krylov_method.hpp"

namespace tb::banded {

struct BandedStop {
  StopCriteria krylov;  // rtol, atol, maxit (= i_max), dtol; no stagnation window
  double eps = 0.0;     // ||r||_max <= eps; 0 = off
};

// Records ||r||_2 in the history and returns the stop reason, or not_run to go on.
StopReason check_stop(const BandedStop& s, double rmax, double rnorm, double r0norm, int it,
                      std::vector<double>& history, std::string& detail);

}  // namespace tb::banded
