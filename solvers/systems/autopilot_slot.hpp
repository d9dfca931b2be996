#pragma once
// The autopilot on one linear system: a solver slot per candidate, the probes
// run as shadow solves on the loop's own system (each from a copy of the
// initial guess), the cost per step of each candidate with its set-up
// amortised over the steps between pattern changes, and the fallback when the
// one in charge fails. The decisions are AutopilotPolicy's (autopilot.hpp).
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "solvers/systems/autopilot_policy.hpp"
#include "solvers/systems/linear_systems.hpp"
#include "solvers/systems/solver_slot.hpp"

namespace tb::systems {

// What summary.json shows of one system's autopilot.
struct AutopilotReport {
  std::string system;
  AutopilotSpec spec;
  std::vector<std::string> refused;  // "candidate 2 (SPEC): why"
  // Deterministic mode: seconds per iteration, per numeric update and per
  // symbolic set-up of each candidate, calibrated once at start-up.
  std::vector<double> per_iteration, per_update, per_setup;
  std::vector<AutopilotProbe> probes;
  std::vector<AutopilotSwitch> switches;
  double probe_seconds = 0.0;      // shadow solves of the candidates not in charge, start-up included
  long fallbacks = 0;              // solves the one in charge failed and another took
  long fallbacks_from_probes = 0;  // of those, taken from a probe of the same solve: not solved again
  double krylov_mib = 0.0;         // the Krylov vectors the candidates hold: one workspace, shared
  // The probes' share of the linear cost as the budget reads it (AutopilotPolicy::within_budget).
  double budget_share = 0.0;
};

class AutopilotSlot {
 public:
  // Builds every candidate; a specification that does not parse is bad input
  // (tb::Error), one the registry cannot build is refused at the first solve.
  AutopilotSlot(std::string system, AutopilotSpec spec);
  // Steps of the run, for amortising a set-up before any pattern has changed.
  void plan_steps(long steps) { planned_steps_ = steps; }
  // The system accepts a solve stopped by its iteration limit with a reduced
  // residual (SystemDeclaration::accepts_iteration_limit): such a solve is not solved
  // again by the others (the policy still sees that it missed its tolerance).
  void accept_iteration_limit() { limit_ok_ = true; }
  // Every candidate's solves stop after at most n iterations (0: their own
  // maxit), from the next solve on (LinearSystems::precondition_outer): a solve
  // stopped there has met its own limit, not a probe's cut.
  void cap_iterations(int n);
  // How far a solution would carry the nonlinear iteration (the system's
  // ProgressProbe): asked on probe steps of every candidate whose solve ran to
  // its end, the one in charge too, for the policy's weights. Null: none.
  void measure_progress(ProgressProbe* probe) { progress_ = probe; }
  // The step's clock: the probes (start-up set-ups and calibration of the
  // candidates not in charge included) are charged as probing, the one in
  // charge and its fallbacks as linear set-up and solve.
  void use_clock(StepClock* clock);

  void begin_step(long step);
  // On probe steps the candidates to probe solve the system first, from the
  // same initial guess, each stopped once it cannot take the charge; then the
  // one in charge solves it; on failure (a solve not accepted: accepted_solve)
  // the others are tried from the same initial guess.
  SolveStats solve(const BsrMatrix& a, std::span<const double> b, std::span<double> x);
  // Feeds the step's costs (the slowest rank's, under MPI) and the step's
  // nonlinear residual factor (the physics' residual after the step over before it) to the policy.
  void end_step(double cfl, double residual_factor = std::numeric_limits<double>::quiet_NaN());

  // The candidate (0-based) that produced the last solution, and whether this step probes.
  int solved_by() const { return solved_by_; }
  bool probing() const { return probing_; }
  double step_probe_seconds() const { return step_probe_seconds_; }
  const AutopilotPolicy& policy() const { return policy_; }
  AutopilotReport report() const;

  std::string save() const;
  void load(const std::string& text);

