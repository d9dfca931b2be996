#pragma once
// The stopping rules of a Krylov iteration (KrylovMethod::check) as one loop
// body for the host and a device: GMRES with its scalars on the backend tests
// each iteration where the iteration runs (gmres_scalars.hpp) and must stop
// where the host test would. The clock limit (SolveLimit::seconds) is the
// host's alone.
#include <cmath>

#include "solvers/core/host_device.hpp"
#include "solvers/krylov/solve_stats.hpp"

namespace tb {

// The thresholds of one solve, each product formed once as check() forms it.
struct StopRule {
  double atol = 0.0;
  double rtol_residual = 0.0;  // rtol times the norm it is relative to
  double dtol_residual = 0.0;  // dtol times ||r0||
  int stagnation_window = 0;
  int maxit = 0;  // the smaller of StopCriteria::maxit and SolveLimit::iterations
};

// What rtol is relative to. A time loop hands each solve the previous step's
// solution: relative to ||b - A x0|| a solve near a steady state still cuts an
// already small residual by rtol (as many iterations as a cold start);
// relative to ||b|| it stops once the residual is as small as a cold start's
// would be, PETSc's default test (KSPConvergedDefault).
enum class RtolReference {
  initial_residual,  // ||b - A x0||
  rhs,               // ||b||; ||b - A x0|| where b = 0
};

// The norm rtol multiplies.
TB_HOST_DEVICE inline double rtol_base(RtolReference ref, double r0norm, double bnorm) {
  return ref == RtolReference::rhs && bnorm > 0.0 ? bnorm : r0norm;
}

// What a solve's thresholds are made of before ||r0|| is known.
struct StopFactors {
  double atol = 0.0;
  double rtol = 0.0;
  RtolReference relative_to = RtolReference::initial_residual;
  double rhs_norm = 0.0;  // ||b||, taken only where rtol is relative to it
  double dtol = 0.0;
  int stagnation_window = 0;
  int maxit = 0;
};

// The thresholds once ||r0|| is known: formed by the host (KrylovMethod::begin)
// or where GMRES's scalars are, from the same products.
TB_HOST_DEVICE inline StopRule rule_for(const StopFactors& f, double r0norm) {
  StopRule s;
  s.atol = f.atol;
  s.rtol_residual = f.rtol * rtol_base(f.relative_to, r0norm, f.rhs_norm);
  s.dtol_residual = f.dtol * r0norm;
  s.stagnation_window = f.stagnation_window;
  s.maxit = f.maxit;
  return s;
}

// The reason iteration `it` with residual norm rnorm stops, or not_run; best
// and best_it track the stagnation test's best residual (it = 0 sets them).
TB_HOST_DEVICE inline StopReason stop_test(double rnorm, int it, const StopRule& s, double& best, int& best_it) {
  if (!std::isfinite(rnorm)) return StopReason::non_finite;
  if (rnorm <= s.atol) return StopReason::converged_atol;
  if (rnorm <= s.rtol_residual) return StopReason::converged_rtol;
  if (rnorm > s.dtol_residual) return StopReason::diverged;
  if (it == 0 || rnorm < 0.999 * best) {
    best = rnorm;
    best_it = it;
  } else if (s.stagnation_window > 0 && it - best_it >= s.stagnation_window) {
    return StopReason::stagnation;
  }
  if (it >= s.maxit) return StopReason::max_iterations;
  return StopReason::not_run;
}

}  // namespace tb
