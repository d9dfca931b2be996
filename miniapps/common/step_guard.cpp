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

std::string StepGuard::check_value(long step, const std::string& kind, const std::string& name, double value,
                                   bool bounded) {
  const std::string what = "step " + std::to_string(step) + ": " + kind + " '" + name + "' ";
  if (!std::isfinite(value)) return what + "is not finite (" + number(value) + ")";
  if (!bounded) return {};
  const double v = std::abs(value);
  GuardRecord::Reference& ref = record_.reference[kind + name];
  // From the run's second step on, against the largest value of its first
  // steps so far: a blow-up shows within a few steps, whatever came before.
  if (limits_.max_growth > 0.0 && ref.largest > 0.0 && v > limits_.max_growth * ref.largest) {
    const std::string steps = ref.first == ref.last
                                  ? "step " + std::to_string(ref.first)
                                  : "steps " + std::to_string(ref.first) + "-" + std::to_string(ref.last);
    return what + "= " + number(value) + " has grown past " + number(limits_.max_growth) +
           " times its largest value in " + steps + " (" + number(ref.largest) + "; run.max_growth)";
  }
  if (record_.checked <= limits_.reference_steps) {
    if (ref.first == 0) ref.first = step;
    ref.last = step;
    ref.largest = std::max(ref.largest, v);
  }
  return {};
}

std::string StepGuard::check(long step, const StepResult& res,
                             const std::vector<std::pair<std::string, double>>& magnitudes,
                             const std::vector<SolveRecord>& driver) {
  ++record_.checked;
  for (std::size_t i = 0; i < res.residuals.size(); ++i) {
    const auto& [name, value] = res.residuals[i];
    if (std::string why = check_value(step, "residual", name, value, i < res.growth_bounded); !why.empty()) return why;
  }
  for (const auto& [name, value] : magnitudes)
    if (std::string why = check_value(step, "state", name, value, true); !why.empty()) return why;
  std::string systems;  // the systems whose solve failed in this step
  const SolveRecord* failed = nullptr;
  for (const auto& r : driver) {
    if (r.accepted) continue;
    if (!failed) failed = &r;
    if (systems.find("'" + r.system + "'") == std::string::npos)
      systems += (systems.empty() ? "'" : ", '") + r.system + "'";
  }
  record_.failed_in_a_row = failed ? record_.failed_in_a_row + 1 : 0;
  if (failed && limits_.max_failed_steps > 0 && record_.failed_in_a_row >= limits_.max_failed_steps)
    return "step " + std::to_string(step) + ": a solve failed in " + std::to_string(record_.failed_in_a_row) +
           " steps in a row (run.max_failed_steps = " + std::to_string(limits_.max_failed_steps) +
           "); failed in this step: " + systems + "; first: " + failed->stats.line();
  return {};
}

}  // namespace tb::harness