 private:
  class Charge;
  void refuse(int k, const std::string& why);
  void start_up(const BsrMatrix& a, std::span<const double> b, std::span<const double> x0);
  void calibrate(const BsrMatrix& a, std::span<const double> b, std::span<const double> x0);
  // limit: a probe's (none by default); one that stops there is cut short.
  SolveStats run(int k, const BsrMatrix& a, std::span<const double> b, std::span<double> x, SolveLimit limit = {});
  // Where probing candidate k has cost budget (numeric update included):
  // deterministic mode, the iterations its calibration prices at that; timed
  // mode, those seconds less k's last update. No limit while budget is unknown.
  SolveLimit probe_limit(int k, double budget) const;
  // A solve's cost: timed mode, its seconds with the numeric update before it;
  // deterministic mode, the calibrated price of its iterations and update.
  // update_cost and iteration_cost are its two parts.
  double cost_of(int k, const SolveStats& st) const;
  double update_cost(int k, const SolveStats& st) const;
  double iteration_cost(int k, const SolveStats& st) const;
  // What the policy is told a solve's iterations cost: iteration_cost, and for
  // a solve that stopped at its own iteration limit (not cut short: run()
  // prices those at iteration_cost) where the system accepts it, that cost
  // carried to the tolerance at the rate the solve went (reach_factor), so
  // that a cheap iteration that does little does not look cheap where every
  // candidate stops at the limit (tb-comp2d's matrix-free steps). The update
  // is not carried: it is paid once whatever the iterations.
  double priced_iterations(int k, const SolveStats& st) const;
  // Candidate k's progress (measure_progress) for its solution x, where its solve counts.
  void ask_progress(int k, std::span<const double> x);
  void track_pattern(const BsrMatrix& a);
  double amortise_steps() const;

  std::string system_;
  AutopilotSpec spec_;
  AutopilotPolicy policy_;
  std::vector<SolverSlot> slots_;
  std::shared_ptr<KrylovWorkspace> krylov_ = std::make_shared<KrylovWorkspace>();  // the candidates' scratch vectors
  std::vector<std::string> refused_;
  std::vector<double> per_iteration_, per_update_, per_setup_;  // deterministic mode
  std::vector<double> setup_seconds_;                           // timed mode: each one's last symbolic set-up
  std::vector<double> last_update_;  // timed mode: each one's last numeric update, seconds (probe_limit)
  double last_in_charge_cost_ = std::numeric_limits<double>::quiet_NaN();  // cost_of the last solve in charge
  // This step: each candidate's cost so far (NaN: not run), iterations, failures.
  std::vector<double> step_cost_;
  std::vector<long> step_iterations_;
  std::vector<char> step_failed_;
  std::vector<double> step_progress_;  // NaN: not asked
  ProgressProbe* progress_ = nullptr;
  StepClock* clock_ = nullptr;
  std::vector<double> cost_;    // end_step's costs and failure flags, for the reduction over ranks
  std::vector<double> x0_, x_;  // the initial guess, and a probe's copy of it
  // This solve's probes that ran to an accepted end, with their solutions: a
  // fallback to one of them takes its solution (same system, same initial
  // guess, same solver) instead of solving again. Sized once; assign reuses them.
  std::vector<double> probe_cost_;         // this step's probe of each candidate, its iterations' cost (0: none)
  std::vector<double> probe_update_cost_;  // and its update's, for end_step
  std::vector<long> probe_iterations_;     // its iterations
  std::vector<long> step_runs_;            // solves each candidate ran this step (probe, in charge or fallback)
  long solves_this_step_ = 0;
  long step_new_matrices_ = 0;  // the step's later solves on values the one in charge had not factored
  int stand_in_ = -1;           // this step's later solves: the winner of the start-up race its one in charge lost
  std::vector<char> probe_accepted_;
  std::vector<SolveStats> probe_stats_;
  std::vector<std::vector<double>> probe_x_;
  std::vector<index_t> pattern_rows_, pattern_cols_;
  long step_ = 0;
  long planned_steps_ = 0;
  long pattern_start_ = 1;  // the step the current pattern appeared
  long pattern_changes_ = 0;
  long pattern_steps_ = 0;          // steps the earlier patterns lasted, summed
  bool values_vary_ = false;        // deterministic mode: values differ from the pattern's first
  std::uint64_t pattern_hash_ = 0;  // of the pattern's first values
  bool restored_ = false;           // state loaded from a checkpoint
  double pending_setup_ = 0.0;      // the start-up set-up of the one in charge, for its first solve
  // Each candidate's start-up set-up, counted as probing until it takes the
  // charge on that pattern: then it is the set-up of the one in charge.
  std::vector<double> startup_setup_;
  bool started_ = false;
  bool limit_ok_ = false;  // accept_iteration_limit
  bool probing_ = false;
  bool last_cut_ = false;             // the last run() stopped at its limit
  double last_cost_ = 0.0;            // the last run()'s cost as the policy is told it: the two parts below
  double last_update_cost_ = 0.0;     // update_cost
  double last_iteration_cost_ = 0.0;  // cut: iteration_cost, else priced_iterations
  int solved_by_ = -1;
  double step_probe_seconds_ = 0.0;
  double probe_seconds_ = 0.0;
  long fallbacks_ = 0;
  long fallbacks_from_probes_ = 0;
};

}  // namespace tb::systems
