#pragma once
// y = A x for one rank's slab, with the ghost exchange overlapped (§III-C):
// the interior rows, which read no ghost entry, are split into one chunk per
// exchange phase and computed while that phase is in flight; the band rows at
// each end of the slab follow once the ghosts have arrived.
#include "dia_matrix.hpp"
#include "kernels.hpp"
#include "solve_times.hpp"
#include "solvers/comm/communicator.hpp"
#include "solvers/comm/ghost_exchange.hpp"

namespace tb::banded {

// The DIA slab copied onto a backend (§III-B's row-contiguous layout).
class DiaProduct {
 public:
  DiaProduct(const DiaMatrix& slab, Backend backend);
  void update_values(const DiaMatrix& slab);  // numeric only, same offsets and rows
  // y (rows entries) = A x; x's owned part must be current, its ghosts are exchanged here.
  void multiply(comm::GhostExchange& ex, comm::GhostedVector& x, double* y, SolveTimes& t) const;
  const DiaView& view() const { return view_; }
  Backend backend() const { return backend_; }

 private:
  Backend backend_;
  Array<index_t> offsets_, rest_ptr_, rest_offsets_;
  Vector values_, rest_values_;
  DiaView view_;
};

// The matrix-free stencil operator of §III-D: only the coefficients travel.
class StencilProduct {
 public:
  StencilProduct(const StencilSlab& slab, index_t rows, Backend backend)
      : slab_(slab), rows_(rows), backend_(backend) {}
  void multiply(comm::GhostExchange& ex, comm::GhostedVector& x, double* y, SolveTimes& t) const;
  const StencilSlab& slab() const { return slab_; }
  void set_coefficients(const StencilCoefficients& c) { slab_.c = c; }

 private:
  StencilSlab slab_;
  index_t rows_;
  Backend backend_;
};

// One global reduction of partial sums and, with with_max, their maximum
// (§III-C: one MPI_Allreduce per synchronisation point); timed as reduction.
Partials reduce_over_ranks(const comm::Communicator& comm, Partials p, int sums, bool with_max, SolveTimes& t);
// The same for k sums and m maxima, combined in place (the one-reduction
// GBCG's eight sums and one maximum).
void reduce_over_ranks(const comm::Communicator& comm, double* sums, int k, double* maxima, int m, SolveTimes& t);

// ||v||_2 over all ranks (each holds its owned rows); one reduction.
double norm_over_ranks(const comm::Communicator& comm, const Vector& v, SolveTimes& t);

// ||b - A x||_2 over all ranks for A one of the products above: x is copied
// into the ghosted work vector, A x goes to ax and b - A x to r.
template <class Product>
double true_residual(const Product& a, comm::GhostExchange& ex, const comm::Communicator& comm, const Vector& b,
                     const Vector& x, comm::GhostedVector& work, Vector& ax, Vector& r, SolveTimes& t);

}  // namespace tb::banded
