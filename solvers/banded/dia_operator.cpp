#include "dia_operator.hpp"

#include <string>

#include "gbcg.hpp"
#include "solvers/core/error.hpp"
#include "solvers/core/memory.hpp"

namespace tb::banded {

DiaOperator::DiaOperator(const DiaMatrix& slab, const comm::Communicator& comm, const comm::RowPartition& part,
                         Backend backend)
    : a_(slab, backend),
      exchange_(comm.make_exchange(part, slab.band(), backend)),
      x_ext_(backend, slab.rows, slab.band()) {}

void DiaOperator::apply(const Vector& x, Vector& y) const {
  const std::size_t n = std::size_t(rows());
  if (x.size() != n || y.size() != n)
    throw Error("DIA operator: vectors of length " + std::to_string(x.size()) + " and " + std::to_string(y.size()) +
                " for a slab of " + std::to_string(n) + " rows");
  memory::copy(x_ext_.owned(), backend(), x.data(), x.backend(), n * sizeof(double));
  a_.multiply(*exchange_, x_ext_, y.data(), times_);
}

namespace {
std::vector<double> inverse_diagonal_of(const DiaMatrix& slab) {
  std::vector<double> inv;
  inverse_diagonal(slab, inv);
  return inv;
}
}  // namespace

SlabJacobi::SlabJacobi(const DiaMatrix& slab, Backend backend)
    : dinv_(backend, std::span<const double>(inverse_diagonal_of(slab))) {}

void SlabJacobi::setup(const BsrMatrix&, Backend) {
  throw Error("slab Jacobi is built from a DIA slab; it has no setup from a BSR matrix");
}

void SlabJacobi::update(const BsrMatrix&) {
  throw Error("slab Jacobi is built from a DIA slab; it has no update from a BSR matrix");
}

void SlabJacobi::apply(const Vector& r, Vector& z) const {
  if (r.size() != dinv_.size() || z.size() != dinv_.size())
    throw Error("slab Jacobi: vectors of length " + std::to_string(r.size()) + " and " + std::to_string(z.size()) +
                " for a slab of " + std::to_string(dinv_.size()) + " rows");
  kernels::jacobi_apply(dinv_.backend(), index_t(dinv_.size()), dinv_.data(), r.data(), z.data());
}

}  // namespace tb::banded
