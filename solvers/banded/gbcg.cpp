#include "gbcg.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "solvers/core/error.hpp"
#include "solvers/core/kernels.hpp"
#include "solvers/core/memory.hpp"
#include "solvers/core/timer.hpp"

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

namespace {

// Ends the iteration with a reason other than the stopping rule's; returns it.
int fail(SolveStats& st, StopReason why, const char* what, int it) {
  st.reason = why;
  st.detail = what;
  return it;
}

}  // namespace

Gbcg::Gbcg(const DiaMatrix& slab, std::shared_ptr<const comm::Communicator> comm, const comm::RowPartition& part,
           BandedStop stop, Backend backend)
    : Gbcg(slab, nullptr, std::move(comm), part, stop, backend) {}

Gbcg::Gbcg(const DiaMatrix& slab, const DiaMatrix& transposed_slab, std::shared_ptr<const comm::Communicator> comm,
           const comm::RowPartition& part, BandedStop stop, Backend backend)
    : Gbcg(slab, &transposed_slab, std::move(comm), part, stop, backend) {}

Gbcg::Gbcg(const DiaMatrix& slab, const DiaMatrix* transposed_slab, std::shared_ptr<const comm::Communicator> comm,
           const comm::RowPartition& part, BandedStop stop, Backend backend)
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
      f_(backend, transposed_slab ? std::size_t(rows_) : 0),
      y_(backend, rows_, slab.band()),
      z_(backend, rows_, slab.band()) {
  if (part.rows(comm_->rank()) != rows_ || part.first(comm_->rank()) != slab.first_row)
    throw Error("GBCG: the slab holds rows [" + std::to_string(slab.first_row) + ", " +
                std::to_string(slab.first_row + rows_) + "), the partition gives rank " +
                std::to_string(comm_->rank()) + " rows [" + std::to_string(part.first(comm_->rank())) + ", " +
                std::to_string(part.first(comm_->rank()) + part.rows(comm_->rank())) + ")");
  if (transposed_slab) {
    const DiaMatrix& t = *transposed_slab;
    if (t.first_row != slab.first_row || t.rows != rows_ || t.n != slab.n || t.band() != slab.band())
      throw Error("GBCG: the transposed slab holds rows [" + std::to_string(t.first_row) + ", " +
                  std::to_string(t.first_row + t.rows) + ") of " + std::to_string(t.n) + " with band " +
                  std::to_string(t.band()) + "; expected the slab's rows [" + std::to_string(slab.first_row) + ", " +
                  std::to_string(slab.first_row + rows_) + ") of " + std::to_string(slab.n) + " with band " +
                  std::to_string(slab.band()) + " (transposed_dia_from_bsr of the same matrix)");
    at_ = std::make_unique<DiaProduct>(t, backend);
  }
  set_inverse_diagonal(slab);
}

void Gbcg::update_values(const DiaMatrix& slab) {
  if (at_) throw Error("GBCG: the one-reduction variant updates A and A^T: update_values(slab, transposed_slab)");
  a_.update_values(slab);
  set_inverse_diagonal(slab);
}

void Gbcg::update_values(const DiaMatrix& slab, const DiaMatrix& transposed_slab) {
  if (!at_) throw Error("GBCG: the classic variant keeps no A^T: update_values(slab)");
  a_.update_values(slab);
  at_->update_values(transposed_slab);
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
  stop_.started = std::chrono::steady_clock::now();
  stop_.rhs_norm = stop_.krylov.relative_to == RtolReference::rhs ? norm_over_ranks(*comm_, b, times_) : 0.0;
  const BicgVectors w{dinv_.data(), r0hat_.data(), r_.data(),  p_.data(),  v_.data(), s_.data(),
                      t_.data(),    x.data(),      y_.owned(), z_.owned(), f_.data()};
  // r0 = b - A x0, r0hat = r0 (Algorithm 1, line 0).
  st.initial_residual = true_residual(b, x);
  st.target_residual = target_residual(stop_, st.initial_residual);
  tb::kernels::copy(r_, r0hat_);
  tb::kernels::fill(p_, 0.0);
  tb::kernels::fill(v_, 0.0);
  st.iterations = at_ ? iterate_one_reduction(w, st) : iterate_classic(w, st);
  st.final_residual = true_residual(b, x);
  if (st.converged() && !std::isfinite(st.final_residual)) st.reason = StopReason::non_finite;
  return st;
}

