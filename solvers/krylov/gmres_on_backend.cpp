// GMRES with its scalars on the vectors' backend (gmres.hpp): the iteration of
// gmres.cpp with each reduction left where it is made and each scalar step
// run there, the stop test included (gmres_scalars.hpp); the host reads the
// record at its checks (with ||r0|| at the first; the stop word alone where
// every iteration is checked, ||r0|| before the first) and, at the end, the
// last estimate or the estimates' history.
#include <algorithm>
#include <cmath>

#include "gmres.hpp"
#include "kernels.hpp"
#include "solvers/core/kernels.hpp"
#include "solvers/core/memory.hpp"
#include "solvers/core/transfers.hpp"

namespace tb {

namespace {

namespace gs = gmres_scalars;

constexpr int longest_batch = 16;

// The first check: where the last solve stopped (a time loop's solves are
// alike from step to step), 4 iterations in the first solve.
int first_batch(int last_iterations) { return last_iterations > 0 ? std::min(last_iterations, longest_batch) : 4; }

// Iterations to queue before the next check. Where the estimate fell from r0
// to e in `it` iterations, the average rate predicts the iterations left to
// the target; without a fall, twice the last batch. Only the reads and the
// iterations queued past the stop depend on it, never the iterates.
int next_batch(int it, double r0, double e, double target, int last) {
  if (!(e < r0) || !(e > 0.0) || !(target > 0.0)) return std::min(2 * last, longest_batch);
  if (e <= target) return 1;
  const double rate = std::log(e / r0) / it;  // < 0
  const double left = std::ceil(std::log(target / e) / rate);
  return int(std::clamp(left, 1.0, double(longest_batch)));
}

// n numbers of the scalars' array here: copied from a device (and counted
// there), a twin's result on the host (transfers.hpp).
void read_scalars(double* to, const double* from, Backend b, std::size_t n) {
  memory::copy(to, Backend::host, from, b, n * sizeof(double));
  if (b == Backend::host) transfers::count_twin_result(n * sizeof(double));
}

}  // namespace

void Gmres::read_record(double* record) const {
  read_scalars(record, scalars_view_.slot + gs::record, on_backend_.backend(), gs::record_size);
}

SolveStats Gmres::solve_on_backend(const LinearOperator& a, const Preconditioner& m, const Vector& b, Vector& x) {
  namespace k = kernels;
  const Backend be = b.backend();
  const std::size_t need = gs::size(m_, stop_.maxit);
  if (on_backend_.size() != need || on_backend_.backend() != be) {
    on_backend_ = Vector(be, need);
    scalars_view_ = gs::view_of(on_backend_.data(), m_, stop_.maxit);
  }
  const gs::View& v = scalars_view_;

  SolveStats st;
  Vector& r = work(0, b);
  a.apply(x, r);
  k::axpby(1.0, b, -1.0, r);
  // The first cycle takes the stop test at iteration 0 where ||r0|| is, from
  // the factors (||b|| read here only where rtol is relative to it).
  const StopFactors factors = stop_factors(b);
  gs::kernels::begin_cycle(be, v, r, 0, factors);

  double record[gs::first_record_size] = {-1.0, -1.0, -1.0};  // the estimate, the stop word, ||r0||
  double& word = record[1];
  const double& r0 = record[2];
  bool begun = false;
  const auto begin_at_r0 = [&] { begin(r0, factors, st), begun = true; };
  if (!queue_ahead_) {
    // Each iteration checked, each perhaps a whole inner solve: ||r0|| first,
    // so that none is queued past a stop at iteration 0.
    read_scalars(&record[2], v.slot + gs::initial, be, 1);
    begin_at_r0();
    if (st.reason != StopReason::not_run) return st;
  }
  int it = 0, read_at = begun ? 0 : -1, batch = queue_ahead_ ? first_batch(last_iterations_) : 1, next_read = batch;
  const auto read = [&] {
    if (!begun) {  // the first check brings ||r0|| with the record: one wait, not two
      read_scalars(record, v.slot + gs::record, be, gs::first_record_size);
      begin_at_r0();
    } else if (queue_ahead_) {
      read_record(record);
    } else {  // every iteration checked: whether it stopped is all a check needs
      read_scalars(&word, v.slot + gs::stop, be, 1);
    }
    if (queue_ahead_) batch = next_batch(it, r0, record[0], target(), batch);
    read_at = it, next_read = it + batch;
  };
  bool stopped = false;
  while (!stopped) {
    Vector& v0 = basis(0, b);
    k::copy(r, v0);
    // In the first cycle r0 = 0 may have stopped the solve before the host
    // knows: v0 stays 0, and the iterations queued past it compute no NaN.
    k::scale_by_inverse(v.slot + gs::beta, v0, it == 0);
    const int cycle_start = it;
    int j = 0;
    for (; j < m_ && it < factors.maxit; ++j) {
      ++it;
      Vector& z = flexible_ ? direction(j, b) : work(1, b);
      m.apply(basis(j, b), z);
      Vector& vn = basis(j + 1, b);
      a.apply(z, vn);
      orthogonalize_on_backend(j, it, factors, vn, b);
      k::scale_by_inverse(v.slot + gs::new_norm, vn, true);
      if (it == next_read) {
        read();
        if (gs::stopped(word)) break;
      }
    }
    if (read_at != it) read();
    stopped = gs::stopped(word);
    // Columns past the one that stopped were queued before the host knew: left out.
    update_on_backend(stopped ? gs::stopped_at(word) - cycle_start : j, m, b, x);
    if (stopped) break;
    a.apply(x, r);
    k::axpby(1.0, b, -1.0, r);
    gs::kernels::begin_cycle(be, v, r, it, factors);
  }
  st.iterations = last_iterations_ = gs::stopped_at(word);
  st.reason = gs::stopped_for(word);
  if (st.reason == StopReason::breakdown) st.detail = "Krylov space invariant but residual not reduced";
  if (st.iterations == 0) return st;
  // The estimates of the iterations between the checks, only where asked for.
  if (!records_history()) {
    if (!queue_ahead_) read_scalars(&record[0], v.slot + gs::estimate, be, 1);
    st.residual_history.push_back(record[0]);
    return st;
  }
  st.residual_history.resize(std::size_t(st.iterations) + 1);
  read_scalars(st.residual_history.data() + 1, v.history + 1, be, std::size_t(st.iterations));
  return st;
}

// Column j of H on the backend, closed (close_column: H(j+1, j), the rotations
// and the stop test at iteration it), each step in the launch of the last
// reduction it reads.
void Gmres::orthogonalize_on_backend(int j, int it, const StopFactors& factors, Vector& av, const Vector& like) {
  namespace k = kernels;
  const Backend be = like.backend();
  const gs::View& v = scalars_view_;
  if (orthog_ == Orthogonalization::mgs) {
    for (int i = 0; i <= j; ++i) {
      gs::kernels::take_projection(be, v, basis(i, like), av, i, j);
      k::axpy_from(v.coef + i, basis(i, like), av);
    }
    return gs::kernels::close_column(be, v, av, j, it, factors);
  }
  for (int i = 0; i <= j; ++i) basis_ptr_[i] = &basis(i, like), basis_data_[i] = basis(i, like).data();
  const int passes = orthog_ == Orthogonalization::cgs2 ? 2 : 1;
  for (int pass = 0; pass < passes; ++pass) {
    gs::kernels::add_projection(be, v, basis_data_.data(), av, j, pass == 0);
    if (pass + 1 < passes) k::multi_axpy_from(v.coef, basis_ptr_.data(), j + 1, av);
  }
  gs::kernels::close_column_after_projection(be, v, basis_data_.data(), av, j, it, factors);
}

// update_solution with y solved and applied on the backend, the columns four
// to a launch on a device (kernels::axpys_from: the bits of one axpy a column).
void Gmres::update_on_backend(int j, const Preconditioner& m, const Vector& b, Vector& x) {
  namespace k = kernels;
  if (j == 0) return;
  const gs::View& v = scalars_view_;
  gs::kernels::solve_for_y(b.backend(), v, j);
  for (int i = 0; i < j; ++i) basis_ptr_[i] = flexible_ ? &direction(i, b) : &basis(i, b);
  if (flexible_) return k::axpys_from(v.y, basis_ptr_.data(), j, x);
  Vector& u = work(1, b);
  k::fill(u, 0.0);
  k::axpys_from(v.y, basis_ptr_.data(), j, u);
  Vector& z = work(2, b);
  m.apply(u, z);
  k::axpy(1.0, z, x);
}

}  // namespace tb
