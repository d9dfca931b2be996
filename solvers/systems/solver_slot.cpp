#include "solver_slot.hpp"

#include <algorithm>
#include <optional>

#include "solvers/factory/solver_communicator.hpp"
#include "solvers/systems/checksum.hpp"

namespace tb::systems {

namespace {

// The largest refresh any rank needs (the reduction is a max). Collective.
Refresh max_over_ranks(Refresh r) {
  double v = double(int(r));
  solver_communicator()->space().reduce(nullptr, 0, &v, 1);
  return Refresh(int(v));
}

}  // namespace

// Symbolic set-up on a new pattern, numeric update on new values, nothing when
// the values are the ones already factored: a constant matrix (tb-incomp's and
// tb-ib's pressure Poisson) is factored once, and tb-comp2d's matrix-free
// system, which solves the same first-order matrix several times a step, is
// factored once a step. A hash of the values factored stands for them: one
// pass over the values a solve, and no copy of them (keeping one while the
// values had never changed cost a matrix per solver: 7.5 MB on the
// 13,794-cell NACA 0012 until its first update, and for the whole run on a
// constant pressure matrix).
void SolverSlot::refresh(const BsrMatrix& a, const Generations* by) {
  Refresh needed = Refresh::none;
  std::uint64_t hash = 0;
  if (by) {
    needed = by->pattern != factored.pattern ? Refresh::symbolic
             : by->values != factored.values ? Refresh::numeric
                                             : Refresh::none;
  } else {
    const bool same_pattern = a.row_ptr == row_ptr && a.col_idx == col_idx;
    hash = hash_of_values(a);
    needed = !same_pattern ? Refresh::symbolic : hash != factored_hash ? Refresh::numeric : Refresh::none;
  }
  if (spans_ranks) needed = max_over_ranks(needed);
  if (needed == Refresh::symbolic) {
    // The operator borrows the physics' matrix: run() solves at once, and
    // every refresh points it at the matrix of the solve (attach below).
    solver->setup(a, BsrOperator::Storage::borrow);
    if (by) {
      row_ptr.clear(), col_idx.clear();  // a later solve by comparison sets up anew
    } else {
      row_ptr = a.row_ptr;
      col_idx = a.col_idx;
    }
  } else if (needed == Refresh::numeric) {
    solver->update(a);
  } else {
    solver->attach(a);
  }
  if (needed != Refresh::none) factored_hash = hash;
  factored = by ? *by : Generations{};
  last_refresh = needed;
}

SolveStats SolverSlot::run(const BsrMatrix& a, std::span<const double> b, std::span<double> x, SolveLimit limit,
                           const Generations* by) {
  std::optional<StepClock::Scope> charged;
  if (clock) charged.emplace(*clock, Account::linear_setup);
  refresh(a, by);
  if (clock) clock->enter(Account::linear_solve);
  return limited_solve(limit, [&] { return solver->solve(b, x); });
}

template <class Solve>
SolveStats SolverSlot::limited_solve(SolveLimit limit, Solve&& solve) {
  if (iteration_cap > 0)
    limit.iterations = limit.iterations > 0 ? std::min(limit.iterations, iteration_cap) : iteration_cap;
  last_limited = solver->limit(limit);
  struct Lift {
    LinearSolver& solver;
    ~Lift() { solver.limit({}); }
  } lift{*solver};
  SolveStats st = solve();
  if (last_refresh == Refresh::none) st.setup_seconds = 0.0;  // the solver reports its last set-up otherwise
  return st;
}

// By the generations of m: symbolic set-up once per pattern, from the host's
// pattern and the values where they were written where the solver can set up
// there (LinearSolver::setup_in_place), else from the host's copy; then the
// values read in place where the solver can (its backend is the side m's
// device values are read on, and it refreshes in place), or on the host (one
// copy back per change of values written on the device).
void SolverSlot::refresh(SystemMatrix& m) {
  const Generations by = m.generations();
  Refresh needed = by.pattern != factored.pattern ? Refresh::symbolic
                   : by.values != factored.values ? Refresh::numeric
                                                  : Refresh::none;
  if (spans_ranks) needed = max_over_ranks(needed);
  const bool in_place = solver->backend() == m.backend() && solver->updates_in_place();
  if (needed == Refresh::symbolic) {
    if (in_place && !m.host_current() && solver->sets_up_in_place()) {
      solver->setup_in_place(m.pattern(), m.on_device());  // values written on the device stay there
    } else {
      solver->setup(m.on_host(), BsrOperator::Storage::borrow);
      if (in_place) solver->attach(m.on_device());
    }
  } else if (needed == Refresh::numeric) {
    if (in_place)
      solver->update(m.on_device());
    else
      solver->update(m.on_host());
  } else if (in_place) {
    solver->attach(m.on_device());
  } else {
    solver->attach(m.on_host());
  }
  row_ptr.clear(), col_idx.clear();  // a later solve by comparison sets up anew
  factored_hash = 0;
  factored = by;
  last_refresh = needed;
  last_in_place = in_place;
}

SolveStats SolverSlot::run(SystemMatrix& m, const Vector& b, Vector& x, SolveLimit limit) {
  std::optional<StepClock::Scope> charged;
  if (clock) charged.emplace(*clock, Account::linear_setup);
  refresh(m);
  if (clock) clock->enter(Account::linear_solve);
  return limited_solve(limit, [&] {
    if (b.backend() == solver->backend() && x.backend() == solver->backend()) return solver->solve(b, x);
    // Vectors elsewhere: through the host (LinearSolver moves them on to its backend).
    std::vector<double> bh = b.to_host(), xh = x.to_host();
    SolveStats st = solver->solve(bh, xh);
    x.copy_from_host(xh);
    return st;
  });
}

SolveStats SolverSlot::run(SystemMatrix& m, std::span<const double> b, std::span<double> x, SolveLimit limit) {
  std::optional<StepClock::Scope> charged;
  if (clock) charged.emplace(*clock, Account::linear_setup);
  refresh(m);
  if (clock) clock->enter(Account::linear_solve);
  return limited_solve(limit, [&] { return solver->solve(b, x); });
}

int SolverSlot::own_limit() const {
  const int maxit = solver->max_iterations();
  return iteration_cap > 0 && (maxit == 0 || iteration_cap < maxit) ? iteration_cap : maxit;
}

}  // namespace tb::systems
