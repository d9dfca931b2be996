#pragma once
// A solver that owns its matrix format and its iteration: seed 004's banded
// BiCGStab (DIA storage) and stencil CG (no stored matrix). LinearSolver
// forwards setup / update / solve to it, so a miniapp uses one exactly like
// a Krylov method + preconditioner pair.
#include <span>

#include "krylov_method.hpp"
#include "solve_stats.hpp"
#include "solvers/matrix/bsr.hpp"

namespace tb {

class CompleteSolver {
 public:
  virtual ~CompleteSolver() = default;
  virtual void setup(const BsrMatrix& a) = 0;   // symbolic + numeric; once per pattern
  virtual void update(const BsrMatrix& a) = 0;  // numeric only; same pattern as setup
  // Host vectors of the full system; x holds the initial guess on entry. Fills
  // reason, iterations, residuals (final_residual recomputed from b - A x) and
  // detail; LinearSolver adds the specification and the timings.
  virtual SolveStats solve(std::span<const double> b, std::span<double> x) = 0;
  // A solver whose vectors live on a backend (a distributed solve resident on
  // each rank's device) takes b and x there, without a round trip through the
  // host: solves_on(b) says where; solve_on_backend then fills the stats as
  // the span solve does. None by default (it throws).
  virtual bool solves_on(Backend) const { return false; }
  virtual SolveStats solve_on_backend(const Vector& b, Vector& x);
  // Limits the solves that follow (LinearSolver::limit); false where no limit
  // applies, as for one that cannot stop early (the default).
  virtual bool limit(SolveLimit) { return false; }
  // Its own iteration limit (maxit); 0 where it has none.
  virtual int max_iterations() const { return 0; }
  // True for a solver over ranks, given this rank's block rows of the system
  // (not square) and its own entries of b and x: it checks the shapes and
  // tests b and x for NaN and Inf itself, over all ranks (a local test would
  // send one rank past the others' collective calls). LinearSolver does otherwise.
  virtual bool spans_ranks() const { return false; }
  // LinearSolver::recompute_final_residual, for a solver over ranks (whose
  // true residual is a product with a halo exchange and a reduction); others
  // recompute theirs always.
  virtual void recompute_final_residual(bool) {}
  // Asks a solver over ranks to take from now on, before setup, each rank's
  // own block rows and its own entries of b and x (a decomposed time loop's
  // assembly) instead of the whole system on every rank; spans_ranks() is then
  // true. False: it cannot.
  virtual bool take_own_rows() { return false; }
  // Values already on the solver's backend (LinearSolver::updates_in_place):
  // update_in_place refreshes from them where they are, attach_in_place
  // points the product at them. None by default (they throw).
  virtual bool updates_in_place() const { return false; }
  virtual void update_in_place(const BsrView& a);
  virtual void attach_in_place(const BsrView& a);
};

}  // namespace tb
