#pragma once
// One solver on one linear system of the loop: symbolic set-up when the
// pattern is new, numeric update when the values change, nothing otherwise.
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "solvers/krylov/linear_solver.hpp"

namespace tb::harness {

enum class Refresh { none, numeric, symbolic };

// XXH3 of a matrix's values: what the slots compare to tell values they have seen.
std::uint64_t hash_of_values(const BsrMatrix& a);

struct SolverSlot {
  std::unique_ptr<LinearSolver> solver;
  std::vector<index_t> row_ptr, col_idx;  // the pattern set up last
  std::uint64_t factored_hash = 0;        // of the values factored last
  Refresh last_refresh = Refresh::none;   // what the last run() did before solving
  // A solver over the ranks of a decomposed run: set-up and update are
  // collective, so every rank does what the rank with the most to do needs (a
  // moving body changes the pattern of some ranks' rows only).
  bool spans_ranks = false;
  // At most this many iterations a solve (LinearSystems::cap_iterations); 0: the specification's maxit.
  int iteration_cap = 0;
  bool last_limited = false;  // a limit held the last run() (LinearSolver::limit took it)
  // Brings the solver up to date with a, then solves from x, stopped sooner by
  // `limit` (an autopilot's probe) and by iteration_cap, whichever comes first;
  // both are lifted afterwards. On the host the solver's operator borrows a
  // (BsrOperator::Storage::borrow): a must not change while the solve runs,
  // which it cannot from inside run().
  SolveStats run(const BsrMatrix& a, std::span<const double> b, std::span<double> x, SolveLimit limit = {});
  // The iterations a solve may take by its own rules: maxit, or iteration_cap
  // below it (0: neither; a complete solver without an iteration limit).
  int own_limit() const;
  // Set-up or update only, without solving. The operator is left pointing at
  // a; the next run() or refresh() points it at its own matrix.
  void refresh(const BsrMatrix& a);
};

}  // namespace tb::harness
