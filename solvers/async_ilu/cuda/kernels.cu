// CUDA twins of the asynchronous (block) ILU(0) kernels, two mappings of
// block rows onto threads (GpuRows, resolved by resolve_gpu_rows):
// - thread: one thread per block row, running row_kernels.hpp's bodies, the
//   whole row in the thread's registers (blocks 1..8);
// - group: a group of W lanes of one warp per block row (W the power of two
//   at or above n, so a warp holds 32 / W rows), lane c computing component c
//   with group_row_kernels.hpp's bodies; U_ii's inversion and the backward
//   sweep's last product go through the group's shared-memory scratch
//   (blocks 1..32).
// Both compute the host's arithmetic operation for operation, so that the
// synchronous schedule is bitwise equal to the host's kernels: this file is
// compiled without FMA contraction (CMakeLists.txt).
//
// Memory layout (the host's, copied as is): the factors lie on A's BSR
// pattern, blocks row-major and contiguous, a block row's blocks adjacent;
// dinv holds the inverted U_ii of each block row back to back; the product
// lists of Eq. 18 (prod_ptr, prod_l, prod_u) are block positions into lu. In
// the thread mapping neighbouring threads are a whole block row apart (no
// coalescing across lanes); in the group mapping the lanes of a group read the
// rows of one block, which lie together.
//
// Schedules. One launch per sweep. asynchronous: in place, so a row reads
// whatever its neighbours have written so far in this launch (warps run in no
// fixed order: the GPU's own chaotic relaxation); synchronous: Jacobi between
// two buffers.
//
// Memory model. The asynchronous launch reads entries that other threads of
// the same launch write, with plain loads: the race the host kernels avoid
// with relaxed std::atomic_ref (relaxed_row_kernels.hpp). Each thread reads an
// entry once per product, so no value is held across sweeps (launches end
// them); a strict version would read and write lu, dinv, y and z through
// cuda::atomic_ref<double, cuda::thread_scope_device> with
// memory_order_relaxed, or read them with __ldcg.
#include <cuda_runtime.h>

#include <string>
#include <utility>

#include "solvers/async_ilu/group_row_kernels.hpp"
#include "solvers/async_ilu/kernels.hpp"
#include "solvers/core/block_size_dispatch.hpp"
#include "solvers/core/cuda/counted_copy.cuh"
#include "solvers/core/cuda/error_check.cuh"
#include "solvers/core/error.hpp"

