#pragma once
// Block-wide sum in a fixed order (warp shuffles, then one warp over the warp
// sums): no atomics on doubles, so a reduction gives the same bits on every run
// for a given launch shape. Included only by .cu files.
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

}  // namespace tb::cuda_reduction
