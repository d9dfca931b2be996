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
  // At most this many iterations a solve (LinearSolver::limit); 0: the specification's maxit.
  int iteration_cap = 0;
  // Brings the solver up to date with a, then solves from x. On the host the
  // solver's operator borrows a (BsrOperator::Storage::borrow): a must not
  // change while the solve runs, which it cannot from inside run().
  SolveStats run(const BsrMatrix& a, std::span<const double> b, std::span<double> x);
  // Set-up or update only, without solving. The operator is left pointing at
  // a; the next run() or refresh() points it at its own matrix.
  void refresh(const BsrMatrix& a);
};

}  // namespace tb::harness
