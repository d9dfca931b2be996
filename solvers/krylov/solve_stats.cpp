#include "solve_stats.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "solvers/core/json.hpp"

namespace tb {

std::string_view to_string(StopReason r) {
  switch (r) {
    case StopReason::converged_rtol:
      return "converged_rtol";
    case StopReason::converged_atol:
      return "converged_atol";
    case StopReason::max_iterations:
      return "max_iterations";
    case StopReason::breakdown:
      return "breakdown";
    case StopReason::stagnation:
      return "stagnation";
    case StopReason::diverged:
      return "diverged";
    case StopReason::non_finite:
      return "non_finite";
    case StopReason::not_run:
      return "not_run";
  }
  return "unknown";
}

bool is_converged(StopReason r) { return r == StopReason::converged_rtol || r == StopReason::converged_atol; }

void SolveStats::take_estimate_as_final() {
  final_residual = residual_history.empty() ? initial_residual : residual_history.back();
  final_recomputed = false;
}

using json::number;
using json::quote;

std::string SolveStats::line() const {
  char buf[256];
  std::snprintf(buf, sizeof buf, "%s: %s after %d iterations, ||r||/||r0|| = %.3e, setup %.3e s, solve %.3e s",
                solver.c_str(), std::string(to_string(reason)).c_str(), iterations,
                initial_residual > 0 ? final_residual / initial_residual : final_residual, setup_seconds,
                solve_seconds);
  std::string s = buf;
  if (device_launches > 0) {
    std::snprintf(buf, sizeof buf, ", %ld device launches (%.3g an iteration, %.3g a preconditioner application)",
                  device_launches, double(device_launches) / std::max(1, iterations),
                  double(preconditioner_launches) / std::max(1L, preconditioner_applications));
    s += buf;
  }
  if (!final_recomputed) s += ", ||r|| the method's estimate";
  if (!detail.empty()) s += " (" + detail + ")";
  return s;
}

std::string SolveStats::json() const {
  std::ostringstream o;
  o << "{\"solver\": " << quote(solver) << ", \"reason\": " << quote(std::string(to_string(reason)))
    << ", \"converged\": " << (converged() ? "true" : "false") << ", \"iterations\": " << iterations
    << ", \"initial_residual\": " << number(initial_residual) << ", \"final_residual\": " << number(final_residual)
    << ", \"final_residual_recomputed\": " << (final_recomputed ? "true" : "false")
    << ", \"setup_seconds\": " << number(setup_seconds) << ", \"solve_seconds\": " << number(solve_seconds)
    << ", \"communication_seconds\": " << number(communication_seconds) << ", \"device_launches\": " << device_launches
    << ", \"preconditioner_applications\": " << preconditioner_applications
    << ", \"preconditioner_launches\": " << preconditioner_launches << ", \"detail\": " << quote(detail)
    << ", \"residual_history\": [";
  for (std::size_t i = 0; i < residual_history.size(); ++i)
    o << (i ? ", " : "") << json::number_exact(residual_history[i]);
  o << "]}";
  return o.str();
}

}  // namespace tb
