#include "solver_check.hpp"

#include <set>

#include "loop_settings.hpp"
#include "physics/step_failure.hpp"
#include "solvers/core/backend.hpp"
#include "solvers/core/error.hpp"
#include "solvers/factory/partitioned_solver.hpp"
#include "solvers/factory/registry.hpp"
#include "solvers/factory/solver_communicator.hpp"
#include "solvers/factory/spec.hpp"
#include "solvers/systems/autopilot_spec.hpp"

namespace tb::harness {

using systems::autopilot_on_ranks_refusal;
using systems::is_autopilot_spec;
using systems::parse_autopilot_spec;

namespace {

// Thrown by the probe once every system has been set up on: the rest of the
// throw-away step is not needed.
struct EverySystemSeen {};

std::string describe(const BsrMatrix& a) {
  return "block size " + std::to_string(a.block_size) + ", " + std::to_string(a.block_rows) + " block rows";
}

// backend=cuda on a machine without a device: said as such, not as the
// allocation that fails at set-up.
bool wants_absent_device(const std::string& spec) { return asks_for_cuda(spec) && cuda_device_count() == 0; }

// The reason a solver cannot take the matrix, or "" when its set-up succeeds.
// Decomposed: `a` is this rank's rows, the set-up collective (partitioned_solver.hpp),
// split where off.blocks is set (SystemDeclaration::split_rows).
std::string set_up_refusal(const std::string& spec, const BsrMatrix& a, bool decomposed, dist::OffRankRows off) {
  try {
    if (wants_absent_device(spec)) return "backend=cuda: " + cuda_unavailable_reason();
    if (decomposed) {
      auto solver = make_partitioned_solver(partitioned_form(spec, solver_communicator()->size()));
      if (off.blocks && !take_split_rows(*solver, off)) return "internal: split rows on one process";
      solver->setup(a);
    } else {  // the operator borrows a, which outlives the check: no copy of it in the check's peak
      make_solver(spec)->setup(a, BsrOperator::Storage::borrow);
    }
  } catch (const Error& e) {
    return e.what();
  }
  return {};
}

void check_on(const SolverToCheck& s, const BsrMatrix& a, bool decomposed, dist::OffRankRows off) {
  auto refuse = [&](const std::string& why) {
    return Error((s.place.empty() ? "" : s.place + ": ") + "solver." + s.system + ": given \"" + s.spec + "\"" +
                 (s.place.empty() ? " (the default)" : "") + ", allowed a solver that takes the linear system '" +
                 s.system + "' (" + describe(a) + "): " + why);
  };
  if (decomposed && is_autopilot_spec(s.spec)) throw refuse(autopilot_on_ranks_refusal);
  if (s.autopilot_allowed && is_autopilot_spec(s.spec)) {
    // The autopilot refuses the candidates that cannot take the system and
    // goes on with the others (autopilot_slot.cpp); with none left it cannot run.
    // Every candidate is set up here, as a plain specification is: a GPU
    // candidate's first use of the device (its context, about 0.2 s on an
    // H100) then falls outside the loop's timings, as it does for a GPU solver
    // run alone, and does not count against it in the autopilot's costs.
    std::string reasons;
    bool any = false;
    for (const auto& candidate : parse_autopilot_spec(s.spec).candidates) {
      const std::string why = set_up_refusal(candidate, a, false, {});
      if (why.empty())
        any = true;
      else
        reasons += (reasons.empty() ? "" : "; ") + candidate + ": " + why;
    }
    if (!any) throw refuse("every autopilot candidate was refused: " + reasons);
    return;
  }
  if (const std::string why = set_up_refusal(s.spec, a, decomposed, off); !why.empty()) throw refuse(why);
}

// Stands in for the run's systems during the throw-away first step: sets
// every specification up on the first matrix of its system and leaves x as the
// initial guess (the step's later systems have the same format whatever x is).
class FirstStepProbe final : public systems::SystemRegistry, public systems::LinearSystems {
 public:
  FirstStepProbe(const std::vector<SolverToCheck>& solvers, bool decomposed)
      : solvers_(solvers), decomposed_(decomposed) {}

  systems::SystemId declare(const systems::SystemDeclaration& d) override {
    declared_.push_back(d);
    waiting_.insert(int(declared_.size()) - 1);
    return systems::SystemId(int(declared_.size()) - 1);
  }
  SolveStats solve(systems::SystemId s, const BsrMatrix& a, std::span<const double> b, std::span<double> x) override {
    (void)b, (void)x;
    if (waiting_.erase(s.index()) > 0) {
      const systems::SystemDeclaration& d = declared_.at(std::size_t(s.index()));
      for (const auto& c : solvers_)
        if (c.system == d.name) check_on(c, a, decomposed_, d.split_rows);
      if (waiting_.empty()) throw EverySystemSeen{};
    }
    SolveStats st;
    st.solver = "first-step check";
    st.reason = StopReason::converged_atol;
    return st;
  }
  // The probe sets solvers up and solves nothing: the role of a solve changes neither.
  void precondition_outer(systems::SystemId, bool, int) override {}

 private:
  const std::vector<SolverToCheck>& solvers_;
  std::vector<systems::SystemDeclaration> declared_;
  std::set<int> waiting_;
  bool decomposed_;
};

}  // namespace

bool asks_for_cuda(const std::string& spec) {
  if (is_autopilot_spec(spec)) {
    for (const auto& candidate : parse_autopilot_spec(spec).candidates)
      if (asks_for_cuda(candidate)) return true;
    return false;
  }
  return names_param(parse_spec(spec), "backend", "cuda");
}

std::vector<SolverToCheck> solvers_of_run(const MiniappDescription& app, const CaseConfig& config,
                                          const RunOptions& options) {
  std::vector<SolverToCheck> out;
  for (const auto& system : app.systems)
    out.push_back({system, config.text("solver." + system), config.origin("solver." + system)});
  auto add_study = [&](const std::string& option, const std::string& text, bool autopilot_allowed) {
    const StudySpec study = parse_study_spec(text, app.systems);
    for (const auto& system : app.systems)
      if (study.system.empty() || study.system == system)
        out.push_back({system, study.spec, option, autopilot_allowed});
  };
  for (const auto& text : options.shadow) add_study("--shadow", text, false);
  for (const auto& text : options.ab) add_study("--ab", text, true);
  return out;
}

void check_solvers_on_first_step(const MiniappDescription& app, const CaseConfig& config,
                                 const std::vector<SolverToCheck>& solvers) {
  // The probe stands in for host systems: under run.backend = cuda the step
  // would assemble on the device into systems the probe does not hold. The
  // systems' formats are the same either way, and each solver is still set up
  // where its specification says.
  CaseConfig on_host = config;
  on_host.set("run.backend", "host", "the first-step check");
  auto sim = app.make(on_host);
  FirstStepProbe probe(solvers, decomposed_run(app, config));
  sim->declare_systems(probe);
  try {
    sim->advance(probe);
  } catch (const EverySystemSeen&) {
  } catch (const StepFailure&) {
    // A step the physics cannot complete is the run's to report (exit 1), not bad input.
  }
}

}  // namespace tb::harness
