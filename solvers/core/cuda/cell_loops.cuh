#pragma once
// One thread per cell over a range of cells, in grid-stride loops, and
// reductions over such a range: each block reduces its cells in a fixed order
// and the last block to finish combines the block results (reduction.cuh), in
// one launch, and K results come back in one small copy (counted at solvers/core/transfers.hpp). No atomics,
// so a reduction gives the same bits on every run for a given range. The
// physics rooms' CUDA kernels run their per-cell bodies (TB_HOST_DEVICE) through
// these. Included only by .cu files.
#include <cuda_runtime.h>

#include <algorithm>
#include <mutex>
#include <string>

#include "solvers/core/cuda/counted_copy.cuh"
#include "solvers/core/cuda/error_check.cuh"
#include "solvers/core/cuda/reduction.cuh"
#include "solvers/core/types.hpp"

namespace tb::cuda_cells {

constexpr int threads = 256;
// Also the number of partial results: fixed, so the order of a sum depends on
// the range only.
constexpr int max_blocks = 1024;
// The most results one reduction returns.
constexpr int max_results = 8;

inline int blocks_for(index_t n) {
  return int(std::max<long>(1, std::min<long>((long(n) + threads - 1) / threads, max_blocks)));
}

__device__ __forceinline__ index_t first_index() { return index_t(blockIdx.x * blockDim.x + threadIdx.x); }
__device__ __forceinline__ index_t grid_stride() { return index_t(gridDim.x * blockDim.x); }

// body(i, v) adds cell i into its K values v (or takes their maxima); the K
// results of the range into result.
template <int K, bool Max, class Body>
__global__ void __launch_bounds__(threads)
    reduce_cells(index_t begin, index_t end, Body body, double* partial, unsigned* ticket, double* result) {
  double v[K] = {};
  for (index_t i = begin + first_index(); i < end; i += grid_stride()) body(i, v);
  cuda_reduction::store_and_combine<threads, K, Max>(v, partial, ticket, result);
}

template <class Body>
__global__ void __launch_bounds__(threads) for_cells(index_t begin, index_t end, Body body) {
  for (index_t i = begin + first_index(); i < end; i += grid_stride()) body(i);
}

// body(i) for every cell i of [begin, end); `name` names the launch in errors.
template <class Body>
void run_cells(index_t begin, index_t end, Body body, const char* name) {
  if (end <= begin) return;
  for_cells<<<blocks_for(end - begin), threads>>>(begin, end, body);
  cuda_error::check_launch(name);
}

// Device memory for block results (cuda_reduction::allocate_scratch); one
// reduction at a time uses it.
inline std::mutex& scratch_mutex() {
  static std::mutex m;
  return m;
}
inline const cuda_reduction::Scratch& scratch() {
  static const cuda_reduction::Scratch s =
      cuda_reduction::allocate_scratch(max_results * max_blocks + max_results, "the cell reductions' scratch");
  return s;
}

// result[0..K) on the host: the sums (or maxima, of values >= 0) of body's K
// values over the cells of [begin, end).
template <int K, bool Max, class Body>
void run_reduction(index_t begin, index_t end, Body body, double* result, const char* name) {
  static_assert(K <= max_results, "the scratch holds max_results per block");
  std::lock_guard lock(scratch_mutex());
  const cuda_reduction::Scratch& s = scratch();
  double* out = s.partial + K * max_blocks;
  reduce_cells<K, Max><<<blocks_for(end - begin), threads>>>(begin, end, body, s.partial, s.ticket, out);
  cuda_error::check_launch(name);
  cuda_error::throw_if(cuda_copy::memcpy(result, out, K * sizeof(double), cudaMemcpyDeviceToHost),
                       std::string("cudaMemcpy of the ") + name + " result");
}

}  // namespace tb::cuda_cells
