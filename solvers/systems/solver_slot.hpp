#pragma once
// One solver on one linear system of a run: symbolic set-up when the pattern
// is new, numeric update when the values change, nothing otherwise.
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "solvers/krylov/linear_solver.hpp"
#include "solvers/systems/step_clock.hpp"
#include "solvers/systems/system_matrix.hpp"

namespace tb::systems {

enum class Refresh { none, numeric, symbolic };

struct SolverSlot {
  std::unique_ptr<LinearSolver> solver;
  std::vector<index_t> row_ptr, col_idx;  // the pattern set up last
  std::uint64_t factored_hash = 0;        // of the values factored last
  Generations factored;                   // of the values factored last, where refreshed by generation
  Refresh last_refresh = Refresh::none;   // what the last run() did before solving
  // A solver over the ranks of a decomposed run: set-up and update are
  // collective, so every rank does what the rank with the most to do needs (a
  // moving body changes the pattern of some ranks' rows only).
  bool spans_ranks = false;
  // At most this many iterations a solve (LinearSystems::precondition_outer); 0: the specification's maxit.
  int iteration_cap = 0;
  bool last_limited = false;  // a limit held the last run() (LinearSolver::limit took it)
  // The step's clock, charged with run()'s refresh as linear set-up and its
  // solve as linear solve (unless a held scope charges both); null: none.
  StepClock* clock = nullptr;
  // Brings the solver up to date with a, then solves from x, stopped sooner by
  // `limit` (an autopilot's probe) and by iteration_cap, whichever comes first;
  // both are lifted afterwards. On the host the solver's operator borrows a
  // (BsrOperator::Storage::borrow): a must not change while the solve runs,
  // which it cannot from inside run().
  // by: the generations of a's pattern and values (SystemMatrix), where the
  // systems keep them: the refresh goes by them, with no comparison of
  // patterns and no hash of values; null: by comparison and hash.
  SolveStats run(const BsrMatrix& a, std::span<const double> b, std::span<double> x, SolveLimit limit = {},
                 const Generations* by = nullptr);
  // The same for a system whose matrix the systems keep (SystemMatrix),
  // refreshed by its generations: a solver on the matrix's device side that
  // refreshes in place (LinearSolver::updates_in_place) reads the values where
  // they were written, so nothing moves; any other solver takes them on the
  // host, once per change of values. The pattern is set up from the host once
  // per pattern. b and x on any backend: moved to the solver's where they are not on it.
  SolveStats run(SystemMatrix& m, const Vector& b, Vector& x, SolveLimit limit = {});
  SolveStats run(SystemMatrix& m, std::span<const double> b, std::span<double> x, SolveLimit limit = {});
  // The iterations a solve may take by its own rules: maxit, or iteration_cap
  // below it (0: neither; a complete solver without an iteration limit).
  int own_limit() const;
  // Set-up or update only, without solving. The operator is left pointing at
  // a; the next run() or refresh() points it at its own matrix.
  void refresh(const BsrMatrix& a, const Generations* by = nullptr);
  void refresh(SystemMatrix& m);
  // Whether the last refresh read the values in place (nothing moved).
  bool last_in_place = false;

 private:
  // Lifts a limit however the solve ends: the slot's next run may have none.
  template <class Solve>
  SolveStats limited_solve(SolveLimit limit, Solve&& solve);
};

}  // namespace tb::systems