int Gbcg::iterate_classic(const BicgVectors& w, SolveStats& st) {
  const double* r_r0[2] = {r0hat_.data(), r_.data()};
  const double* r_r[2] = {r_.data(), r_.data()};
  WallTimer clock;
  Partials first = kernels::dots_and_max(backend_, rows_, 2, r_r0, r_r, r_.data());
  times_.compute += clock.seconds();
  first = reduce(first, 2, true);
  double rho_sum = first.sum[0], rr = first.sum[1], rmax = first.max_abs;
  const double r0 = std::sqrt(rr);

  double rho_old = 1.0, alpha = 1.0, omega = 1.0;
  int it = 0;
  st.reason = check_stop(stop_, rmax, r0, r0, 0, st.residual_history, st.detail);
  while (st.reason == StopReason::not_run) {
    ++it;
    const double rho = rho_sum;  // box 1 of this iteration, reduced with the stopping norms
    if (rho == 0.0) return fail(st, StopReason::breakdown, "rho = <r0hat, r> = 0", it);
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
    if (!std::isfinite(r0v)) return fail(st, StopReason::non_finite, "<r0hat, v>", it);
    if (r0v == 0.0) return fail(st, StopReason::breakdown, "<r0hat, v> = 0", it);
    alpha = rho / r0v;

    clock.restart();
    kernels::bicg_half_step(backend_, rows_, alpha, w);
    times_.compute += clock.seconds();
    a_.multiply(*exchange_, z_, t_.data(), times_);

    clock.restart();
    Partials po = kernels::bicg_stabiliser_dots(backend_, rows_, w);
    times_.compute += clock.seconds();
    po = reduce(po, 2, false);
    if (!std::isfinite(po.sum[0]) || !std::isfinite(po.sum[1])) return fail(st, StopReason::non_finite, "omega", it);
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
    if (st.reason == StopReason::not_run && omega == 0.0) fail(st, StopReason::breakdown, "omega = 0", it);
  }
  return it;
}

