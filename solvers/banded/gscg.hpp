#pragma once
// GSCG, seed 004 §III-D: conjugate gradients with the Jacobi K = diag(A) for
// the constant-coefficient 7-point operator, which it never stores (the SpMV
// and K^{-1} come from the coefficients and the cell position). Per iteration
// one vector communication (before the SpMV) and, by variant:
//   one_reduction (default): Chronopoulos & Gear's CG, ONE global reduction
//     (<r, u>, <A u, u>, <r, r> and ||r||_max after w = A u; gscg.cpp);
//   classic: the textbook recurrences, as the paper counts them, two
//     (<p, q>; then <r, z> fused with the stopping norms).
// Both give the same iterates in exact arithmetic.
#include <memory>

#include "banded_product.hpp"
#include "banded_stop.hpp"
#include "solvers/comm/communicator.hpp"

namespace tb::banded {

enum class GscgVariant { one_reduction, classic };

class Gscg {
 public:
  Gscg(const StencilCoefficients& c, std::shared_ptr<const comm::Communicator> comm, const comm::RowPartition& part,
       BandedStop stop, Backend backend, GscgVariant variant = GscgVariant::one_reduction);
  // Numeric update: new coefficients on the same grid.
  void update_coefficients(const StencilCoefficients& c);
  // Limits the solves that follow (applicable_limit's; {} lifts it).
  void limit(SolveLimit l) { stop_.limit = l; }
  // Local rows of b and x on the backend; x holds the initial guess.
  SolveStats solve(const Vector& b, Vector& x);
  const SolveTimes& times() const { return times_; }
  void reset_times() { times_ = {}; }
  index_t rows() const { return rows_; }

 private:
  Partials reduce(Partials p, int sums, bool with_max);
  double true_residual(const Vector& b, const Vector& x);
  // Iterate from r = b - A x (in r_) until st.reason is set; return the iterations.
  int iterate_classic(Vector& x, SolveStats& st);
  int iterate_one_reduction(Vector& x, SolveStats& st);

  std::shared_ptr<const comm::Communicator> comm_;
  BandedStop stop_;
  Backend backend_;
  GscgVariant variant_;
  index_t rows_;
  StencilProduct a_;
  std::unique_ptr<comm::GhostExchange> exchange_;
  // classic: ext_ = p, z_ = K^{-1} r, q_ = A p.
  // one_reduction: ext_ = u = K^{-1} r, w_ = A u, p_, q_ = A p (z_ unused).
  Vector dinv_, r_, z_, q_, w_, p_;
  comm::GhostedVector ext_;  // the SpMV's input, with ghost zones
  SolveTimes times_;
};

}  // namespace tb::banded
