#pragma once
// The common frame of the Krylov methods: stopping rules, work vectors, and the
// one entry point solve(A, M, b, x). Each method is one .cpp beside this file.
#include <algorithm>
#include <chrono>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "preconditioner.hpp"
#include "solve_stats.hpp"
#include "solvers/core/linear_operator.hpp"
#include "solvers/core/vector_space.hpp"
#include "stop_test.hpp"

namespace tb {

struct StopCriteria {
  double rtol = 1e-8;  // relative to rtol_base(relative_to, ||b - A x0||, ||b||)
  RtolReference relative_to = RtolReference::initial_residual;
  double atol = 0.0;  // absolute residual
  int maxit = 1000;
  double dtol = 1e8;            // divergence: ||r|| > dtol * ||r0||
  int stagnation_window = 200;  // no 0.1% improvement of the best residual in this many iterations; 0 = off
};

// A limit on one solve besides its stopping rules (0: none). The seconds are
// read on this process's clock: only for solves that no other rank shares.
struct SolveLimit {
  int iterations = 0;
  double seconds = 0.0;
};

// The scratch vectors of Krylov solves, allocated on first use and kept
// between solves so that a time step allocates nothing. Methods that never
// solve at the same time may share one: the autopilot's candidates take one
// system one solve at a time, and one FGMRES(30) basis is 61 vectors, three
// times a 4x4-block matrix with five blocks a row.
class KrylovWorkspace {
 public:
  // Vector i, sized and placed like `like`: each backend keeps its own, so
  // that methods on the host and on a device sharing one do not reallocate.
  Vector& vector(std::size_t i, const Vector& like) { return vector(i, like.backend(), like.size()); }
  Vector& vector(std::size_t i, Backend b, std::size_t n);
  // Vectors held, over the backends.
  std::size_t size() const;
  std::size_t bytes() const;

 private:
  std::deque<Vector> vectors_[2];  // host, cuda; a deque: growing it keeps references to earlier vectors valid
};

// How GMRES orthogonalises a new Krylov vector against the basis.
enum class Orthogonalization {
  cgs,   // classical Gram-Schmidt: one fused pass (PETSc's default)
  cgsp,  // the same pass, the new norm by Pythagoras from its reduction: one reduction an iteration
  cgs2,  // classical Gram-Schmidt applied twice: orthogonal to working precision
  mgs,   // modified Gram-Schmidt: one dot and one axpy per basis vector
};

// Where GMRES keeps its Hessenberg matrix, rotations and stop test (gmres.hpp).
enum class GmresScalars {
  automatic,  // on the backend for vectors on a device, one process's, no clock limit
  host,
  backend,  // on the vectors' backend wherever the method allows it (host vectors too: the tests' twin)
};

class KrylovMethod {
 public:
  explicit KrylovMethod(StopCriteria stop) : stop_(stop) {}
  virtual ~KrylovMethod() = default;
  // x holds the initial guess on entry and the solution on return.
  virtual SolveStats solve(const LinearOperator& a, const Preconditioner& m, const Vector& b, Vector& x) = 0;
  // False for methods that need a fixed preconditioner (CG, BiCGStab, GMRES).
  virtual bool accepts_variable_preconditioner() const { return false; }
  const StopCriteria& stop() const { return stop_; }
  // Limits for the solves that follow, below stop(): the autopilot cuts a probe
  // short once it can no longer take the charge (docs/harness.md, "Solver
  // autopilot"). A limit reached stops with max_iterations.
  void limit(SolveLimit l) { limit_ = l; }
  void set_vector_space(const VectorSpace* s) { space_ = s; }
  // Off: a solve's residual_history holds ||r0|| and the last estimate only,
  // so a method whose estimates live on a device does not copy them back
  // (a time loop's solves, which never read them; LinearSolver::record_history).
  void record_history(bool on) { history_ = on; }
  bool records_history() const { return history_; }
  // Allocates the vectors a solve of n unknowns on backend b uses and touches
  // them (in parallel, as the kernels will), so that the first solve neither
  // allocates nor takes the page faults, which on a paravirtualised machine
  // cost as much as several iterations. LinearSolver::setup calls it, once per
  // pattern.
  void reserve(Backend b, std::size_t n);
  // Solve with `w`'s vectors from now on instead of this method's own (which
  // are released); w must not be used by a solve running at the same time.
  // Before LinearSolver::setup, whose reserve() then fills w.
  void share_workspace(std::shared_ptr<KrylovWorkspace> w) { work_ = std::move(w); }
  const KrylovWorkspace& workspace() const { return *work_; }

 protected:
  const VectorSpace& space() const { return *space_; }
  // Work vectors sized like b, allocated on first use and kept between solves.
  Vector& work(std::size_t i, const Vector& like);
  // The indices of work() that solve() uses (reserve()).
  virtual std::vector<std::size_t> work_indices() const = 0;
  // Checks a new residual norm against this solve's thresholds (begin());
  // returns the stop reason or not_run to continue.
  StopReason check(double rnorm, int it, std::vector<double>& history);
  // The limits of the solves that follow (limit()).
  const SolveLimit& limits() const { return limit_; }
  // r = b - A x, and the first entry of the history; returns ||r0||. Sets the
  // residual norm this solve stops at (st.target_residual, target()).
  double start(const LinearOperator& a, const Vector& b, const Vector& x, Vector& r, SolveStats& st);
  // start() once ||r0|| is known (a method that reduces it elsewhere); with
  // the factors already taken (stop_factors, which reads ||b|| where rtol is
  // relative to it).
  void begin(double r0, const Vector& b, SolveStats& st);
  void begin(double r0, const StopFactors& f, SolveStats& st);
  // The thresholds' parts known before ||r0|| (stop_test.hpp).
  StopFactors stop_factors(const Vector& b) const;
  // max(atol, rtol ||r0|| or rtol ||b||): a residual at or below it has converged.
  double target() const { return std::max(rule_.atol, rule_.rtol_residual); }

  StopCriteria stop_;

 private:
  static const VectorSpace local_space_;
  const VectorSpace* space_ = &local_space_;
  std::shared_ptr<KrylovWorkspace> work_ = std::make_shared<KrylovWorkspace>();
  double best_ = 0.0;
  int best_it_ = 0;
  StopRule rule_;  // this solve's thresholds (begin)
  bool history_ = true;
  SolveLimit limit_;
  std::chrono::steady_clock::time_point started_;
};

std::unique_ptr<KrylovMethod> make_cg(StopCriteria stop);
std::unique_ptr<KrylovMethod> make_bicgstab(StopCriteria stop);
std::unique_ptr<KrylovMethod> make_gmres(StopCriteria stop, int restart, bool flexible,
                                         Orthogonalization orthog = Orthogonalization::cgs,
                                         GmresScalars scalars = GmresScalars::automatic, bool queue_ahead = true);
std::unique_ptr<KrylovMethod> make_richardson(StopCriteria stop, double omega);

}  // namespace tb
