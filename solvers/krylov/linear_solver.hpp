#pragma once
// A Krylov method, a preconditioner and the operator they act on: what the
// factory builds from a specification and what every miniapp calls each step.
#include <memory>
#include <span>
#include <string>

#include "complete_solver.hpp"
#include "krylov_method.hpp"
#include "solvers/matrix/bsr_operator.hpp"

namespace tb {

class LinearSolver {
 public:
  LinearSolver(std::string spec, std::unique_ptr<KrylovMethod> method, std::unique_ptr<Preconditioner> precond,
               Backend backend);
  // A solver with its own format and iteration; setup, update and solve are forwarded.
  LinearSolver(std::string spec, std::unique_ptr<CompleteSolver> complete, Backend backend);
  ~LinearSolver();

  // Symbolic + numeric; once per pattern. Storage::borrow (host backend): the
  // operator applies `a` itself instead of a copy (BsrOperator), and every
  // later update() or attach() moves it to the matrix given there.
  void setup(const BsrMatrix& a, BsrOperator::Storage storage = BsrOperator::Storage::copy);
  void update(const BsrMatrix& a);  // numeric only; same pattern as setup
  // The same values as at the last setup() or update(), held by another
  // matrix object (or the same one): a borrowing operator applies `a` from now
  // on; nothing else changes.
  void attach(const BsrMatrix& a);
  // Values that already live on the solver's backend (a device-assembled
  // system's arrays, on the pattern of setup): updates_in_place() where the
  // solver refreshes from them where they are, with no copy to the host. The
  // operator then applies those arrays in place; update() refreshes the
  // preconditioner from them, attach() only points the operator at them. A
  // complete solver says for itself (CompleteSolver::updates_in_place).
  bool updates_in_place() const;
  void update(const BsrView& a);
  void attach(const BsrView& a);
  // setup() from a pattern (its values are not read) and values on the
  // solver's backend: the operator applies them in place and the
  // preconditioner sets up where they are (Preconditioner::setup_in_place),
  // so they never come to the host. Only where sets_up_in_place().
  bool sets_up_in_place() const { return method_ && precond_->sets_up_in_place(); }
  void setup_in_place(const BsrMatrix& pattern, const BsrView& a);
  // Host vectors in and out; copied to and from the backend when it is not the host.
  SolveStats solve(std::span<const double> b, std::span<double> x);
  // Vectors already on the solver's backend.
  SolveStats solve(const Vector& b, Vector& x);

  const std::string& spec() const { return spec_; }
  // Seconds of the last setup() or update().
  double setup_seconds() const { return setup_seconds_; }
  Backend backend() const { return backend_; }
  // Throw tb::Error for a complete solver, which has neither.
  KrylovMethod& method();
  Preconditioner& preconditioner();
  // Limits the solves that follow (KrylovMethod::limit, or the complete
  // solver's own; {} lifts it). False where no limit applies: a complete
  // solver that cannot stop early, or an iteration limit at or above maxit
  // and no seconds.
  bool limit(SolveLimit l);
  // KrylovMethod::record_history; off, every solve's residual_history holds
  // ||r0|| and the last estimate only (a complete solver's too).
  void record_history(bool on);
  // Off: a solve skips the product and the norm of the true residual b - A x
  // and reports the method's last estimate as final_residual
  // (SolveStats::final_recomputed), one read of a device and one product
  // fewer; for a solve that preconditions an outer iteration, which judges its
  // result itself (LinearSystems::precondition_outer). A complete solver over
  // ranks does the same (CompleteSolver::recompute_final_residual).
  void recompute_final_residual(bool on);
  // The iteration limit of its stopping rule (maxit); 0 where it has none.
  int max_iterations() const;
  // Null unless the solver is a complete one (bicgstab_dia, cg_stencil).
  CompleteSolver* complete() { return complete_.get(); }

 private:
  std::string spec_;
  std::unique_ptr<KrylovMethod> method_;
  bool history_ = true;
  bool recompute_ = true;  // recompute_final_residual
  std::unique_ptr<Preconditioner> precond_;
  std::unique_ptr<CompleteSolver> complete_;
  Backend backend_;
  SolveStats solve_complete(std::span<const double> b, std::span<double> x);
  SolveStats solve_recorded(const Vector& b, Vector& x);
  // The vectors of every solve, once per pattern: the first solve allocates nothing.
  void reserve_work();

  std::unique_ptr<BsrOperator> op_;
  bool set_up_ = false;  // complete solvers only
  double setup_seconds_ = 0.0;
  Vector b_dev_, x_dev_, r_dev_;
};

}  // namespace tb
