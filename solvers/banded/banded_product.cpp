#include "banded_product.hpp"

#include <algorithm>
#include <cmath>
#include <span>

#include "solvers/comm/communicator.hpp"
#include "solvers/core/error.hpp"
#include "solvers/core/kernels.hpp"
#include "solvers/core/memory.hpp"
#include "solvers/core/timer.hpp"

namespace tb::banded {

namespace {

// The overlap schedule of both products: compute(begin, end) does rows
// [begin, end) of y.
template <class Rows>
void overlapped_rows(comm::GhostExchange& ex, comm::GhostedVector& x, index_t rows, index_t band, SolveTimes& t,
                     Rows&& compute) {
  const index_t low_end = std::min(band, rows);
  const index_t high_begin = std::max(low_end, rows - band);
  const int phases = ex.phases();
  const index_t chunks = std::max(phases, 1);
  const index_t interior = high_begin - low_end;
  WallTimer clock;
  for (index_t k = 0; k < chunks; ++k) {
    if (k < phases) {
      clock.restart();
      ex.post(int(k), x);
      t.halo += clock.seconds();
    }
    clock.restart();
    compute(low_end + interior * k / chunks, low_end + interior * (k + 1) / chunks);
    t.compute += clock.seconds();
    if (k < phases) {
      clock.restart();
      ex.complete(int(k), x);
      t.halo += clock.seconds();
    }
  }
  clock.restart();
  compute(0, low_end);
  compute(high_begin, rows);
  t.compute += clock.seconds();
}

}  // namespace

DiaProduct::DiaProduct(const DiaMatrix& slab, Backend backend)
    : backend_(backend),
      offsets_(backend, std::span<const index_t>(slab.offsets)),
      rest_ptr_(backend, std::span<const index_t>(slab.rest_ptr)),
      rest_offsets_(backend, std::span<const index_t>(slab.rest_offsets)),
      values_(backend, std::span<const double>(slab.values)),
      rest_values_(backend, std::span<const double>(slab.rest_values)) {
  // The host view's shape (and whether it has a remainder), the backend's arrays.
  view_ = banded::view(slab);
  view_.offsets = offsets_.data();
  view_.values = values_.data();
  if (view_.rest_ptr) {
    view_.rest_ptr = rest_ptr_.data();
    view_.rest_offsets = rest_offsets_.data();
    view_.rest_values = rest_values_.data();
  }
}

void DiaProduct::update_values(const DiaMatrix& slab) {
  if (slab.rows != view_.rows || slab.ndiag() != view_.ndiag)
    throw Error("DIA update: " + std::to_string(slab.rows) + " rows x " + std::to_string(slab.ndiag()) +
                " diagonals, set up with " + std::to_string(view_.rows) + " x " + std::to_string(view_.ndiag));
  if (slab.rest_values.size() != rest_values_.size())
    throw Error("DIA update: " + std::to_string(slab.rest_values.size()) + " remainder entries, set up with " +
                std::to_string(rest_values_.size()));
  values_.copy_from_host(slab.values);
  rest_values_.copy_from_host(slab.rest_values);
}

void DiaProduct::multiply(comm::GhostExchange& ex, comm::GhostedVector& x, double* y, SolveTimes& t) const {
  overlapped_rows(ex, x, view_.rows, view_.band, t,
                  [&](index_t b, index_t e) { kernels::dia_spmv(backend_, view_, b, e, x.ext(), y); });
}

void StencilProduct::multiply(comm::GhostExchange& ex, comm::GhostedVector& x, double* y, SolveTimes& t) const {
  overlapped_rows(ex, x, rows_, slab_.band, t,
                  [&](index_t b, index_t e) { kernels::stencil_spmv(backend_, slab_, b, e, x.ext(), y); });
}

void reduce_over_ranks(const comm::Communicator& comm, double* sums, int k, double* maxima, int m, SolveTimes& t) {
  WallTimer clock;
  comm.space().reduce(sums, k, maxima, m);
  t.reduction += clock.seconds();
  ++t.reductions;
}

Partials reduce_over_ranks(const comm::Communicator& comm, Partials p, int sums, bool with_max, SolveTimes& t) {
  reduce_over_ranks(comm, p.sum, sums, &p.max_abs, with_max ? 1 : 0, t);
  return p;
}

double norm_over_ranks(const comm::Communicator& comm, const Vector& v, SolveTimes& t) {
  const double* vv[1] = {v.data()};
  const Partials p = kernels::dots_and_max(v.backend(), index_t(v.size()), 1, vv, vv, nullptr);
  return std::sqrt(reduce_over_ranks(comm, p, 1, false, t).sum[0]);
}

template <class Product>
double true_residual(const Product& a, comm::GhostExchange& ex, const comm::Communicator& comm, const Vector& b,
                     const Vector& x, comm::GhostedVector& work, Vector& ax, Vector& r, SolveTimes& t) {
  const Backend backend = b.backend();
  memory::copy(work.owned(), backend, x.data(), backend, x.size() * sizeof(double));
  a.multiply(ex, work, ax.data(), t);
  tb::kernels::copy(b, r);
  tb::kernels::axpy(-1.0, ax, r);
  return norm_over_ranks(comm, r, t);
}

template double true_residual(const DiaProduct&, comm::GhostExchange&, const comm::Communicator&, const Vector&,
                              const Vector&, comm::GhostedVector&, Vector&, Vector&, SolveTimes&);
template double true_residual(const StencilProduct&, comm::GhostExchange&, const comm::Communicator&, const Vector&,
                              const Vector&, comm::GhostedVector&, Vector&, Vector&, SolveTimes&);

}  // namespace tb::banded
