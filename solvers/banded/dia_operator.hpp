#pragma once
// One rank's DIA slab as a LinearOperator, and its rank-local Jacobi as a
// Preconditioner: with the comm::Communicator's VectorSpace, the Foundation's Krylov
// methods (CG, BiCGStab, GMRES) then run distributed unchanged, and their
// iterates equal the one-rank run's to round-off.
#include <memory>

#include "banded_product.hpp"
#include "solvers/comm/communicator.hpp"
#include "solvers/core/linear_operator.hpp"
#include "solvers/krylov/preconditioner.hpp"

namespace tb::banded {

class DiaOperator final : public LinearOperator {
 public:
  DiaOperator(const DiaMatrix& slab, const comm::Communicator& comm, const comm::RowPartition& part, Backend backend);
  index_t rows() const override { return a_.view().rows; }
  Backend backend() const override { return a_.backend(); }
  // y = A x on the local rows; x is copied into an extended vector first.
  void apply(const Vector& x, Vector& y) const override;
  const SolveTimes& times() const { return times_; }

 private:
  DiaProduct a_;
  std::unique_ptr<comm::GhostExchange> exchange_;
  mutable comm::GhostedVector x_ext_;
  mutable SolveTimes times_;
};

// z = D^{-1} r with D the slab's own diagonal: no communication.
class SlabJacobi final : public Preconditioner {
 public:
  SlabJacobi(const DiaMatrix& slab, Backend backend);
  // Built from a slab, not from a BSR matrix: these throw tb::Error.
  void setup(const BsrMatrix& a, Backend backend) override;
  void update(const BsrMatrix& a) override;
  void apply(const Vector& r, Vector& z) const override;
  bool supports(Backend b) const override { return b == dinv_.backend(); }

 private:
  Vector dinv_;
};

}  // namespace tb::banded
