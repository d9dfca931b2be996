// Host threads. The asynchronous kernels follow Alg. 2, 4 and 5 literally: the
// sweep loop runs inside one parallel region, each sweep is a dynamically
// scheduled loop over block rows with `nowait`, so a thread that finishes its
// rows of sweep s starts on sweep s+1 while others are still in sweep s. With
// one thread the loops run in natural order and the result is the sequential
// one bit for bit.
#include <algorithm>
#include <utility>

#include "kernels.hpp"
#include "relaxed_row_kernels.hpp"
#include "solvers/core/block_size_dispatch.hpp"
#include "solvers/precond/dense_block.hpp"

namespace tb::async_ilu::kernels::omp {

namespace {

void note_bad_row(index_t& bad, index_t i) {
#pragma omp critical(tb_async_ilu_bad_row)
  if (bad < 0 || i < bad) bad = i;
}

// Memory model of the asynchronous sweeps. The paper's iteration reads
// whatever value of a neighbour's entry is current, old or new (Eq. 16: a
// shift per entry), while another thread may be writing that entry: with
// plain doubles a data race, undefined behaviour in C++, which allows the
// compiler to keep an entry in a register across sweeps, to split or repeat
// its loads, and which ThreadSanitizer rightly reports. The asynchronous
// kernels therefore use the relaxed row bodies (relaxed_row_kernels.hpp): every
// access to lu, dinv and the sweep's iterate is a std::atomic_ref with
// memory_order_relaxed. A relaxed load returns some value that was stored,
// whole, and orders nothing else -- exactly what the asynchronous model asks,
// no more. On x86-64 relaxed loads and stores of aligned doubles are plain
// moves (no fence, no lock prefix). The price is in optimisation: each shared
// block is copied into a local before the dense kernel runs on it, and the
// compiler reloads other memory after an atomic access (docs/async_ilu.md:
// +30 % in the b = 4 factor kernel, lost in the noise of a whole solve). A
// block may still be read half old, half new: entries are atomic one by one,
// as the model allows.
template <int N>
index_t factor_async(const FactorView& f, FactorState s, int sweeps, int chunk) {
  index_t bad = -1;
  const index_t rows = f.block_rows;
#pragma omp parallel
  {
    // Per-thread copies of the view and pointers: an atomic access obliges the
    // compiler to reload whatever another thread might write, which includes
    // anything read through a reference to shared data, but not these locals.
    const FactorView view = f;
    double* const lu = s.lu;
    double* const dinv = s.dinv;
    for (int sweep = 0; sweep < sweeps; ++sweep) {
#pragma omp for schedule(dynamic, chunk) nowait
      for (index_t i = 0; i < rows; ++i)
        if (!relaxed::factor_row<N>(view, i, lu, dinv)) note_bad_row(bad, i);
    }
  }
  return bad;
}

// Plain rows: a sweep reads only src, which the previous sweep finished
// before the implicit barrier of its loop, and writes only its own rows of dst.
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
  // finished y (the paper applies L^{-1}, then U^{-1}). Only y, then z, is
  // shared and written: relaxed rows (see factor_async).
#pragma omp parallel
  {
    const FactorView view = f;  // per-thread copies, as in factor_async
    const double* const lu = s.lu;
    double* const y = s.y;
    for (int sweep = 0; sweep < sweeps; ++sweep) {
#pragma omp for schedule(dynamic, chunk) nowait
      for (index_t i = 0; i < rows; ++i) relaxed::lower_row<N>(view, lu, i, r, y);
    }
  }
#pragma omp parallel
  {
    const FactorView view = f;
    const double* const lu = s.lu;
    const double* const dinv = s.dinv;
    const double* const y = s.y;
    for (int sweep = 0; sweep < sweeps; ++sweep) {
#pragma omp for schedule(dynamic, chunk) nowait
      for (index_t k = 0; k < rows; ++k) relaxed::upper_row<N>(view, lu, dinv, rows - 1 - k, y, z);
    }
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

// Each thread copies the values of its own block rows and inverts their
// diagonal blocks: one pass over A, every entry computed on one thread.
void initial_guess(const FactorView& f, double* lu, double* dinv) {
  const index_t rows = f.block_rows;
  const std::size_t nb = std::size_t(f.block_size) * std::size_t(f.block_size);
  with_block_size(f.block_size, [&]<int N>() {
#pragma omp parallel for schedule(static)
    for (index_t i = 0; i < rows; ++i) {
      const std::size_t begin = std::size_t(f.row_ptr[i]) * nb, end = std::size_t(f.row_ptr[i + 1]) * nb;
      std::copy(f.a + begin, f.a + end, lu + begin);
      initial_inverse_row<N>(f, i, dinv);
    }
  });
}

index_t factor_sweeps(const FactorView& f, FactorState s, int sweeps, Schedule schedule, const SweepSplit& split) {
  const int chunk = split.chunk;
  return with_block_size(f.block_size, [&]<int N>() {
    return schedule == Schedule::asynchronous ? factor_async<N>(f, s, sweeps, chunk)
                                              : factor_sync<N>(f, s, sweeps, chunk);
  });
}

void triangular_sweeps(const FactorView& f, const ApplyState& s, const double* r, double* z, int sweeps,
                       Schedule schedule, const SweepSplit& split) {
  const int chunk = split.chunk;
  with_block_size(f.block_size, [&]<int N>() {
    if (schedule == Schedule::asynchronous)
      solve_async<N>(f, s, r, z, sweeps, chunk);
    else
      solve_sync<N>(f, s, r, z, sweeps, chunk);
  });
}

}  // namespace tb::async_ilu::kernels::omp
