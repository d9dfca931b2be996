#include "step_guard.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace tb::harness {

namespace {

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

}  // namespace

std::string StepGuard::check_value(long step, const std::string& kind, const std::string& name, double value) {
  const std::string what = "step " + std::to_string(step) + ": " + kind + " '" + name + "' ";
  if (!std::isfinite(value)) return what + "is not finite (" + number(value) + ")";
  const double v = std::abs(value);
  double& ref = reference_[kind + name];
  if (checked_ <= limits_.reference_steps) {
    ref = std::max(ref, v);
    return {};
  }
  if (limits_.max_growth > 0.0 && ref > 0.0 && v > limits_.max_growth * ref)
    return what + "= " + number(value) + " has grown past " + number(limits_.max_growth) +
           " times its largest value in the first " + std::to_string(limits_.reference_steps) + " steps (" +
           number(ref) + "; run.max_growth)";
  return {};
}

std::string StepGuard::check(long step, const StepResult& res,
                             const std::vector<std::pair<std::string, double>>& magnitudes,
                             const std::vector<SolveRecord>& driver) {
  ++checked_;
  for (const auto& [name, value] : res.residuals)
    if (std::string why = check_value(step, "residual", name, value); !why.empty()) return why;
  for (const auto& [name, value] : magnitudes)
    if (std::string why = check_value(step, "state", name, value); !why.empty()) return why;
  std::string systems;  // the systems whose solve failed in this step
  const SolveRecord* failed = nullptr;
  for (const auto& r : driver) {
    if (r.accepted) continue;
    if (!failed) failed = &r;
    if (systems.find("'" + r.system + "'") == std::string::npos)
      systems += (systems.empty() ? "'" : ", '") + r.system + "'";
  }
  failed_in_a_row_ = failed ? failed_in_a_row_ + 1 : 0;
  if (failed && limits_.max_failed_steps > 0 && failed_in_a_row_ >= limits_.max_failed_steps)
    return "step " + std::to_string(step) + ": a solve failed in " + std::to_string(failed_in_a_row_) +
           " steps in a row (run.max_failed_steps = " + std::to_string(limits_.max_failed_steps) +
           "); failed in this step: " + systems + "; first: " + failed->stats.line();
  return {};
}

}  // namespace tb::harness