namespace tb::async_ilu::kernels::cuda {

namespace {

constexpr int threads = 128;

int grid_for(index_t rows) { return int((rows + threads - 1) / threads); }

template <int N>
__global__ void factor_kernel(FactorView f, const double* src, const double* src_dinv, double* dst, double* dst_dinv,
                              index_t* bad) {
  const index_t i = index_t(blockIdx.x) * threads + index_t(threadIdx.x);
  if (i >= f.block_rows) return;
  if (!factor_row<N>(f, i, src, src_dinv, dst, dst_dinv)) atomicMin(bad, i);
}

// A thread per block row: the initial guess's U_ii^{-1}, inverted in dinv
// where it lies (N = 0: the runtime size, for blocks above 8).
template <int N>
__global__ void initial_inverse_kernel(FactorView f, double* dinv) {
  const index_t i = index_t(blockIdx.x) * threads + index_t(threadIdx.x);
  if (i < f.block_rows) initial_inverse_row<N>(f, i, dinv);
}

// The factor kernels' report of a singular U_ii, reset on the device: no
// copy from the host before a factorization.
__global__ void reset_bad_row(index_t* bad, index_t none) { *bad = none; }

template <int N>
__global__ void lower_kernel(FactorView f, const double* lu, const double* rhs, const double* src, double* dst) {
  const index_t i = index_t(blockIdx.x) * threads + index_t(threadIdx.x);
  if (i < f.block_rows) lower_row<N>(f, lu, i, rhs, src, dst);
}

// Thread k takes block row rows-1-k, so the lower-numbered blocks of the grid,
// which tend to start first, take the rows the backward solve needs first.
template <int N>
__global__ void upper_kernel(FactorView f, const double* lu, const double* dinv, const double* rhs, const double* src,
                             double* dst) {
  const index_t k = index_t(blockIdx.x) * threads + index_t(threadIdx.x);
  if (k < f.block_rows) upper_row<N>(f, lu, dinv, f.block_rows - 1 - k, rhs, src, dst);
}

void check(cudaError_t status, const char* what) { cuda_error::throw_if(status, what); }

// A group of W lanes of one warp (W a power of two, 1..32): the W lanes of
// the warp's W-aligned slice that holds this thread.
template <int W>
struct WarpGroup {
  unsigned mask = 0;
  index_t lane_ = 0;
  __device__ WarpGroup() : lane_(index_t(threadIdx.x % W)) {
    const unsigned lanes = W == 32 ? 0xffffffffu : ((1u << W) - 1u);
    mask = lanes << ((threadIdx.x % 32) / W * W);
  }
  __device__ index_t lane() const { return lane_; }
  __device__ void sync() const { __syncwarp(mask); }
  __device__ bool all(bool p) const { return __all_sync(mask, p) != 0; }
};

// The lanes of a group for blocks of N: the power of two at or above N (group_width).
template <int N>
constexpr int width_of = N <= 1    ? 1
                         : N <= 2  ? 2
                         : N <= 4  ? 4
                         : N <= 8  ? 8
                         : N <= 16 ? 16
                                   : 32;

// A block of group_threads threads holds group_threads / W groups, one block row each.
constexpr int group_threads = 128;

template <int N>
constexpr int groups_per_block = group_threads / width_of<N>;

int group_grid(index_t rows, int groups) { return int((rows + groups - 1) / groups); }

template <int N>
__global__ void group_factor_kernel(FactorView f, const double* src, const double* src_dinv, double* dst,
                                    double* dst_dinv, index_t* bad) {
  constexpr int groups = groups_per_block<N>;
  __shared__ double scratch[groups * N * N];
  const int g = int(threadIdx.x) / width_of<N>;
  const index_t i = index_t(blockIdx.x) * groups + g;
  if (i >= f.block_rows) return;  // the whole group leaves together
  const WarpGroup<width_of<N>> lanes;
  if (!group::factor_row<N>(f, i, src, src_dinv, dst, dst_dinv, scratch + g * N * N, lanes) && lanes.lane() == 0)
    atomicMin(bad, i);
}

template <int N>
__global__ void group_lower_kernel(FactorView f, const double* lu, const double* rhs, const double* src, double* dst) {
  constexpr int groups = groups_per_block<N>;
  const index_t i = index_t(blockIdx.x) * groups + int(threadIdx.x) / width_of<N>;
  if (i < f.block_rows) group::lower_row<N>(f, lu, i, rhs, src, dst, WarpGroup<width_of<N>>());
}

// Group k takes block row rows-1-k, as upper_kernel's threads do.
template <int N>
__global__ void group_upper_kernel(FactorView f, const double* lu, const double* dinv, const double* rhs,
                                   const double* src, double* dst) {
  constexpr int groups = groups_per_block<N>;
  __shared__ double scratch[groups * N];
  const int g = int(threadIdx.x) / width_of<N>;
  const index_t k = index_t(blockIdx.x) * groups + g;
  if (k >= f.block_rows) return;
  group::upper_row<N>(f, lu, dinv, f.block_rows - 1 - k, rhs, src, dst, scratch + g * N, WarpGroup<width_of<N>>());
}

// One sweep of each kind, by the mapping chosen at set-up; each launch checked
// (and counted) where it is issued.
template <int N>
struct Launch {
  GpuRows rows;
  index_t block_rows;

