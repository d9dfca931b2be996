#pragma once
// The harness side of LinearSystems: one driver solver per linear system and the
// shadow solvers beside it. Symbolic set-up runs when a system's pattern is new,
// numeric update otherwise. Where a result uses it (shadows, dumped systems,
// run.checksums for restart verification) each solve is recorded with a checksum
// of the matrix values, right-hand side and initial guess, so tables can prove
// that the shadows saw exactly the driver's systems; elsewhere it costs nothing.
#include <filesystem>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "autopilot_slot.hpp"
#include "command_line.hpp"
#include "simulation.hpp"
#include "solver_slot.hpp"
#include "solvers/krylov/linear_solver.hpp"

namespace tb::harness {

struct SolverTotals {
  long solves = 0;
  long iterations = 0;
  long failures = 0;  // solves not accepted (accepted_solve)
  double setup_seconds = 0.0;
  double solve_seconds = 0.0;
  void add(const SolveStats& s, bool accepted);
};

// A solve is accepted when it converged, or, for a system that accepts its
// iteration limit (Simulation::accepts_iteration_limit), when it stopped there
// with a smaller residual than it started from.
bool accepted_solve(const SolveStats& s, bool accepts_iteration_limit);

struct SolveRecord {
  std::string system;
  SolveStats stats;
  std::string checksum;   // "-" where no result uses it
  int candidate = -1;     // an autopilot's candidate that solved it (0-based); -1 without an autopilot
  bool probe = false;     // the autopilot probed every candidate on this system
  bool accepted = false;  // accepted_solve
};

class SystemSolvers final : public LinearSystems {
 public:
  // driver_specs: system -> specification; shadows apply to one system or all.
  // decomposed: the systems hold each rank's rows (Simulation's decomposed
  // contract); the drivers are make_partitioned_solver's, and autopilots and
  // shadows, one-process studies, are refused.
  SystemSolvers(const std::vector<std::string>& systems, const std::map<std::string, std::string>& driver_specs,
                const std::vector<StudySpec>& shadows, bool decomposed = false);

  // Systems of the listed steps are written as MatrixMarket into dir.
  void dump_steps(std::filesystem::path dir, std::vector<long> steps);
  // Solves of `system` stopped by their iteration limit with a reduced residual are accepted.
  // An autopilot of that system takes them as accepted too.
  void accept_iteration_limit(const std::string& system);
  // How far a solution of `system` carries the nonlinear iteration
  // (Simulation::update_progress), for that system's autopilot; unused without one.
  void measure_progress(const std::string& system, AutopilotSlot::Progress progress);
  // Checksums on every solve, not only with shadows or dumps.
  void record_checksums(bool on) { checksums_ = on; }
  // Seconds spent on checksums and dumps since the last begin_step.
  double bookkeeping_seconds() const { return bookkeeping_seconds_; }
  void begin_step(long step);
  // The step's end: autopilots take their costs (cfl: the step's, NaN where
  // none; residual_factor: StepResult's).
  void end_step(double cfl, double residual_factor = std::numeric_limits<double>::quiet_NaN());
  // Steps the run plans: an autopilot amortises set-ups over them until a pattern changes.
  void plan_steps(long steps);
  SolveStats solve(const std::string& system, const BsrMatrix& a, std::span<const double> b,
                   std::span<double> x) override;
  // The driver's (or the autopilot's candidates') and the shadows' solves of the system.
  void cap_iterations(const std::string& system, int max_iterations) override;
  // The driver of a decomposed run takes the physics' split rows
  // (Simulation::split_rows; make_partitioned_solver's solver), before the first solve.
  void take_split_rows(const std::string& system, dist::OffRankRows off);

  const std::vector<SolveRecord>& driver_records() const { return driver_records_; }
  // [shadow index] -> this step's records.
  const std::vector<std::vector<SolveRecord>>& shadow_records() const { return shadow_records_; }
  const std::vector<StudySpec>& shadows() const { return shadows_; }

  // Seconds of this step's autopilot probes (candidates not in charge).
  double probe_seconds() const;
  std::vector<AutopilotReport> autopilot_reports() const;
  // The autopilots' decision state, for the checkpoint ("" without autopilots).
  std::string save_autopilots() const;
  void load_autopilots(const std::string& state);

 private:
  SolverSlot& driver(const std::string& system);

  SolveRecord record(const std::string& system, SolveStats st, const std::string& checksum) const;

  std::vector<std::string> systems_;
  std::vector<std::string> limit_accepted_;
  std::map<std::string, SolverSlot> drivers_;
  std::map<std::string, std::unique_ptr<AutopilotSlot>> autopilots_;  // systems whose solver is an autopilot
  std::vector<StudySpec> shadows_;
  std::vector<std::map<std::string, SolverSlot>> shadow_slots_;
  std::vector<double> shadow_x_;
  std::vector<SolveRecord> driver_records_;
  std::vector<std::vector<SolveRecord>> shadow_records_;
  std::filesystem::path dump_dir_;
  std::vector<long> dump_steps_;
  long step_ = 0;
  bool checksums_ = false;
  double bookkeeping_seconds_ = 0.0;
};

// XXH3 (64 bits) over the bytes of the matrix values, b and x0, as 16 hex digits.
std::string system_checksum(const BsrMatrix& a, std::span<const double> b, std::span<const double> x0);
// One checksum for several solves of a step (steps.csv's folded row): XXH3 over
// theirs in order; the one itself for a single solve, "-" where none was computed.
std::string folded_checksum(std::span<const std::string> checksums);

}  // namespace tb::harness
