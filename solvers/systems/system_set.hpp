#pragma once
// The linear systems of a run (docs/systems.md): each declared once by the
// physics (SystemRegistry) and solved each step by its handle
// (LinearSystems). A system has one driver solver (or an autopilot over
// several candidates), shadow solvers beside it on the identical systems, and
// records of every solve. Symbolic set-up runs when a system's pattern is
// new, a numeric refresh when its values change, nothing otherwise. Where a
// result uses it (shadows, dumped systems, checksums for restart
// verification) each solve is recorded with a checksum of the matrix values,
// right-hand side and initial guess, so tables can prove that the shadows saw
// exactly the driver's systems; elsewhere it costs nothing.
#include <filesystem>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "solvers/systems/autopilot_slot.hpp"
#include "solvers/systems/linear_systems.hpp"
#include "solvers/systems/solve_record.hpp"
#include "solvers/systems/solver_slot.hpp"
#include "solvers/systems/system_matrix.hpp"

namespace tb::systems {

// A solver run beside the drivers on the same systems: on one system, or on every one (system empty).
struct ShadowSpec {
  std::string system;
  std::string spec;
};

struct SystemSetOptions {
  std::map<std::string, std::string> specs = {};  // system name -> driver specification
  std::vector<ShadowSpec> shadows = {};
  // The systems hold each rank's rows (a decomposed run under mpiexec): the
  // drivers are make_partitioned_solver's, and autopilots and shadows,
  // one-process studies, are refused.
  bool decomposed = false;
  // A driver solve that failed (not accepted: SolverTotals; and does not
  // precondition an outer iteration) is reported on stderr by a process that speaks, as
  //   PROGRAM: step N: the SYSTEM solve did not converge: STATS
  std::string program = "tb";
  bool speaks = true;
  // Where systems whose values are written on the device keep their matrix
  // (set_pattern); null: the CUDA device, opened at the first set_pattern.
  DeviceStorage* device_storage = nullptr;
  // A decomposed run's drivers resident on this backend where their
  // specification names none (make_partitioned_solver's `resident`):
  // Backend::host is the tests' stand-in for the solves a method's
  // backend=cuda keeps on each rank's device.
  std::optional<Backend> resident_drivers = std::nullopt;
};

class SystemSet final : public SystemRegistry, public LinearSystems {
 public:
  explicit SystemSet(SystemSetOptions options);
  ~SystemSet() override;

  // Builds the system's driver (or autopilot) and shadows from the
  // specification of its name: a bad specification fails here, before the
  // first step. Throws tb::Error for a name without a specification.
  SystemId declare(const SystemDeclaration& declaration) override;
  SolveStats solve(SystemId s, const BsrMatrix& a, std::span<const double> b, std::span<double> x) override;
  void precondition_outer(SystemId s, bool on, int max_iterations) override;
  // Values written on the device (LinearSystems): the system's matrix kept by
  // a SystemMatrix, its driver refreshed by its generations. A driver that
  // refreshes in place on the device's side reads the values there (nothing
  // moves); any other takes them on the host, once per change of values
  // (SystemMatrix::on_host). Autopilots, shadows, checksums and dumps see
  // the system on the host, its values and vectors copied there.
  void set_pattern(SystemId s, const BsrMatrix& pattern) override;
  DeviceValues device_values(SystemId s) override;
  void values_written(SystemId s) override;
  SolveStats solve(SystemId s, std::span<const double> b, std::span<double> x) override;
  SolveStats solve(SystemId s, const Vector& b, Vector& x) override;
  // The step's clock: the physics charges its assembly, the systems their
  // set-ups, solves, shadows, probes and bookkeeping, the time loop the rest.
  StepClock* step_clock() override { return &clock_; }
  StepClock& clock() { return clock_; }

  int size() const { return int(systems_.size()); }
  const std::string& name(SystemId s) const;

  // Systems of the listed steps are written as MatrixMarket into dir.
  void dump_steps(std::filesystem::path dir, std::vector<long> steps);
  // Checksums on every solve, not only with shadows or dumps.
  void record_checksums(bool on) { checksums_ = on; }
  void begin_step(long step);
  // The step's end: autopilots take their costs (cfl: the step's, NaN where
  // none; residual_factor: the physics' nonlinear residual after the step over
  // before it, NaN where none).
  void end_step(double cfl, double residual_factor = std::numeric_limits<double>::quiet_NaN());
  // Steps the run plans: an autopilot amortises set-ups over them until a pattern changes.
  void plan_steps(long steps);

  const std::vector<SolveRecord>& driver_records() const { return driver_records_; }
  // [shadow index] -> this step's records.
  const std::vector<std::vector<SolveRecord>>& shadow_records() const { return shadow_records_; }
  const std::vector<ShadowSpec>& shadows() const { return shadows_; }

  // Seconds of this step's autopilot probes (candidates not in charge).
  double probe_seconds() const;
  std::vector<AutopilotReport> autopilot_reports() const;
  // The autopilots' decision state, for a checkpoint ("" without autopilots).
  std::string save_autopilots() const;
  void load_autopilots(const std::string& state);

 private:
  struct System;
  System& at(SystemId s);
  SystemMatrix& matrix_of(System& sys);
  SolveRecord record(const System& sys, SolveStats st, const std::string& checksum) const;
  // A solve of a's values; by: their generations where a is the system's SystemMatrix.
  SolveStats solve(System& sys, const BsrMatrix& a, std::span<const double> b, std::span<double> x,
                   const Generations* by);
  // A device-written system that goes through the host (an autopilot, shadows, checksums or a dump).
  bool through_host(const System& sys) const;
  // Records the driver's solve and says when it failed (not accepted: SolverTotals).
  SolveStats driver_solved(System& sys, SolveStats st, const std::string& checksum);
  void warn_unconverged(const System& sys, const SolveStats& st) const;

  SystemSetOptions options_;
  std::unique_ptr<DeviceStorage> own_storage_;  // the CUDA device, where no storage was given
  std::vector<std::unique_ptr<System>> systems_;
  std::vector<ShadowSpec> shadows_;
  std::vector<double> shadow_x_;
  std::vector<SolveRecord> driver_records_;
  std::vector<std::vector<SolveRecord>> shadow_records_;
  std::filesystem::path dump_dir_;
  std::vector<long> dump_steps_;
  long step_ = 0;
  bool checksums_ = false;
  StepClock clock_;
};

}  // namespace tb::systems
