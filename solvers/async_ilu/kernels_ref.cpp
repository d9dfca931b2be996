#include <algorithm>
#include <utility>

#include "kernels.hpp"
#include "solvers/core/block_size_dispatch.hpp"
#include "solvers/core/error.hpp"
#include "solvers/precond/dense_block.hpp"

namespace tb::async_ilu::kernels::ref {

namespace {

template <int N>
index_t factor(const FactorView& f, FactorState s, int sweeps, Schedule schedule) {
  index_t bad = -1;
  const std::size_t nb = std::size_t(f.block_size) * std::size_t(f.block_size);
  for (int sweep = 0; sweep < sweeps; ++sweep) {
    const bool sync = schedule == Schedule::synchronous;
    double* dst = sync ? s.lu_next : s.lu;
    double* dst_dinv = sync ? s.dinv_next : s.dinv;
    for (index_t i = 0; i < f.block_rows; ++i)
      if (!factor_row<N>(f, i, s.lu, s.dinv, dst, dst_dinv) && bad < 0) bad = i;
    if (sync) {
      std::swap(s.lu, s.lu_next);
      std::swap(s.dinv, s.dinv_next);
    }
  }
  // An odd number of Jacobi sweeps leaves the result in the second buffers.
  if (schedule == Schedule::synchronous && sweeps % 2 == 1) {
    const std::size_t blocks = std::size_t(f.row_ptr[f.block_rows]);
    std::copy(s.lu, s.lu + blocks * nb, s.lu_next);
    std::copy(s.dinv, s.dinv + std::size_t(f.block_rows) * nb, s.dinv_next);
  }
  return bad;
}

template <int N>
void sweeps_of(const FactorView& f, const ApplyState& s, const double* r, double* z, int sweeps, Schedule schedule) {
  const std::size_t len = std::size_t(f.block_rows) * std::size_t(f.block_size);
  // Initial guess zero for both triangular solves (seed 001, section 6).
  std::fill(s.y, s.y + len, 0.0);
  std::fill(z, z + len, 0.0);
  if (schedule == Schedule::asynchronous) {
    for (int sweep = 0; sweep < sweeps; ++sweep)
      for (index_t i = 0; i < f.block_rows; ++i) lower_row<N>(f, s.lu, i, r, s.y, s.y);
    for (int sweep = 0; sweep < sweeps; ++sweep)
      for (index_t i = f.block_rows - 1; i >= 0; --i) upper_row<N>(f, s.lu, s.dinv, i, s.y, z, z);
    return;
  }
  // Jacobi: even sweeps read the first buffer, odd ones the second; the
  // result is copied to its destination when it ends in the work buffer.
  double* buf[2] = {s.y, s.work};
  std::fill(s.work, s.work + len, 0.0);
  for (int sweep = 0; sweep < sweeps; ++sweep)
    for (index_t i = 0; i < f.block_rows; ++i) lower_row<N>(f, s.lu, i, r, buf[sweep % 2], buf[(sweep + 1) % 2]);
  if (sweeps % 2 == 1) std::copy(s.work, s.work + len, s.y);
  double* zbuf[2] = {z, s.work};
  std::fill(s.work, s.work + len, 0.0);
  for (int sweep = 0; sweep < sweeps; ++sweep)
    for (index_t i = f.block_rows - 1; i >= 0; --i)
      upper_row<N>(f, s.lu, s.dinv, i, s.y, zbuf[sweep % 2], zbuf[(sweep + 1) % 2]);
  if (sweeps % 2 == 1) std::copy(s.work, s.work + len, z);
}

}  // namespace

void initial_guess(const FactorView& f, double* lu, double* dinv) {
  const std::size_t nb = std::size_t(f.block_size) * std::size_t(f.block_size);
  std::copy(f.a, f.a + std::size_t(f.blocks) * nb, lu);
  with_block_size(f.block_size, [&]<int N>() {
    for (index_t i = 0; i < f.block_rows; ++i) initial_inverse_row<N>(f, i, dinv);
  });
}

index_t factor_sweeps(const FactorView& f, FactorState s, int sweeps, Schedule schedule, const SweepSplit& /*split*/) {
  return with_block_size(f.block_size, [&]<int N>() { return factor<N>(f, s, sweeps, schedule); });
}

void triangular_sweeps(const FactorView& f, const ApplyState& s, const double* r, double* z, int sweeps,
                       Schedule schedule, const SweepSplit& /*split*/) {
  with_block_size(f.block_size, [&]<int N>() { sweeps_of<N>(f, s, r, z, sweeps, schedule); });
}

}  // namespace tb::async_ilu::kernels::ref
