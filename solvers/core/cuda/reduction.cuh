#pragma once
// Block-wide sums and maxima in a fixed order (warp shuffles, then one warp
// over the warp results): no atomics on doubles, so a reduction gives the same
// bits on every run for a given launch shape. Included only by .cu files.
#include <cuda_runtime.h>

namespace tb::cuda_reduction {

constexpr int warp_size = 32;
constexpr unsigned full_warp = 0xffffffffu;

__device__ __forceinline__ double warp_sum(double v) {
  for (int offset = warp_size / 2; offset > 0; offset /= 2) v += __shfl_down_sync(full_warp, v, offset);
  return v;
}

// Every thread of the block must call it; the sum is valid in thread 0.
template <int Threads>
__device__ double block_sum(double v) {
  static_assert(Threads % warp_size == 0 && Threads / warp_size <= warp_size, "one warp must hold the warp sums");
  __shared__ double warp_sums[Threads / warp_size];
  const int lane = threadIdx.x % warp_size;
  const int warp = threadIdx.x / warp_size;
  v = warp_sum(v);
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0) v = warp_sum(lane < Threads / warp_size ? warp_sums[lane] : 0.0);
  return v;
}

__device__ __forceinline__ double warp_max(double v) {
  for (int offset = warp_size / 2; offset > 0; offset /= 2) v = fmax(v, __shfl_down_sync(full_warp, v, offset));
  return v;
}

// Block-wide maximum of values >= 0 (0 fills the empty warp slots); as block_sum.
template <int Threads>
__device__ double block_max(double v) {
  static_assert(Threads % warp_size == 0 && Threads / warp_size <= warp_size, "one warp must hold the warp maxima");
  __shared__ double warp_maxima[Threads / warp_size];
  const int lane = threadIdx.x % warp_size;
  const int warp = threadIdx.x / warp_size;
  v = warp_max(v);
  if (lane == 0) warp_maxima[warp] = v;
  __syncthreads();
  if (warp == 0) v = warp_max(lane < Threads / warp_size ? warp_maxima[lane] : 0.0);
  return v;
}

// K block results, each a sum (Max = false) or a maximum of values >= 0, into
// out[0..K) by thread 0. Every thread of the block must call it; the barrier
// after each result lets the next reuse the shared slots.
template <int Threads, int K, bool Max>
__device__ void store_block(const double* v, double* out) {
  for (int k = 0; k < K; ++k) {
    const double b = Max ? block_max<Threads>(v[k]) : block_sum<Threads>(v[k]);
    if (threadIdx.x == 0) out[k] = b;
    __syncthreads();
  }
}

}  // namespace tb::cuda_reduction
