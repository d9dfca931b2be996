#pragma once
// The common frame of the Krylov methods: stopping rules, work vectors, and the
// one entry point solve(A, M, b, x). Each method is one .cpp beside this file.
#include <chrono>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "preconditioner.hpp"
#include "solve_stats.hpp"
#include "solvers/core/linear_operator.hpp"

namespace tb {

struct StopCriteria {
  double rtol = 1e-8;  // relative to the initial residual ||b - A x0||
  double atol = 0.0;   // absolute residual
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

// Global reductions of the vector space: the identity on one process, MPI
// allreduce in solvers/dist. Krylov methods call nothing else for dots.
class VectorSpace {
 public:
  virtual ~VectorSpace() = default;
  virtual double dot(const Vector& x, const Vector& y) const;
  virtual double norm2(const Vector& x) const;
  // out[i] = (v[i], w): one global reduction for all k, where MPI needs one.
  virtual void multi_dot(const Vector* const* v, int k, const Vector& w, double* out) const;
  // Combines rank-local partial results in place, in one global reduction:
  // sum_values[0..k) are summed and max_values[0..m) maximised over the ranks.
  // Methods that compute their own partial sums (seed 004's GBCG, one fused
  // pass per synchronisation point) call this once per point. Identity here.
  virtual void reduce(double* sum_values, int k, double* max_values, int m) const;
};

// How GMRES orthogonalises a new Krylov vector against the basis.
enum class Orthogonalization {
  cgs,   // classical Gram-Schmidt: one fused pass (PETSc's default)
  cgs2,  // classical Gram-Schmidt applied twice: orthogonal to working precision
  mgs,   // modified Gram-Schmidt: one dot and one axpy per basis vector
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

 protected:
  const VectorSpace& space() const { return *space_; }
  // Work vectors sized like b, allocated on first use and kept between solves.
  Vector& work(std::size_t i, const Vector& like);
  // Checks a new residual norm; returns the stop reason or not_run to continue.
  StopReason check(double rnorm, double r0norm, int it, std::vector<double>& history);
  // r = b - A x, and the first entry of the history; returns ||r0||.
  double start(const LinearOperator& a, const Vector& b, const Vector& x, Vector& r, SolveStats& st);

  StopCriteria stop_;

 private:
  static const VectorSpace local_space_;
  const VectorSpace* space_ = &local_space_;
  std::deque<Vector> work_;  // a deque: growing it keeps references to earlier vectors valid
  double best_ = 0.0;
  int best_it_ = 0;
  SolveLimit limit_;
  std::chrono::steady_clock::time_point started_;
};

std::unique_ptr<KrylovMethod> make_cg(StopCriteria stop);
std::unique_ptr<KrylovMethod> make_bicgstab(StopCriteria stop);
std::unique_ptr<KrylovMethod> make_gmres(StopCriteria stop, int restart, bool flexible,
                                         Orthogonalization orthog = Orthogonalization::cgs);
std::unique_ptr<KrylovMethod> make_richardson(StopCriteria stop, double omega);

}  // namespace tb