// One global synchronisation per iteration, after Yang & Brent, "The improved
// BiCGStab method for large and sparse unsymmetric linear systems on parallel
// distributed memory architectures", Proc. 5th ICA3PP (2002): the inner
// products Algorithm 1 needs before its SpMVs are rewritten as recurrences in
// ones taken after them. With B = A K^{-1} (so v = B p, t = B s) and
// f = B^T r0hat = K^{-1} A^T r0hat (K diagonal), computed once per solve:
//   rho_{i+1}       = <r0hat, r_i>   = <r0hat, s_i> - omega_i <r0hat, t_i>
//   phi_{i+1}       = <r0hat, B r_i> = <f, s_i> - omega_i <f, t_i>
//   sigma_{i+1}     = <r0hat, v_{i+1}> = <r0hat, B (r_i + beta (p_i - omega_i v_i))>
//                   = phi_{i+1} + beta_{i+1} (rho_i / alpha_i - omega_i <f, v_i>)
// using <r0hat, v_i> = rho_i / alpha_i (alpha_i's definition) and
// <r0hat, B v_i> = <f, v_i>. So after t_i = A z the single reduction holds
// omega_i's two dots (Alg. 1 line 5), <r0hat, s_i>, <r0hat, t_i>, <f, s_i>,
// <f, t_i>, <f, v_i> (kernels::bicg_merged_dots) and, for the stopping test,
// ||r_{i-1}||_2^2 and ||r_{i-1}||_max from the previous update (Algorithm 1
// tests r_{i-1} at the top of iteration i). When r_{i-1} passes, the solve
// returns x_{i-1}: the iterations counted are the classic variant's, after
// the SpMVs of one more. alpha_{i+1} = rho_{i+1} / sigma_{i+1} and beta as in
// Algorithm 1. Iteration 1 starts from p_0 = v_0 = 0: p_1 = r_0, sigma_1 =
// <f, r_0>, reduced with <r0hat, r_0> and r_0's stopping norms.
int Gbcg::iterate_one_reduction(const BicgVectors& w, SolveStats& st) {
  WallTimer clock;
  memory::copy(y_.owned(), backend_, r0hat_.data(), backend_, std::size_t(rows_) * sizeof(double));
  times_.compute += clock.seconds();
  at_->multiply(*exchange_, y_, t_.data(), times_);
  clock.restart();
  kernels::jacobi_apply(backend_, rows_, dinv_.data(), t_.data(), f_.data());
  const double* first_x[2] = {r_.data(), f_.data()};
  const double* first_y[2] = {r_.data(), r_.data()};
  Partials first = kernels::dots_and_max(backend_, rows_, 2, first_x, first_y, r_.data());
  times_.compute += clock.seconds();
  first = reduce(first, 2, true);
  const double r0 = std::sqrt(first.sum[0]);
  st.reason = check_stop(stop_, first.max_abs, r0, r0, 0, st.residual_history, st.detail);
  if (st.reason != StopReason::not_run) return 0;

  double rho = first.sum[0], phi = first.sum[1];  // r0hat = r0
  double rho_old = 1.0, alpha = 1.0, omega = 1.0, f_v = 0.0;
  Partials r_local;  // ||r||^2 (sum[1]) and ||r||_max of this rank's r_{i-1}, from the update
  constexpr int merged = BicgMergedDots::count;
  // Before a breakdown is reported, the residual it follows gets the
  // stopping test the lag has not given it yet (one more reduction, only here).
  auto stopped_at = [&](const Partials& local, int it) {
    const Partials pr = reduce(local, 2, true);
    st.reason = check_stop(stop_, pr.max_abs, std::sqrt(pr.sum[1]), r0, it, st.residual_history, st.detail);
    return st.reason != StopReason::not_run;
  };
  for (int it = 1;; ++it) {
    const double beta = it == 1 ? 0.0 : (rho / rho_old) * (alpha / omega);
    const double sigma = it == 1 ? phi : phi + beta * (rho_old / alpha - omega * f_v);
    if (rho == 0.0 || !(std::isfinite(sigma) && sigma != 0.0)) {
      if (it > 1 && stopped_at(r_local, it - 1)) return it - 1;
      if (rho == 0.0) return fail(st, StopReason::breakdown, "rho = <r0hat, r> = 0", it);
      if (!std::isfinite(sigma)) return fail(st, StopReason::non_finite, "<r0hat, v>", it);
      return fail(st, StopReason::breakdown, "<r0hat, v> = 0", it);
    }
    alpha = rho / sigma;
    clock.restart();
    kernels::bicg_direction(backend_, rows_, beta, omega, w);
    times_.compute += clock.seconds();
    a_.multiply(*exchange_, y_, v_.data(), times_);
    clock.restart();
    kernels::bicg_half_step(backend_, rows_, alpha, w);
    times_.compute += clock.seconds();
    a_.multiply(*exchange_, z_, t_.data(), times_);

    clock.restart();
    const BicgMergedDots d = kernels::bicg_merged_dots(backend_, rows_, w);
    times_.compute += clock.seconds();
    double sums[merged + 1];
    for (int j = 0; j < merged; ++j) sums[j] = d.sum[j];
    sums[merged] = r_local.sum[1];
    double rmax = r_local.max_abs;
    reduce_over_ranks(*comm_, sums, merged + 1, &rmax, 1, times_);
    if (it > 1) {
      st.reason = check_stop(stop_, rmax, std::sqrt(sums[merged]), r0, it - 1, st.residual_history, st.detail);
      if (st.reason != StopReason::not_run) return it - 1;
    }
    for (int j = 0; j < merged; ++j)
      if (!std::isfinite(sums[j])) return fail(st, StopReason::non_finite, "the merged inner products", it);
    omega = sums[1] == 0.0 ? 0.0 : sums[0] / sums[1];  // as the classic variant, t = 0 means s = 0

    clock.restart();
    r_local = kernels::bicg_solution_update(backend_, rows_, alpha, omega, w);
    times_.compute += clock.seconds();
    if (omega == 0.0) {  // beta would divide by it
      if (!stopped_at(r_local, it)) fail(st, StopReason::breakdown, "omega = 0", it);
      return it;
    }
    rho_old = rho;
    rho = sums[2] - omega * sums[3];
    phi = sums[4] - omega * sums[5];
    f_v = sums[6];
  }
}

}  // namespace tb::banded
