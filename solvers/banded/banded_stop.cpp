#include "banded_stop.hpp"

#include <algorithm>
#include <cmath>

namespace tb::banded {

double target_residual(const BandedStop& s, double r0norm) {
  return std::max(s.krylov.atol, s.krylov.rtol * rtol_base(s.krylov.relative_to, r0norm, s.rhs_norm));
}

StopReason check_stop(const BandedStop& s, double rmax, double rnorm, double r0norm, int it,
                      std::vector<double>& history, std::string& detail) {
  history.push_back(rnorm);
  if (!std::isfinite(rnorm) || !std::isfinite(rmax)) return StopReason::non_finite;
  if (rmax <= s.eps) {
    detail = "||r||_max <= eps";
    return StopReason::converged_atol;
  }
  if (rnorm <= s.krylov.atol) return StopReason::converged_atol;
  if (rnorm <= s.krylov.rtol * rtol_base(s.krylov.relative_to, r0norm, s.rhs_norm)) return StopReason::converged_rtol;
  if (rnorm > s.krylov.dtol * r0norm) return StopReason::diverged;
  if (it >= s.krylov.maxit) return StopReason::max_iterations;
  if (s.limit.iterations > 0 && it >= s.limit.iterations) return StopReason::max_iterations;
  if (s.limit.seconds > 0.0 && it > 0 &&
      std::chrono::duration<double>(std::chrono::steady_clock::now() - s.started).count() >= s.limit.seconds)
    return StopReason::max_iterations;
  return StopReason::not_run;
}

SolveLimit applicable_limit(const BandedStop& s, SolveLimit l, bool spans_ranks) {
  if (l.iterations >= s.krylov.maxit) l.iterations = 0;
  if (spans_ranks) l.seconds = 0.0;
  return l;
}

}  // namespace tb::banded