  void factor(const FactorView& f, const double* src, const double* src_dinv, double* dst, double* dst_dinv,
              index_t* bad) const {
    if constexpr (N <= 8) {
      if (rows == GpuRows::thread) {
        factor_kernel<N><<<grid_for(block_rows), threads>>>(f, src, src_dinv, dst, dst_dinv, bad);
        cuda_error::check_launch("async_ilu factor_kernel");
        return;
      }
    }
    group_factor_kernel<N>
        <<<group_grid(block_rows, groups_per_block<N>), group_threads>>>(f, src, src_dinv, dst, dst_dinv, bad);
    cuda_error::check_launch("async_ilu group_factor_kernel");
  }
  void lower(const FactorView& f, const double* lu, const double* rhs, const double* src, double* dst) const {
    if constexpr (N <= 8) {
      if (rows == GpuRows::thread) {
        lower_kernel<N><<<grid_for(block_rows), threads>>>(f, lu, rhs, src, dst);
        cuda_error::check_launch("async_ilu lower_kernel");
        return;
      }
    }
    group_lower_kernel<N><<<group_grid(block_rows, groups_per_block<N>), group_threads>>>(f, lu, rhs, src, dst);
    cuda_error::check_launch("async_ilu group_lower_kernel");
  }
  void upper(const FactorView& f, const double* lu, const double* dinv, const double* rhs, const double* src,
             double* dst) const {
    if constexpr (N <= 8) {
      if (rows == GpuRows::thread) {
        upper_kernel<N><<<grid_for(block_rows), threads>>>(f, lu, dinv, rhs, src, dst);
        cuda_error::check_launch("async_ilu upper_kernel");
        return;
      }
    }
    group_upper_kernel<N><<<group_grid(block_rows, groups_per_block<N>), group_threads>>>(f, lu, dinv, rhs, src, dst);
    cuda_error::check_launch("async_ilu group_upper_kernel");
  }
};

// The CUDA kernels fix the block size at compile time, 1..32: no runtime-n twin.
template <class F>
decltype(auto) with_cuda_block_size(index_t n, F&& fn) {
  if (n < 1 || n > max_group_block)
    throw Error("async_ilu: the CUDA kernels take block sizes 1..32, not " + std::to_string(n));
  return with_block_size_up_to<int(max_group_block)>(n, [&]<int N>() -> decltype(auto) {
    if constexpr (N == 0)
      return fn.template operator()<1>();  // never runs (refused above); keeps one return type
    else
      return fn.template operator()<N>();
  });
}

template <int N>
index_t factor(const FactorView& f, FactorState s, int sweeps, Schedule schedule, GpuRows rows) {
  const Launch<N> launch{rows, f.block_rows};
  const std::size_t nb = std::size_t(f.block_size) * std::size_t(f.block_size);
  index_t* bad = s.bad_row;
  const index_t none = f.block_rows;
  reset_bad_row<<<1, 1>>>(bad, none);
  cuda_error::check_launch("async_ilu reset_bad_row");
  const bool sync = schedule == Schedule::synchronous;
  for (int sweep = 0; sweep < sweeps; ++sweep) {
    if (sync) {
      launch.factor(f, s.lu, s.dinv, s.lu_next, s.dinv_next, bad);
      std::swap(s.lu, s.lu_next);
      std::swap(s.dinv, s.dinv_next);
    } else {
      launch.factor(f, s.lu, s.dinv, s.lu, s.dinv, bad);
    }
  }
  if (sync && sweeps % 2 == 1) {
    check(cuda_copy::memcpy(s.lu_next, s.lu, std::size_t(f.blocks) * nb * sizeof(double), cudaMemcpyDeviceToDevice),
          "cudaMemcpy (async_ilu factors)");
    check(cuda_copy::memcpy(s.dinv_next, s.dinv, std::size_t(f.block_rows) * nb * sizeof(double),
                            cudaMemcpyDeviceToDevice),
          "cudaMemcpy (async_ilu inverses)");
  }
  index_t first = none;
  check(cuda_copy::memcpy(&first, bad, sizeof(index_t), cudaMemcpyDeviceToHost), "cudaMemcpy (async_ilu bad row)");
  return first == none ? index_t(-1) : first;
}

template <int N>
void solve(const FactorView& f, const ApplyState& s, const double* r, double* z, int sweeps, Schedule schedule,
           GpuRows rows) {
  const std::size_t bytes = std::size_t(f.block_rows) * std::size_t(f.block_size) * sizeof(double);
  const Launch<N> launch{rows, f.block_rows};
  check(cudaMemset(s.y, 0, bytes), "cudaMemset (async_ilu y)");
  check(cudaMemset(z, 0, bytes), "cudaMemset (async_ilu z)");
  if (schedule == Schedule::asynchronous) {
    for (int sweep = 0; sweep < sweeps; ++sweep) launch.lower(f, s.lu, r, s.y, s.y);
    for (int sweep = 0; sweep < sweeps; ++sweep) launch.upper(f, s.lu, s.dinv, s.y, z, z);
    return;
  }
  double* buf[2] = {s.y, s.work};
  check(cudaMemset(s.work, 0, bytes), "cudaMemset (async_ilu work)");
  for (int sweep = 0; sweep < sweeps; ++sweep) launch.lower(f, s.lu, r, buf[sweep % 2], buf[(sweep + 1) % 2]);
  if (sweeps % 2 == 1)
    check(cuda_copy::memcpy(s.y, s.work, bytes, cudaMemcpyDeviceToDevice), "cudaMemcpy (async_ilu y)");
  double* zbuf[2] = {z, s.work};
  check(cudaMemset(s.work, 0, bytes), "cudaMemset (async_ilu work)");
  for (int sweep = 0; sweep < sweeps; ++sweep)
    launch.upper(f, s.lu, s.dinv, s.y, zbuf[sweep % 2], zbuf[(sweep + 1) % 2]);
  if (sweeps % 2 == 1) check(cuda_copy::memcpy(z, s.work, bytes, cudaMemcpyDeviceToDevice), "cudaMemcpy (async_ilu z)");
}

}  // namespace

// lu = A by a copy on the device, then a thread per block row for dinv.
// Blocks above 8 take the runtime-size inversion, the same operations: a
// thread's registers hold neither, and one kernel serves sizes 9..32.
void initial_guess(const FactorView& f, double* lu, double* dinv) {
  const std::size_t nb = std::size_t(f.block_size) * std::size_t(f.block_size);
  check(cuda_copy::memcpy(lu, f.a, std::size_t(f.blocks) * nb * sizeof(double), cudaMemcpyDeviceToDevice),
        "cudaMemcpy (async_ilu initial guess)");
  with_cuda_block_size(f.block_size, [&]<int N>() {
    constexpr int size = N <= 8 ? N : 0;
    initial_inverse_kernel<size><<<grid_for(f.block_rows), threads>>>(f, dinv);
    cuda_error::check_launch("async_ilu initial_inverse_kernel");
  });
}

index_t factor_sweeps(const FactorView& f, FactorState s, int sweeps, Schedule schedule, const SweepSplit& split) {
  const GpuRows rows = resolve_gpu_rows(split.gpu_rows, f.block_size);
  return with_cuda_block_size(f.block_size, [&]<int N>() { return factor<N>(f, s, sweeps, schedule, rows); });
}

void triangular_sweeps(const FactorView& f, const ApplyState& s, const double* r, double* z, int sweeps,
                       Schedule schedule, const SweepSplit& split) {
  const GpuRows rows = resolve_gpu_rows(split.gpu_rows, f.block_size);
  with_cuda_block_size(f.block_size, [&]<int N>() { solve<N>(f, s, r, z, sweeps, schedule, rows); });
}

}  // namespace tb::async_ilu::kernels::cuda
