#pragma once
// What a physics sees of the linear systems of a run (docs/systems.md): it
// declares each system once through a SystemRegistry and keeps the typed
// handle the declaration returns; each step it solves them through
// LinearSystems by that handle. A system's name is a label (the case key
// solver.<name>, table columns, messages), never how a solve finds it.
//
// The run's implementation is SystemSet (system_set.hpp: one solver per
// system, autopilots, shadows, dumps, checksums, the step's accounting);
// tests and the first step's solver check have their own.
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <utility>

#include "solvers/core/array.hpp"
#include "solvers/dist/row_distribution.hpp"
#include "solvers/krylov/solve_stats.hpp"
#include "solvers/matrix/bsr.hpp"
#include "solvers/systems/step_clock.hpp"

namespace tb::systems {

// A linear system of the run: its place in the order of declaration.
class SystemId {
 public:
  constexpr SystemId() = default;
  constexpr explicit SystemId(int index) : index_(index) {}
  constexpr int index() const { return index_; }
  constexpr bool valid() const { return index_ >= 0; }
  friend constexpr bool operator==(SystemId, SystemId) = default;

 private:
  int index_ = -1;
};

// How far a solution x of a system would carry the physics' nonlinear
// iteration: the factor by which that update would cut its residual (below 1:
// progress; +inf: a non-physical state; NaN: cannot tell). Asked from within a
// solve of the system, so it must not solve that system itself. The solver
// autopilot weighs its candidates' costs with it (AutopilotSpec::progress).
class ProgressProbe {
 public:
  virtual ~ProgressProbe() = default;
  virtual const char* name() const = 0;  // what it measures, for messages
  virtual double progress(std::span<const double> x) = 0;
};

struct SystemDeclaration {
  std::string name;  // the label: "momentum", "pressure", "flow", ...
  // A solve stopped at its iteration limit after reducing the residual is an
  // acceptable step rather than a failed solve: an inexact Newton step, as
  // seed 001's pseudo-time method takes (FGMRES "up to a maximum of 60
  // iterations", §6).
  bool accepts_iteration_limit = false;
  // How far a solution goes (the autopilot's progress=on); null: the physics cannot tell.
  // The probe outlives the systems it is declared with.
  ProgressProbe* probe = nullptr;
  // In a decomposed run whose physics assembles the system's rows split
  // (tb-comp2d's pieces, tb-incomp's slabs): the rest of this rank's rows,
  // beside the local block (owned rows and columns, numbered from 0) each
  // solve gets, kept and refilled by the physics for the whole run and read
  // there by the solvers (no split copy per rank). No blocks: rows in global columns.
  dist::OffRankRows split_rows;

  // A system with that name and the defaults above.
  static SystemDeclaration named(std::string name) {
    SystemDeclaration d;
    d.name = std::move(name);
    return d;
  }
};

// Where the physics declares its systems, once, before the first step.
class SystemRegistry {
 public:
  virtual ~SystemRegistry() = default;
  virtual SystemId declare(const SystemDeclaration& declaration) = 0;
};

// A view of a system's values in the library's device matrix, for a physics
// that assembles on the device: `count` doubles at `values` in device memory
// (BsrMatrix::values' order on the declared pattern), written in place; for
// split rows (SystemDeclaration::split_rows) the off-rank blocks' too, on
// their pattern, which the solvers then read from here, not from the
// declaration's host matrix.
struct DeviceValues {
  double* values = nullptr;
  std::size_t count = 0;
  double* off_rank_values = nullptr;
  std::size_t off_rank_count = 0;
};

class LinearSystems {
 public:
  virtual ~LinearSystems() = default;
  // Solves A x = b for system s with values filled on the host; x holds the
  // initial guess on entry. In a decomposed run (under mpiexec) every rank
  // calls it at once with its own block rows of A (global block columns, rank
  // r's rows after rank r-1's; or their owned columns alone where the
  // declaration names the rest, SystemDeclaration::split_rows) and its own
  // entries of b and x.
  virtual SolveStats solve(SystemId s, const BsrMatrix& a, std::span<const double> b, std::span<double> x) = 0;
  // From the next solve of s on, until called again: its solves precondition
  // an outer iteration (on), each stopped after at most max_iterations
  // iterations where its specification allows more (0: its own maxit), and a
  // solve that stops short of its tolerance is the outer iteration's to judge
  // (no warning; its final residual the method's estimate, not recomputed:
  // LinearSolver::recompute_final_residual). tb-comp2d's matrix-free steps
  // (jacobian.matrix_free_inner_maxit).
  virtual void precondition_outer(SystemId s, bool on, int max_iterations) = 0;

  // Values written on the device (device assembly). The pattern of s (row_ptr,
  // col_idx and block size of `pattern`; its values are not read), set once
  // per pattern: the device matrix is laid out and analysed on it.
  virtual void set_pattern(SystemId s, const BsrMatrix& pattern);
  // The device matrix's values, to be written in place; then values_written()
  // before the next solve. Valid until the pattern changes.
  virtual DeviceValues device_values(SystemId s);
  // The values in the device matrix are new: the solvers refresh on the next
  // solve by this, with no comparison of patterns or values.
  virtual void values_written(SystemId s);
  // Solves with the values last written on the device.
  virtual SolveStats solve(SystemId s, std::span<const double> b, std::span<double> x);
  // The same with b and x on a backend (a physics whose state lives on the
  // device): they stay there where the solver runs there.
  virtual SolveStats solve(SystemId s, const Vector& b, Vector& x);

  // The step's clock, which the physics charges with its assembly
  // (AssemblyTimer); null where no accounting is kept.
  virtual StepClock* step_clock() { return nullptr; }
};

// Charges the physics' assembly of systems (matrix values and right-hand
// sides) to the step's clock until it goes out of scope.
class AssemblyTimer {
 public:
  explicit AssemblyTimer(LinearSystems& systems) {
    if (StepClock* clock = systems.step_clock()) scope_.emplace(*clock, Account::assembly);
  }

 private:
  std::optional<StepClock::Scope> scope_;
};

}  // namespace tb::systems
