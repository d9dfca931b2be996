// CUDA twins of the asynchronous (block) ILU(0) kernels: one thread per block
// row, running the same loop bodies (row_kernels.hpp) as the host.
//
// Memory layout (the host's, copied as is): the factors lie on A's BSR
// pattern, blocks row-major and contiguous, a block row's blocks adjacent;
// dinv holds the inverted U_ii of each block row back to back; the product
// lists of Eq. 18 (prod_ptr, prod_l, prod_u) are block positions into lu.
// A thread's row therefore reads contiguous blocks, though neighbouring
// threads are a whole block row apart (no coalescing across lanes: the
// simple mapping the issue asks for, kept as the correctness twin).
//
// Schedules. One launch per sweep. asynchronous: in place, so a row reads
// whatever its neighbours have written so far in this launch (warps run in no
// fixed order: the GPU's own chaotic relaxation); synchronous: Jacobi between
// two buffers, bitwise equal to the host's synchronous kernels because this
// file is compiled without FMA contraction (CMakeLists.txt).
//
// Memory model (not changed here, noted only). The asynchronous launch reads
// entries that other threads of the same launch write, with plain loads: the
// race the host kernels avoid with relaxed std::atomic_ref
// (relaxed_row_kernels.hpp). Each thread reads an entry once per product, so
// no value is held across sweeps (launches end them), but a strict version
// would read and write lu, dinv, y and z through
// cuda::atomic_ref<double, cuda::thread_scope_device> with
// memory_order_relaxed, or read them with __ldcg (through L2, skipping a
// stale L1 line, so that other SMs' new values are seen within the launch).
#include <cuda_runtime.h>

#include <string>
#include <utility>

#include "solvers/async_ilu/kernels.hpp"
#include "solvers/core/block_size_dispatch.hpp"
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

// The CUDA kernels fix the block size at compile time, 1..8 only: no runtime-n twin.
template <class F>
decltype(auto) with_cuda_block_size(index_t n, F&& fn) {
  if (n < 1 || n > 8) throw Error("async_ilu: the CUDA kernels take block sizes 1..8, not " + std::to_string(n));
  return with_block_size(n, [&]<int N>() -> decltype(auto) {
    if constexpr (N == 0)
      return fn.template operator()<1>();  // never runs (refused above); keeps one return type
    else
      return fn.template operator()<N>();
  });
}

template <int N>
index_t factor(const FactorView& f, FactorState s, int sweeps, Schedule schedule) {
  const std::size_t nb = std::size_t(f.block_size) * std::size_t(f.block_size);
  index_t* bad = s.bad_row;
  const index_t none = f.block_rows;
  check(cudaMemcpy(bad, &none, sizeof(index_t), cudaMemcpyHostToDevice), "cudaMemcpy (async_ilu bad row)");
  const bool sync = schedule == Schedule::synchronous;
  for (int sweep = 0; sweep < sweeps; ++sweep) {
    if (sync) {
      factor_kernel<N><<<grid_for(f.block_rows), threads>>>(f, s.lu, s.dinv, s.lu_next, s.dinv_next, bad);
      std::swap(s.lu, s.lu_next);
      std::swap(s.dinv, s.dinv_next);
    } else {
      factor_kernel<N><<<grid_for(f.block_rows), threads>>>(f, s.lu, s.dinv, s.lu, s.dinv, bad);
    }
    cuda_error::check_launch("async_ilu factor_kernel");
  }
  if (sync && sweeps % 2 == 1) {
    check(cudaMemcpy(s.lu_next, s.lu, std::size_t(f.blocks) * nb * sizeof(double), cudaMemcpyDeviceToDevice),
          "cudaMemcpy (async_ilu factors)");
    check(cudaMemcpy(s.dinv_next, s.dinv, std::size_t(f.block_rows) * nb * sizeof(double), cudaMemcpyDeviceToDevice),
          "cudaMemcpy (async_ilu inverses)");
  }
  index_t first = none;
  check(cudaMemcpy(&first, bad, sizeof(index_t), cudaMemcpyDeviceToHost), "cudaMemcpy (async_ilu bad row)");
  return first == none ? index_t(-1) : first;
}

template <int N>
void solve(const FactorView& f, const ApplyState& s, const double* r, double* z, int sweeps, Schedule schedule) {
  const std::size_t bytes = std::size_t(f.block_rows) * std::size_t(f.block_size) * sizeof(double);
  const int grid = grid_for(f.block_rows);
  check(cudaMemset(s.y, 0, bytes), "cudaMemset (async_ilu y)");
  check(cudaMemset(z, 0, bytes), "cudaMemset (async_ilu z)");
  if (schedule == Schedule::asynchronous) {
    for (int sweep = 0; sweep < sweeps; ++sweep) lower_kernel<N><<<grid, threads>>>(f, s.lu, r, s.y, s.y);
    cuda_error::check_launch("async_ilu lower_kernel");
    for (int sweep = 0; sweep < sweeps; ++sweep) upper_kernel<N><<<grid, threads>>>(f, s.lu, s.dinv, s.y, z, z);
    cuda_error::check_launch("async_ilu upper_kernel");
    return;
  }
  double* buf[2] = {s.y, s.work};
  check(cudaMemset(s.work, 0, bytes), "cudaMemset (async_ilu work)");
  for (int sweep = 0; sweep < sweeps; ++sweep)
    lower_kernel<N><<<grid, threads>>>(f, s.lu, r, buf[sweep % 2], buf[(sweep + 1) % 2]);
  cuda_error::check_launch("async_ilu lower_kernel");
  if (sweeps % 2 == 1) check(cudaMemcpy(s.y, s.work, bytes, cudaMemcpyDeviceToDevice), "cudaMemcpy (async_ilu y)");
  double* zbuf[2] = {z, s.work};
  check(cudaMemset(s.work, 0, bytes), "cudaMemset (async_ilu work)");
  for (int sweep = 0; sweep < sweeps; ++sweep)
    upper_kernel<N><<<grid, threads>>>(f, s.lu, s.dinv, s.y, zbuf[sweep % 2], zbuf[(sweep + 1) % 2]);
  cuda_error::check_launch("async_ilu upper_kernel");
  if (sweeps % 2 == 1) check(cudaMemcpy(z, s.work, bytes, cudaMemcpyDeviceToDevice), "cudaMemcpy (async_ilu z)");
}

}  // namespace

index_t factor_sweeps(const FactorView& f, FactorState s, int sweeps, Schedule schedule, int /*chunk*/) {
  return with_cuda_block_size(f.block_size, [&]<int N>() { return factor<N>(f, s, sweeps, schedule); });
}

void triangular_sweeps(const FactorView& f, const ApplyState& s, const double* r, double* z, int sweeps,
                       Schedule schedule, int /*chunk*/) {
  with_cuda_block_size(f.block_size, [&]<int N>() { solve<N>(f, s, r, z, sweeps, schedule); });
}

}  // namespace tb::async_ilu::kernels::cuda
