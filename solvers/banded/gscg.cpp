#include "gscg.hpp"

#include <cmath>
#include <string>

#include "solvers/core/error.hpp"
#include "solvers/core/memory.hpp"
#include "solvers/core/timer.hpp"
#include "solvers/core/vector_kernels.hpp"

namespace tb::banded {

namespace {
StencilSlab slab_of(const StencilCoefficients& c, const RowPartition& part, int rank) {
  if (part.n() != c.cells())
    throw Error("GSCG: the partition covers " + std::to_string(part.n()) + " rows, the grid has " +
                std::to_string(c.cells()) + " cells");
  return StencilSlab{c, part.first(rank), c.band()};
}
}  // namespace

Gscg::Gscg(const StencilCoefficients& c, std::shared_ptr<const Communicator> comm, const RowPartition& part,
           BandedStop stop, Backend backend)
    : comm_(std::move(comm)),
      stop_(stop),
      backend_(backend),
      rows_(part.rows(comm_->rank())),
      a_(slab_of(c, part, comm_->rank()), rows_, backend),
      exchange_(comm_->make_exchange(part, c.band(), backend)),
      dinv_(backend, std::size_t(rows_)),
      r_(backend, std::size_t(rows_)),
      z_(backend, std::size_t(rows_)),
      q_(backend, std::size_t(rows_)),
      p_(backend, rows_, c.band()) {
  kernels::stencil_inverse_diagonal(backend_, a_.slab(), rows_, dinv_.data());
}

void Gscg::update_coefficients(const StencilCoefficients& c) {
  const StencilCoefficients& old = a_.slab().c;
  if (c.nx != old.nx || c.ny != old.ny || c.nz != old.nz)
    throw Error("GSCG: update to a " + std::to_string(c.nx) + " x " + std::to_string(c.ny) + " x " +
                std::to_string(c.nz) + " grid, set up on " + std::to_string(old.nx) + " x " + std::to_string(old.ny) +
                " x " + std::to_string(old.nz));
  a_.set_coefficients(c);
  kernels::stencil_inverse_diagonal(backend_, a_.slab(), rows_, dinv_.data());
}

Partials Gscg::reduce(Partials p, int sums, bool with_max) {
  return reduce_over_ranks(*comm_, p, sums, with_max, times_);
}

double Gscg::true_residual(const Vector& b, const Vector& x) {
  return banded::true_residual(a_, *exchange_, *comm_, b, x, p_, q_, r_, times_);
}

SolveStats Gscg::solve(const Vector& b, Vector& x) {
  if (b.size() != std::size_t(rows_) || x.size() != std::size_t(rows_))
    throw Error("GSCG: vectors of length " + std::to_string(b.size()) + " and " + std::to_string(x.size()) +
                " for a slab of " + std::to_string(rows_) + " rows");
  SolveStats st;
  st.initial_residual = true_residual(b, x);
  WallTimer clock;
  kernels::jacobi_apply(backend_, rows_, dinv_.data(), r_.data(), z_.data());
  const double* rz_x[2] = {r_.data(), r_.data()};
  const double* rz_y[2] = {z_.data(), r_.data()};
  Partials first = kernels::dots_and_max(backend_, rows_, 2, rz_x, rz_y, r_.data());
  memory::copy(p_.owned(), backend_, z_.data(), backend_, std::size_t(rows_) * sizeof(double));
  times_.compute += clock.seconds();
  first = reduce(first, 2, true);
  double rz = first.sum[0];
  const double r0 = std::sqrt(first.sum[1]);
  st.reason = check_stop(stop_, first.max_abs, r0, r0, 0, st.residual_history, st.detail);
  int it = 0;
  auto fail = [&](StopReason why, const char* what) {
    st.reason = why;
    st.detail = what;
  };
  while (st.reason == StopReason::not_run) {
    ++it;
    a_.multiply(*exchange_, p_, q_.data(), times_);
    const double* pp[1] = {p_.owned()};
    const double* qq[1] = {q_.data()};
    clock.restart();
    Partials pq = kernels::dots_and_max(backend_, rows_, 1, pp, qq, nullptr);
    times_.compute += clock.seconds();
    pq = reduce(pq, 1, false);
    if (!std::isfinite(pq.sum[0])) {
      fail(StopReason::non_finite, "<p, A p>");
      break;
    }
    if (pq.sum[0] <= 0.0) {
      fail(StopReason::breakdown, "<p, A p> <= 0: A is not SPD");
      break;
    }
    const double alpha = rz / pq.sum[0];
    clock.restart();
    Partials pr = kernels::cg_solution_update(backend_, rows_, alpha, dinv_.data(), p_.owned(), q_.data(), x.data(),
                                              r_.data(), z_.data());
    times_.compute += clock.seconds();
    pr = reduce(pr, 2, true);
    st.reason = check_stop(stop_, pr.max_abs, std::sqrt(pr.sum[1]), r0, it, st.residual_history, st.detail);
    if (st.reason != StopReason::not_run) break;
    const double beta = pr.sum[0] / rz;
    rz = pr.sum[0];
    clock.restart();
    kernels::cg_direction(backend_, rows_, beta, z_.data(), p_.owned());
    times_.compute += clock.seconds();
  }
  st.iterations = it;
  st.final_residual = true_residual(b, x);
  if (st.converged() && !std::isfinite(st.final_residual)) st.reason = StopReason::non_finite;
  return st;
}

}  // namespace tb::banded
