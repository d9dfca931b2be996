#include "banded_stop.hpp"

#include <cmath>

namespace tb::banded {

StopReason check_stop(const BandedStop& s, double rmax, double rnorm, double r0norm, int it,
                      std::vector<double>& history, std::string& detail) {
  history.push_back(rnorm);
  if (!std::isfinite(rnorm) || !std::isfinite(rmax)) return StopReason::non_finite;
  if (rmax <= s.eps) {
    detail = "||r||_max <= eps";
    return StopReason::converged_atol;
  }
  if (rnorm <= s.krylov.atol) return StopReason::converged_atol;
  if (rnorm <= s.krylov.rtol * r0norm) return StopReason::converged_rtol;
  if (rnorm > s.krylov.dtol * r0norm) return StopReason::diverged;
  if (it >= s.krylov.maxit) return StopReason::max_iterations;
  return StopReason::not_run;
}

}  // namespace tb::banded
