#pragma once
// Stops a run as soon as its state is no longer physical (docs/harness.md,
// "When a run stops early"): a residual (the physics' figures of a step:
// residuals, the update, a drag coefficient) or a state magnitude that is not
// finite or has grown past max_growth times its largest value in the run's
// first steps (the first reference_steps, or those before this one: the bound
// holds from the second step on; StepResult::growth_bounded says which of a
// step's figures it bounds), or driver solves that failed
// max_failed_steps steps in a row. check() names the step, the quantity and
// the system. A resumed run's guard starts from the record its checkpoint
// carries (guard_record.hpp).
#include <string>
#include <utility>
#include <vector>

#include "guard_record.hpp"
#include "simulation.hpp"
#include "solvers/systems/solve_record.hpp"

namespace tb::harness {

using systems::SolveRecord;

struct GuardLimits {
  double max_growth = 1e6;    // 0: no growth bound
  long max_failed_steps = 3;  // 0: never stop for failed solves
  long reference_steps = 5;   // the growth bound is relative to the largest value of (at most) these first steps
};

class StepGuard {
 public:
  explicit StepGuard(GuardLimits limits, GuardRecord record = {}) : limits_(limits), record_(std::move(record)) {}
  // Empty when the step is acceptable, else why the run must stop.
  std::string check(long step, const StepResult& res, const std::vector<std::pair<std::string, double>>& magnitudes,
                    const std::vector<SolveRecord>& driver);
  // Whether every driver solve of the last checked step converged.
  bool last_solves_converged() const { return record_.failed_in_a_row == 0; }
  // What a checkpoint carries.
  const GuardRecord& record() const { return record_; }

 private:
  // `bounded`: also against run.max_growth, else only finite.
  std::string check_value(long step, const std::string& kind, const std::string& name, double value, bool bounded);

  GuardLimits limits_;
  GuardRecord record_;
};

}  // namespace tb::harness
