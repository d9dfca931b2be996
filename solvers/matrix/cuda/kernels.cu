// y = A x for a BSR matrix on the GPU (layout in bsr.hpp: blocks row-major,
// the blocks of one block row adjacent in memory).
//
// Which kernel, and why (measured, not assumed). Two mappings exist for
// bs <= 8:
// - one thread per scalar row (spmv_thread_per_row): thread r of block row i
//   reads its bs contiguous doubles of each block; neighbouring lanes sit bs
//   doubles apart, so a warp load spans several sectors, which the L1 then
//   serves to the neighbours on the next iterations of c;
// - the flat walk (spmv_flat, bsr_spmv_flat): a group of G lanes walks its
//   block row's contiguous run of nnzb_i * bs^2 doubles with consecutive lanes
//   on consecutive doubles, so every warp load is whole sectors; each lane
//   keeps bs partial sums (bs <= 8, a compile-time constant) and the group
//   reduces them with shuffles at the end.
// Whole-sector loads suggest the flat walk, but on an H100 (tb-bench-spmv,
// bench/results/gpu-spmv.json: its `flat` and `cuda` columns) thread-per-row
// is the faster for every bs <= 8: the caches absorb the strided loads, while
// the flat walk's short per-lane runs and shuffle reductions leave latency
// exposed. bsr_spmv therefore uses thread-per-row for bs <= 8; the flat walk
// stays, tested and benchmarked, as the alternative to measure on other GPUs.
//
// For bs > 8 (not yet measured) a warp takes one block row and, for each
// scalar row r in turn, walks the row-r slices of its blocks (bs contiguous
// doubles per block: 104 bytes for bs = 13, 256 or 512 for 32 and 64), with
// consecutive lanes on consecutive doubles.
#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "solvers/core/block_size_dispatch.hpp"
#include "solvers/core/cuda/error_check.cuh"
#include "solvers/core/error.hpp"
#include "solvers/matrix/cuda/kernels.hpp"
#include "solvers/matrix/kernels.hpp"

