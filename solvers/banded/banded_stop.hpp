#pragma once
// The stopping rule of seed 004's solvers: Algorithm 1 stops when
// ||r||_max <= eps or after i_max iterations; the 2-norm rules of the other
// Krylov methods (rtol, atol, dtol) apply as well, so a banded solver can
// replace bicgstab+jacobi in a harness with the same tolerance.
#include <chrono>
#include <vector>

#include "solvers/krylov/krylov_method.hpp"

namespace tb::banded {

struct BandedStop {
  StopCriteria krylov;    // rtol, atol, maxit (= i_max), dtol; no stagnation window
  double eps = 0.0;       // ||r||_max <= eps; 0 = off
  double rhs_norm = 0.0;  // ||b|| of the solve running, where rtol is relative to it (krylov.relative_to)
  // A limit on the solves that follow besides the rules above (the autopilot's
  // probes and start-up race), and the start of the solve it counts from.
  SolveLimit limit;
  std::chrono::steady_clock::time_point started;
};

// The limit with what it cannot do taken out: iterations at or above maxit
// (the rule itself), and seconds where the solve spans ranks (each rank's
// clock would stop it at another iteration, and the ranks' reductions would
// part). Returns the limit kept; none: {}.
SolveLimit applicable_limit(const BandedStop& s, SolveLimit l, bool spans_ranks);

// The 2-norm at or below which a solve from ||r0|| has converged (atol, rtol).
double target_residual(const BandedStop& s, double r0norm);

// Records ||r||_2 in the history and returns the stop reason, or not_run to go on.
StopReason check_stop(const BandedStop& s, double rmax, double rnorm, double r0norm, int it,
                      std::vector<double>& history, std::string& detail);

}  // namespace tb::banded
