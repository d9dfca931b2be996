#pragma once
// Block-wide sums and maxima in a fixed order (warp shuffles, then one warp
// over the warp results): no atomics on doubles, so a reduction gives the same
// bits on every run for a given launch shape. A reduction over a grid runs in
// one launch: each block stores its results, and the block that finishes last
// combines them in a fixed order (store_and_combine). Included only by .cu files.
#include <cuda_runtime.h>

#include <cstddef>
#include <string>

#include "solvers/core/cuda/error_check.cuh"

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

// Whether this block is the last of its launch to store its results. Thread 0
// fences the block's stores and takes a ticket; the block that takes the last
// one sees every block's results and sets the ticket back to 0 for the next
// launch (launches on one stream run in turn). Every thread of the block must
// call it, after thread 0 has stored the block's results.
__device__ __forceinline__ bool last_block(unsigned* ticket) {
  __shared__ bool last;
  if (threadIdx.x == 0) {
    __threadfence();  // this block's results before its ticket
    last = atomicAdd(ticket, 1u) == gridDim.x - 1;
    if (last) {
      *ticket = 0;
      __threadfence();  // the other blocks' results before this block reads them
    }
  }
  __syncthreads();
  return last;
}

// Both stages of a grid reduction in one launch: the block's K results (sums,
// or maxima of values >= 0) into partial[K * block + k], then, in the last
// block to store them, every block's results combined in block order into
// out[0..K). The bits are those of a second launch of one block doing the
// combination (each thread takes blocks t, t + Threads, ..., then store_block),
// without its launch. Every thread of every block must call it; true in the
// last block, whose thread 0 wrote out.
template <int Threads, int K, bool Max>
__device__ bool store_and_combine(const double* v, double* partial, unsigned* ticket, double* out) {
  store_block<Threads, K, Max>(v, partial + K * blockIdx.x);
  if (!last_block(ticket)) return false;
  double c[K] = {};
  for (unsigned b = threadIdx.x; b < gridDim.x; b += Threads)
    for (int k = 0; k < K; ++k) {
      const double p = __ldcg(partial + K * b + k);  // from L2: another block stored it
      c[k] = Max ? fmax(c[k], p) : c[k] + p;
    }
  store_block<Threads, K, Max>(c, out);
  return true;
}

// Device memory for a room's reductions: `doubles` of block results and
// results, then last_block's ticket, zeroed. Each room allocates it once and
// never frees it (static destructors may run after the CUDA context is gone).
struct Scratch {
  double* partial = nullptr;
  unsigned* ticket = nullptr;
};
inline Scratch allocate_scratch(std::size_t doubles, const char* what) {
  void* p = nullptr;
  cuda_error::throw_if(cudaMalloc(&p, doubles * sizeof(double) + sizeof(unsigned)),
                       std::string("cudaMalloc of ") + what);
  Scratch s{static_cast<double*>(p), reinterpret_cast<unsigned*>(static_cast<double*>(p) + doubles)};
  cuda_error::throw_if(cudaMemset(s.ticket, 0, sizeof(unsigned)), std::string("cudaMemset of ") + what);
  return s;
}

}  // namespace tb::cuda_reduction