namespace tb::kernels::cuda {

namespace {

constexpr int threads = 256;
constexpr int warp_size = 32;

// Lanes of the calling thread's group of G within its warp.
template <int G>
__device__ __forceinline__ unsigned group_mask() {
  if constexpr (G == warp_size) {
    return 0xffffffffu;
  } else {
    const unsigned lane = threadIdx.x % warp_size;
    return ((1u << G) - 1u) << (lane / G * G);
  }
}

// Butterfly sum over the G lanes of a group: every lane receives the total.
template <int G>
__device__ __forceinline__ double group_sum(double v, unsigned mask) {
  for (int offset = G / 2; offset > 0; offset /= 2) v += __shfl_xor_sync(mask, v, offset, G);
  return v;
}

template <int BS, int G>
__global__ void __launch_bounds__(threads) spmv_flat(BsrView a, const double* __restrict__ x, double* __restrict__ y) {
  static_assert(G >= BS && warp_size % G == 0, "a group writes its BS results from distinct lanes of one warp");
  constexpr int entries = BS * BS;
  const std::int64_t i = (std::int64_t(blockIdx.x) * threads + threadIdx.x) / G;
  if (i >= a.block_rows) return;  // whole groups leave together: G divides the block
  const int lane = threadIdx.x % G;
  const index_t first = a.row_ptr[i];
  const index_t* cols = a.col_idx + first;
  const double* vals = a.values + std::size_t(first) * entries;
  // A block row's run fits an int: fewer than 2^31 / 64^2 blocks per block row.
  const int run = (a.row_ptr[i + 1] - first) * entries;
  double acc[BS] = {};
  for (int p = lane; p < run; p += G) {
    const int k = p / entries;
    const int e = p - k * entries;
    const int r = e / BS;
    const int c = e - r * BS;
    const double prod = __ldcs(vals + p) * __ldg(x + std::size_t(__ldg(cols + k)) * BS + c);
#pragma unroll
    for (int q = 0; q < BS; ++q)
      if (q == r) acc[q] += prod;
  }
  const unsigned mask = group_mask<G>();
  double mine = 0.0;
#pragma unroll
  for (int q = 0; q < BS; ++q) {
    const double total = group_sum<G>(acc[q], mask);
    if (q == lane) mine = total;
  }
  if (lane < BS) y[std::size_t(i) * BS + lane] = mine;
}

__global__ void __launch_bounds__(threads)
    spmv_warp_per_block_row(BsrView a, const double* __restrict__ x, double* __restrict__ y) {
  const std::int64_t i = (std::int64_t(blockIdx.x) * threads + threadIdx.x) / warp_size;
  if (i >= a.block_rows) return;  // whole warps leave together
  const int lane = threadIdx.x % warp_size;
  const int bs = a.block_size;
  const index_t first = a.row_ptr[i];
  const index_t* cols = a.col_idx + first;
  const double* vals = a.values + std::size_t(first) * bs * bs;
  const int slice = (a.row_ptr[i + 1] - first) * bs;  // row-r slices of all blocks, bs doubles each
  for (int r = 0; r < bs; ++r) {
    double s = 0.0;
    for (int t = lane; t < slice; t += warp_size) {
      const int k = t / bs;
      const int c = t - k * bs;
      s += __ldcs(vals + (std::size_t(k) * bs + r) * bs + c) * __ldg(x + std::size_t(__ldg(cols + k)) * bs + c);
    }
    for (int offset = warp_size / 2; offset > 0; offset /= 2) s += __shfl_xor_sync(0xffffffffu, s, offset);
    if (lane == 0) y[std::size_t(i) * bs + r] = s;
  }
}

__global__ void __launch_bounds__(threads) spmv_thread_per_row(BsrView a, const double* x, double* y) {
  const std::int64_t row = std::int64_t(blockIdx.x) * threads + threadIdx.x;
  const int bs = a.block_size;
  if (row >= std::int64_t(a.block_rows) * bs) return;
  const index_t i = index_t(row / bs);
  const int r = int(row - std::int64_t(i) * bs);
  double s = 0.0;
  for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
    const double* blk = a.values + std::size_t(k) * bs * bs + std::size_t(r) * bs;
    const double* xj = x + std::size_t(a.col_idx[k]) * bs;
    for (int c = 0; c < bs; ++c) s += blk[c] * xj[c];
  }
  y[row] = s;
}

unsigned blocks_for_threads(std::int64_t n_threads) { return unsigned((n_threads + threads - 1) / threads); }

// Lanes per block row for bs <= 8; see the comment at the top.
constexpr int group_lanes(int bs) { return bs == 1 ? 4 : bs == 2 ? 8 : bs == 3 ? 16 : warp_size; }

template <int BS>
void launch_flat(const BsrView& a, const double* x, double* y) {
  constexpr int G = group_lanes(BS);
  spmv_flat<BS, G><<<blocks_for_threads(std::int64_t(a.block_rows) * G), threads>>>(a, x, y);
  cuda_error::check_launch("bsr_spmv (flat walk)");
}

void check_block_size(const BsrView& a) {
  if (a.block_size < 1 || a.block_size > max_block_size)
    throw Error("kernels::cuda::bsr_spmv: block size " + std::to_string(a.block_size) + " outside 1.." +
                std::to_string(max_block_size));
}

}  // namespace

// The tuned product: one thread per scalar row for block sizes 1..8, a warp
// per block row above.
void bsr_spmv(const BsrView& a, const double* x, double* y) {
  check_block_size(a);
  if (a.block_rows == 0) return;
  if (a.block_size <= 8) return bsr_spmv_ref(a, x, y);  // the faster mapping on an H100, see the top
  spmv_warp_per_block_row<<<blocks_for_threads(std::int64_t(a.block_rows) * warp_size), threads>>>(a, x, y);
  cuda_error::check_launch("bsr_spmv (warp per block row)");
}

void bsr_spmv_flat(const BsrView& a, const double* x, double* y) {
  check_block_size(a);
  if (a.block_size > 8)
    throw Error("kernels::cuda::bsr_spmv_flat: block size " + std::to_string(a.block_size) + " outside 1..8");
  if (a.block_rows == 0) return;
  with_block_size(a.block_size, [&]<int N>() {
    if constexpr (N > 0) launch_flat<N>(a, x, y);  // N = 0 (above 8) is refused above
  });
}

void bsr_spmv_ref(const BsrView& a, const double* x, double* y) {
  check_block_size(a);
  if (a.block_rows == 0) return;
  spmv_thread_per_row<<<blocks_for_threads(std::int64_t(a.block_rows) * a.block_size), threads>>>(a, x, y);
  cuda_error::check_launch("bsr_spmv_ref");
}

}  // namespace tb::kernels::cuda
