#pragma once
// GSCG, seed 004 §III-D: conjugate gradients with the Jacobi K = diag(A) for
// the constant-coefficient 7-point operator, which it never stores (the SpMV
// and K^{-1} come from the coefficients and the cell position). Per iteration,
// as the paper counts: one vector communication (before q = A p) and two
// scalar ones (<p, q>; then <r, z> fused with the stopping norms).
#include <memory>

#include "banded_product.hpp"
#include "banded_stop.hpp"
#include "communicator.hpp"

namespace tb::banded {

class Gscg {
 public:
  Gscg(const StencilCoefficients& c, std::shared_ptr<const Communicator> comm, const RowPartition& part,
       BandedStop stop, Backend backend);
  // Numeric update: new coefficients on the same grid.
  void update_coefficients(const StencilCoefficients& c);
  // Local rows of b and x on the backend; x holds the initial guess.
  SolveStats solve(const Vector& b, Vector& x);
  const SolveTimes& times() const { return times_; }
  void reset_times() { times_ = {}; }
  index_t rows() const { return rows_; }

 private:
  Partials reduce(Partials p, int sums, bool with_max);
  double true_residual(const Vector& b, const Vector& x);

  std::shared_ptr<const Communicator> comm_;
  BandedStop stop_;
  Backend backend_;
  index_t rows_;
  StencilProduct a_;
  std::unique_ptr<GhostExchange> exchange_;
  Vector dinv_, r_, z_, q_;
  GhostedVector p_;
  SolveTimes times_;
};

}  // namespace tb::banded
