#include "solver_slot.hpp"

#include <algorithm>

#define XXH_INLINE_ALL  // header-only, as in system_solvers.cpp
#include <xxhash.h>

#include "domain_sharing.hpp"

namespace tb::harness {

std::uint64_t hash_of_values(const BsrMatrix& a) {
  return XXH3_64bits(a.values.data(), a.values.size() * sizeof(double));
}

// Symbolic set-up on a new pattern, numeric update on new values, nothing when
// the values are the ones already factored: a constant matrix (tb-incomp's and
// tb-ib's pressure Poisson) is factored once, and tb-comp2d's matrix-free
// system, which solves the same first-order matrix several times a step, is
// factored once a step. A hash of the values factored stands for them: one
// pass over the values a solve, and no copy of them (keeping one while the
// values had never changed cost a matrix per solver: 7.5 MB on the
// 13,794-cell NACA 0012 until its first update, and for the whole run on a
// constant pressure matrix).
void SolverSlot::refresh(const BsrMatrix& a) {
  const bool same_pattern = a.row_ptr == row_ptr && a.col_idx == col_idx;
  const std::uint64_t hash = hash_of_values(a);
  Refresh needed = !same_pattern ? Refresh::symbolic : hash != factored_hash ? Refresh::numeric : Refresh::none;
  if (spans_ranks) needed = Refresh(max_over_ranks(int(needed)));
  if (needed == Refresh::symbolic) {
    // The operator borrows the physics' matrix: run() solves at once, and
    // every refresh points it at the matrix of the solve (attach below).
    solver->setup(a, BsrOperator::Storage::borrow);
    row_ptr = a.row_ptr;
    col_idx = a.col_idx;
  } else if (needed == Refresh::numeric) {
    solver->update(a);
  } else {
    solver->attach(a);
  }
  if (needed != Refresh::none) factored_hash = hash;
  last_refresh = needed;
}

SolveStats SolverSlot::run(const BsrMatrix& a, std::span<const double> b, std::span<double> x, SolveLimit limit) {
  refresh(a);
  if (iteration_cap > 0)
    limit.iterations = limit.iterations > 0 ? std::min(limit.iterations, iteration_cap) : iteration_cap;
  last_limited = solver->limit(limit);
  // Lifted however the solve ends: the slot's next run may have no limit.
  struct Lift {
    LinearSolver& solver;
    ~Lift() { solver.limit({}); }
  } lift{*solver};
  SolveStats st = solver->solve(b, x);
  if (last_refresh == Refresh::none) st.setup_seconds = 0.0;  // the solver reports its last set-up otherwise
  return st;
}

int SolverSlot::own_limit() const {
  const int maxit = solver->max_iterations();
  return iteration_cap > 0 && (maxit == 0 || iteration_cap < maxit) ? iteration_cap : maxit;
}

}  // namespace tb::harness
