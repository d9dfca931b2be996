#include "gbcg.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "solvers/core/error.hpp"
#include "solvers/core/memory.hpp"
#include "solvers/core/timer.hpp"
#include "solvers/core/vector_kernels.hpp"

namespace tb::banded {

void inverse_diagonal(const DiaMatrix& slab, std::vector<double>& inv) {
  const auto main = std::find(slab.offsets.begin(), slab.offsets.end(), 0);
  const index_t d = index_t(main - slab.offsets.begin());
  inv.resize(std::size_t(slab.rows));
  for (index_t i = 0; i < slab.rows; ++i) {
    const double a = main == slab.offsets.end() ? 0.0 : slab.values[std::size_t(i) * slab.ndiag() + d];
    if (a == 0.0 || !std::isfinite(a))
      throw Error("banded Jacobi: row " + std::to_string(slab.first_row + i) + " has diagonal " + std::to_string(a) +
                  "; K = diag(A) needs a finite non-zero diagonal");
    inv[std::size_t(i)] = 1.0 / a;
  }
}

Gbcg::Gbcg(const DiaMatrix& slab, std::shared_ptr<const Communicator> comm, const RowPartition& part, BandedStop stop,
           Backend backend)
    : comm_(std::move(comm)),
      stop_(stop),
      backend_(backend),
      rows_(slab.rows),
      a_(slab, backend),
      exchange_(comm_->make_exchange(part, slab.band(), backend)),
      dinv_(backend, std::size_t(rows_)),
      r_(backend, std::size_t(rows_)),
      r0hat_(backend, std::size_t(rows_)),
      p_(backend, std::size_t(rows_)),
      v_(backend, std::size_t(rows_)),
      s_(backend, std::size_t(rows_)),
      t_(backend, std::size_t(rows_)),
      y_(backend, rows_, slab.band()),
      z_(backend, rows_, slab.band()) {
  if (part.rows(comm_->rank()) != rows_ || part.first(comm_->rank()) != slab.first_row)
    throw Error("GBCG: the slab holds rows [" + std::to_string(slab.first_row) + ", " +
                std::to_string(slab.first_row + rows_) + "), the partition gives rank " +
                std::to_string(comm_->rank()) + " rows [" + std::to_string(part.first(comm_->rank())) + ", " +
                std::to_string(part.first(comm_->rank()) + part.rows(comm_->rank())) + ")");
  set_inverse_diagonal(slab);
}

void Gbcg::update_values(const DiaMatrix& slab) {
  a_.update_values(slab);
  set_inverse_diagonal(slab);
}

void Gbcg::set_inverse_diagonal(const DiaMatrix& slab) {
  inverse_diagonal(slab, dinv_host_);
  dinv_.copy_from_host(dinv_host_);
}

Partials Gbcg::reduce(Partials p, int sums, bool with_max) {
  return reduce_over_ranks(*comm_, p, sums, with_max, times_);
}

double Gbcg::true_residual(const Vector& b, const Vector& x) {
  return banded::true_residual(a_, *exchange_, *comm_, b, x, y_, v_, r_, times_);
}

SolveStats Gbcg::solve(const Vector& b, Vector& x) {
  if (b.size() != std::size_t(rows_) || x.size() != std::size_t(rows_))
    throw Error("GBCG: vectors of length " + std::to_string(b.size()) + " and " + std::to_string(x.size()) +
                " for a slab of " + std::to_string(rows_) + " rows");
  SolveStats st;
  BicgVectors w{dinv_.data(), r0hat_.data(), r_.data(), p_.data(),  v_.data(),
                s_.data(),    t_.data(),     x.data(),  y_.owned(), z_.owned()};
  const double* r_r0[2] = {r0hat_.data(), r_.data()};
  const double* r_r[2] = {r_.data(), r_.data()};

  // r0 = b - A x0, r0hat = r0 (Algorithm 1, line 0).
  st.initial_residual = true_residual(b, x);
  tb::kernels::copy(r_, r0hat_);
  tb::kernels::fill(p_, 0.0);
  tb::kernels::fill(v_, 0.0);
  WallTimer clock;
  Partials first = kernels::dots_and_max(backend_, rows_, 2, r_r0, r_r, r_.data());
  times_.compute += clock.seconds();
  first = reduce(first, 2, true);
  double rho_sum = first.sum[0], rr = first.sum[1], rmax = first.max_abs;
  const double r0 = std::sqrt(rr);

  double rho_old = 1.0, alpha = 1.0, omega = 1.0;
  int it = 0;
  auto fail = [&](StopReason why, const char* what) {
    st.reason = why;
    st.detail = what;
  };
  st.reason = check_stop(stop_, rmax, r0, r0, 0, st.residual_history, st.detail);
  while (st.reason == StopReason::not_run) {
    ++it;
    const double rho = rho_sum;  // box 1 of this iteration, reduced with the stopping norms
    if (rho == 0.0) {
      fail(StopReason::breakdown, "rho = <r0hat, r> = 0");
      break;
    }
    const double beta = (rho / rho_old) * (alpha / omega);
    clock.restart();
    kernels::bicg_direction(backend_, rows_, beta, omega, w);
    times_.compute += clock.seconds();
    a_.multiply(*exchange_, y_, v_.data(), times_);

    const double* r0_v[2] = {r0hat_.data(), v_.data()};
    clock.restart();
    Partials pa = kernels::dots_and_max(backend_, rows_, 1, r0_v, r0_v + 1, nullptr);
    times_.compute += clock.seconds();
    const double r0v = reduce(pa, 1, false).sum[0];
    if (!std::isfinite(r0v)) {
      fail(StopReason::non_finite, "<r0hat, v>");
      break;
    }
    if (r0v == 0.0) {
      fail(StopReason::breakdown, "<r0hat, v> = 0");
      break;
    }
    alpha = rho / r0v;

    clock.restart();
    kernels::bicg_half_step(backend_, rows_, alpha, w);
    times_.compute += clock.seconds();
    a_.multiply(*exchange_, z_, t_.data(), times_);

    clock.restart();
    Partials po = kernels::bicg_stabiliser_dots(backend_, rows_, w);
    times_.compute += clock.seconds();
    po = reduce(po, 2, false);
    if (!std::isfinite(po.sum[0]) || !std::isfinite(po.sum[1])) {
      fail(StopReason::non_finite, "omega");
      break;
    }
    // t = A K^{-1} s = 0 means s = 0 for a non-singular A: the half step
    // solved the system, and omega = 0 makes the update below x += alpha y, r = s.
    omega = po.sum[1] == 0.0 ? 0.0 : po.sum[0] / po.sum[1];

    clock.restart();
    Partials pr = kernels::bicg_solution_update(backend_, rows_, alpha, omega, w);
    times_.compute += clock.seconds();
    pr = reduce(pr, 2, true);
    rho_old = rho;
    rho_sum = pr.sum[0];
    rmax = pr.max_abs;
    st.reason = check_stop(stop_, rmax, std::sqrt(pr.sum[1]), r0, it, st.residual_history, st.detail);
    if (st.reason == StopReason::not_run && omega == 0.0) fail(StopReason::breakdown, "omega = 0");
  }
  st.iterations = it;
  st.final_residual = true_residual(b, x);
  if (st.converged() && !std::isfinite(st.final_residual)) st.reason = StopReason::non_finite;
  return st;
}

}  // namespace tb::banded
