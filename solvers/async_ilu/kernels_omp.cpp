// Host threads. The asynchronous kernels follow Alg. 2, 4 and 5 literally: the
// sweep loop runs inside one parallel region, each sweep is a dynamically
// scheduled loop over block rows with `nowait`, so a thread that finishes its
// rows of sweep s starts on sweep s+1 while others are still in sweep s. As in
// the paper, no atomics guard the factor entries: a reader may see a block
// half old, half new, which the asynchronous model (a shift per entry, Eq. 16)
// allows. With one thread the loops run in natural order and the result is
// the sequential one bit for bit.
#include <algorithm>
#include <utility>

#include "kernels.hpp"
#include "solvers/precond/dense_block.hpp"

namespace tb::async_ilu::omp {

namespace {

void note_bad_row(index_t& bad, index_t i) {
#pragma omp critical(tb_async_ilu_bad_row)
  if (bad < 0 || i < bad) bad = i;
}

template <int N>
index_t factor_async(const FactorView& f, FactorState s, int sweeps, int chunk) {
  index_t bad = -1;
  const index_t rows = f.block_rows;
#pragma omp parallel
  for (int sweep = 0; sweep < sweeps; ++sweep) {
#pragma omp for schedule(dynamic, chunk) nowait
    for (index_t i = 0; i < rows; ++i)
      if (!factor_row<N>(f, i, s.lu, s.dinv, s.lu, s.dinv)) note_bad_row(bad, i);
  }
  return bad;
}

template <int N>
index_t factor_sync(const FactorView& f, FactorState s, int sweeps, int chunk) {
  index_t bad = -1;
  const index_t rows = f.block_rows;
  for (int sweep = 0; sweep < sweeps; ++sweep) {
#pragma omp parallel for schedule(dynamic, chunk)
    for (index_t i = 0; i < rows; ++i)
      if (!factor_row<N>(f, i, s.lu, s.dinv, s.lu_next, s.dinv_next)) note_bad_row(bad, i);
    std::swap(s.lu, s.lu_next);
    std::swap(s.dinv, s.dinv_next);
  }
  if (sweeps % 2 == 1) {
    const std::size_t nb = std::size_t(f.block_size) * std::size_t(f.block_size);
    std::copy(s.lu, s.lu + std::size_t(f.row_ptr[rows]) * nb, s.lu_next);
    std::copy(s.dinv, s.dinv + std::size_t(rows) * nb, s.dinv_next);
  }
  return bad;
}

template <int N>
void solve_async(const FactorView& f, const ApplyState& s, const double* r, double* z, int sweeps, int chunk) {
  const index_t rows = f.block_rows;
  const std::size_t len = std::size_t(rows) * std::size_t(f.block_size);
  std::fill(s.y, s.y + len, 0.0);
  std::fill(z, z + len, 0.0);
  // The forward and backward solves are separate regions: U's sweep needs the
  // finished y (the paper applies L^{-1}, then U^{-1}).
#pragma omp parallel
  for (int sweep = 0; sweep < sweeps; ++sweep) {
#pragma omp for schedule(dynamic, chunk) nowait
    for (index_t i = 0; i < rows; ++i) lower_row<N>(f, s.lu, i, r, s.y, s.y);
  }
#pragma omp parallel
  for (int sweep = 0; sweep < sweeps; ++sweep) {
#pragma omp for schedule(dynamic, chunk) nowait
    for (index_t k = 0; k < rows; ++k) upper_row<N>(f, s.lu, s.dinv, rows - 1 - k, s.y, z, z);
  }
}

template <int N>
void solve_sync(const FactorView& f, const ApplyState& s, const double* r, double* z, int sweeps, int chunk) {
  const index_t rows = f.block_rows;
  const std::size_t len = std::size_t(rows) * std::size_t(f.block_size);
  std::fill(s.y, s.y + len, 0.0);
  std::fill(z, z + len, 0.0);
  double* buf[2] = {s.y, s.work};
  for (int sweep = 0; sweep < sweeps; ++sweep) {
    const double* src = buf[sweep % 2];
    double* dst = buf[(sweep + 1) % 2];
#pragma omp parallel for schedule(dynamic, chunk)
    for (index_t i = 0; i < rows; ++i) lower_row<N>(f, s.lu, i, r, src, dst);
  }
  if (sweeps % 2 == 1) std::copy(s.work, s.work + len, s.y);
  double* zbuf[2] = {z, s.work};
  std::fill(s.work, s.work + len, 0.0);
  for (int sweep = 0; sweep < sweeps; ++sweep) {
    const double* src = zbuf[sweep % 2];
    double* dst = zbuf[(sweep + 1) % 2];
#pragma omp parallel for schedule(dynamic, chunk)
    for (index_t k = 0; k < rows; ++k) upper_row<N>(f, s.lu, s.dinv, rows - 1 - k, s.y, src, dst);
  }
  if (sweeps % 2 == 1) std::copy(s.work, s.work + len, z);
}

}  // namespace

index_t factor_sweeps(const FactorView& f, FactorState s, int sweeps, Schedule schedule, int chunk) {
  return dense::with_block_size(f.block_size, [&]<int N>() {
    return schedule == Schedule::asynchronous ? factor_async<N>(f, s, sweeps, chunk)
                                              : factor_sync<N>(f, s, sweeps, chunk);
  });
}

void triangular_sweeps(const FactorView& f, const ApplyState& s, const double* r, double* z, int sweeps,
                       Schedule schedule, int chunk) {
  dense::with_block_size(f.block_size, [&]<int N>() {
    if (schedule == Schedule::asynchronous)
      solve_async<N>(f, s, r, z, sweeps, chunk);
    else
      solve_sync<N>(f, s, r, z, sweeps, chunk);
  });
}

}  // namespace tb::async_ilu::omp
