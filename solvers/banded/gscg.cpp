#include "gscg.hpp"

#include <cmath>
#include <string>

#include "solvers/core/error.hpp"
#include "solvers/core/kernels.hpp"
#include "solvers/core/memory.hpp"
#include "solvers/core/timer.hpp"

namespace tb::banded {

namespace {
StencilSlab slab_of(const StencilCoefficients& c, const comm::RowPartition& part, int rank) {
  if (part.n() != c.cells())
    throw Error("GSCG: the partition covers " + std::to_string(part.n()) + " rows, the grid has " +
                std::to_string(c.cells()) + " cells");
  return StencilSlab{c, part.first(rank), c.band()};
}

// Ends the iteration with a reason other than the stopping rule's; returns it.
int fail(SolveStats& st, StopReason why, const char* what, int it) {
  st.reason = why;
  st.detail = what;
  return it;
}

}  // namespace

Gscg::Gscg(const StencilCoefficients& c, std::shared_ptr<const comm::Communicator> comm, const comm::RowPartition& part,
           BandedStop stop, Backend backend, GscgVariant variant)
    : comm_(std::move(comm)),
      stop_(stop),
      backend_(backend),
      variant_(variant),
      rows_(part.rows(comm_->rank())),
      a_(slab_of(c, part, comm_->rank()), rows_, backend),
      exchange_(comm_->make_exchange(part, c.band(), backend)),
      dinv_(backend, std::size_t(rows_)),
      r_(backend, std::size_t(rows_)),
      z_(backend, variant == GscgVariant::classic ? std::size_t(rows_) : 0),
      q_(backend, std::size_t(rows_)),
      w_(backend, variant == GscgVariant::one_reduction ? std::size_t(rows_) : 0),
      p_(backend, variant == GscgVariant::one_reduction ? std::size_t(rows_) : 0),
      ext_(backend, rows_, c.band()) {
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
  return banded::true_residual(a_, *exchange_, *comm_, b, x, ext_, q_, r_, times_);
}

SolveStats Gscg::solve(const Vector& b, Vector& x) {
  if (b.size() != std::size_t(rows_) || x.size() != std::size_t(rows_))
    throw Error("GSCG: vectors of length " + std::to_string(b.size()) + " and " + std::to_string(x.size()) +
                " for a slab of " + std::to_string(rows_) + " rows");
  SolveStats st;
  stop_.started = std::chrono::steady_clock::now();
  stop_.rhs_norm = stop_.krylov.relative_to == RtolReference::rhs ? norm_over_ranks(*comm_, b, times_) : 0.0;
  st.initial_residual = true_residual(b, x);
  st.target_residual = target_residual(stop_, st.initial_residual);
  st.iterations = variant_ == GscgVariant::classic ? iterate_classic(x, st) : iterate_one_reduction(x, st);
  st.final_residual = true_residual(b, x);
  if (st.converged() && !std::isfinite(st.final_residual)) st.reason = StopReason::non_finite;
  return st;
}

int Gscg::iterate_classic(Vector& x, SolveStats& st) {
  WallTimer clock;
  kernels::jacobi_apply(backend_, rows_, dinv_.data(), r_.data(), z_.data());
  const double* rz_x[2] = {r_.data(), r_.data()};
  const double* rz_y[2] = {z_.data(), r_.data()};
  Partials first = kernels::dots_and_max(backend_, rows_, 2, rz_x, rz_y, r_.data());
  memory::copy(ext_.owned(), backend_, z_.data(), backend_, std::size_t(rows_) * sizeof(double));
  times_.compute += clock.seconds();
  first = reduce(first, 2, true);
  double rz = first.sum[0];
  const double r0 = std::sqrt(first.sum[1]);
  st.reason = check_stop(stop_, first.max_abs, r0, r0, 0, st.residual_history, st.detail);
  int it = 0;
  while (st.reason == StopReason::not_run) {
    ++it;
    a_.multiply(*exchange_, ext_, q_.data(), times_);
    const double* pp[1] = {ext_.owned()};
    const double* qq[1] = {q_.data()};
    clock.restart();
    Partials pq = kernels::dots_and_max(backend_, rows_, 1, pp, qq, nullptr);
    times_.compute += clock.seconds();
    pq = reduce(pq, 1, false);
    if (!std::isfinite(pq.sum[0])) return fail(st, StopReason::non_finite, "<p, A p>", it);
    if (pq.sum[0] <= 0.0) return fail(st, StopReason::breakdown, "<p, A p> <= 0: A is not SPD", it);
    const double alpha = rz / pq.sum[0];
    clock.restart();
    Partials pr = kernels::cg_solution_update(backend_, rows_, alpha, dinv_.data(), ext_.owned(), q_.data(), x.data(),
                                              r_.data(), z_.data());
    times_.compute += clock.seconds();
    pr = reduce(pr, 2, true);
    st.reason = check_stop(stop_, pr.max_abs, std::sqrt(pr.sum[1]), r0, it, st.residual_history, st.detail);
    if (st.reason != StopReason::not_run) break;
    const double beta = pr.sum[0] / rz;
    rz = pr.sum[0];
    clock.restart();
    kernels::cg_direction(backend_, rows_, beta, z_.data(), ext_.owned());
    times_.compute += clock.seconds();
  }
  return it;
}

// Chronopoulos & Gear, "s-step iterative methods for symmetric linear
// systems", J. Comput. Appl. Math. 25 (1989) 153-168: their CG with s = 1,
// here with the Jacobi K. After u_i = K^{-1} r_i and w_i = A u_i, ONE
// reduction gives
//   gamma_i = <r_i, u_i>,  delta_i = <w_i, u_i>  (and <r_i, r_i>, ||r_i||_max for check_stop);
// (<r, u> and the norms come from the pass that writes r_i and u_i, only
// <w, u> from a pass after the SpMV); then
//   beta_i  = gamma_i / gamma_{i-1}                          (beta_0 = 0)
//   alpha_i = gamma_i / (delta_i - beta_i gamma_i / alpha_{i-1})   (alpha_0 = gamma_0 / delta_0)
//   p_i = u_i + beta_i p_{i-1},  q_i = w_i + beta_i q_{i-1}  (= A p_i, no second SpMV)
//   x_{i+1} = x_i + alpha_i p_i,  r_{i+1} = r_i - alpha_i q_i.
// alpha_i's denominator is <p_i, A p_i> of the classic recurrence: expanding
// p_i gives delta_i + 2 beta_i <u_i, A p_{i-1}> + beta_i^2 <p_{i-1}, A p_{i-1}>,
// where <u_i, A p_{i-1}> = <u_i, r_{i-1} - r_i> / alpha_{i-1} = -gamma_i / alpha_{i-1}
// (<u_i, r_{i-1}> = 0: the residuals are K^{-1}-orthogonal) and
// <p_{i-1}, A p_{i-1}> = gamma_{i-1} / alpha_{i-1}; with beta_i gamma_{i-1} = gamma_i
// the sum is delta_i - beta_i gamma_i / alpha_{i-1}. Same iterates as
// iterate_classic in exact arithmetic; r_i is checked at the same point of
// the iteration count, after one extra SpMV (w = A u of the last residual).
int Gscg::iterate_one_reduction(Vector& x, SolveStats& st) {
  const CgRecurrenceVectors v{dinv_.data(), w_.data(), ext_.owned(), p_.data(), q_.data(), x.data(), r_.data()};
  WallTimer clock;
  kernels::jacobi_apply(backend_, rows_, dinv_.data(), r_.data(), ext_.owned());
  tb::kernels::fill(p_, 0.0);  // beta_0 = 0 must not meet a stale NaN
  tb::kernels::fill(q_, 0.0);
  // <r, u>, <r, r>, ||r||_max of this rank's r_i: here for r_0, then from the update that writes r_i.
  const double* r_u[2] = {r_.data(), r_.data()};
  const double* u_r[2] = {ext_.owned(), r_.data()};
  Partials from_r = kernels::dots_and_max(backend_, rows_, 2, r_u, u_r, r_.data());
  times_.compute += clock.seconds();
  const double* w_dot[1] = {w_.data()};
  const double* u_dot[1] = {ext_.owned()};
  double r0 = 0.0, gamma_old = 0.0, alpha = 0.0;
  for (int it = 0;; ++it) {
    a_.multiply(*exchange_, ext_, w_.data(), times_);
    clock.restart();
    Partials d;
    d.sum[0] = from_r.sum[0];
    d.sum[1] = kernels::dots_and_max(backend_, rows_, 1, w_dot, u_dot, nullptr).sum[0];
    d.sum[2] = from_r.sum[1];
    d.max_abs = from_r.max_abs;
    times_.compute += clock.seconds();
    d = reduce(d, 3, true);
    const double rnorm = std::sqrt(d.sum[2]);
    if (it == 0) r0 = rnorm;
    st.reason = check_stop(stop_, d.max_abs, rnorm, r0, it, st.residual_history, st.detail);
    if (st.reason != StopReason::not_run) return it;
    const double gamma = d.sum[0], delta = d.sum[1];
    if (!std::isfinite(gamma) || !std::isfinite(delta))
      return fail(st, StopReason::non_finite, "<r, K^-1 r> or <A u, u>", it);
    const double beta = it == 0 ? 0.0 : gamma / gamma_old;
    const double pap = it == 0 ? delta : delta - beta * gamma / alpha;
    if (!(pap > 0.0)) return fail(st, StopReason::breakdown, "<p, A p> <= 0: A is not SPD", it);
    alpha = gamma / pap;
    gamma_old = gamma;
    clock.restart();
    from_r = kernels::cg_recurrence_update(backend_, rows_, alpha, beta, v);
    times_.compute += clock.seconds();
  }
}

}  // namespace tb::banded
