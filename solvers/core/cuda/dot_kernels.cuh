#pragma once
// Dot products on a device as templates every room's CUDA files can launch:
// K dot products against one vector in one pass and one launch, or an update
// w += sum_k a_k v_k with the new w's squared norm; the block sums combined by
// the last block to finish (reduction.cuh), which then runs the launcher's
// follow-up on the results (`then`, thread 0): a scalar step that reads a
// reduction (GMRES's, krylov/cuda/kernels.cu) needs no launch of its own. The
// launch shape is fixed here and every product an explicit fma, so a result
// has the same bits whichever room launches it, whatever its file's
// contraction flags. Included only by .cu files.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>

#include "solvers/core/cuda/error_check.cuh"
#include "solvers/core/cuda/reduction.cuh"

namespace tb::cuda_dots {

constexpr int threads = 256;
// Also the number of block sums: it depends on n only, never on the device,
// so a dot product gives the same bits on an H100 and an H200.
constexpr int max_blocks = 1024;
// Vectors a launch takes.
constexpr int max_group = 4;
// The block sums a launch stores (cuda_reduction::Scratch::partial).
constexpr std::size_t partial_doubles = std::size_t(max_group) * max_blocks;

// One block at least: a reduction over no entries stores zero sums (and runs its follow-up).
inline int blocks_for(std::size_t n) {
  return int(std::clamp<std::size_t>((n + threads - 1) / threads, 1, max_blocks));
}

__device__ __forceinline__ std::size_t first_index() { return std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; }
__device__ __forceinline__ std::size_t grid_stride() { return std::size_t(gridDim.x) * blockDim.x; }

// Up to four vectors, by value.
struct VectorGroup {
  const double* v[max_group];
};

// w[i] += sum_k ak[k] v[k][i] by the operations of K axpy_from calls in turn
// (an explicit fma each); returns the new w[i]. The one update of
// kernels.cu's multi_axpy_from_kernel and of axpy_then_norm_kernel.
template <int K>
__device__ __forceinline__ double add_columns(const double (&ak)[K], const VectorGroup& v, double* w, std::size_t i) {
  double t = w[i];
  for (int k = 0; k < K; ++k) t = fma(ak[k], v.v[k][i], 1.0 * t);
  w[i] = t;
  return t;
}

// The first vector of the last group when k vectors go max_group to a launch.
inline int last_group_start(int k) { return (k - 1) / max_group * max_group; }

// No step after the sums.
struct NoFollowUp {
  __device__ void operator()() const {}
};

// fn.template operator()<K>() for K = k, 1..max_group.
template <class F>
void with_group_size(int k, F&& fn) {
  switch (k) {
    case 1:
      return fn.template operator()<1>();
    case 2:
      return fn.template operator()<2>();
    case 3:
      return fn.template operator()<3>();
    default:
      return fn.template operator()<4>();
  }
}

// result[k] = dot(v[k], w) for k < K: each block sums its grid-stride entries
// in index order, the last block adds the block sums in block order, then
// runs then() on thread 0, after the results are stored. Sum k is dot(v[k], w)
// bit for bit, whatever K.
template <int K, class Then>
__global__ void __launch_bounds__(threads)
    multi_dot_kernel(VectorGroup v, const double* w, std::size_t n, double* partial, unsigned* ticket, double* result,
                     Then then) {
  double s[K] = {};
  for (std::size_t i = first_index(); i < n; i += grid_stride()) {
    const double wi = w[i];
    for (int k = 0; k < K; ++k) s[k] = fma(v.v[k][i], wi, s[k]);
  }
  if (cuda_reduction::store_and_combine<threads, K, false>(s, partial, ticket, result) && threadIdx.x == 0) then();
}

// w += sum_k a[k] v[k] (a in device memory; add_columns, as kernels.cu's
// multi_axpy_from_kernel), then *result = dot(w, w) of the new w, as
// multi_dot_kernel sums it, then then(): an update and the norm that follows
// it in one pass over w.
template <int K, class Then>
__global__ void __launch_bounds__(threads)
    axpy_then_norm_kernel(const double* a, VectorGroup v, double* w, std::size_t n, double* partial, unsigned* ticket,
                          double* result, Then then) {
  double ak[K];
  for (int k = 0; k < K; ++k) ak[k] = a[k];
  double s[1] = {0.0};
  for (std::size_t i = first_index(); i < n; i += grid_stride()) {
    const double t = add_columns<K>(ak, v, w, i);
    s[0] = fma(t, t, s[0]);
  }
  if (cuda_reduction::store_and_combine<threads, 1, false>(s, partial, ticket, result) && threadIdx.x == 0) then();
}

// One launch: the k (1..4) dot products of v[i] with w (n entries each)
// into result (device memory), then then(). The caller holds the scratch
// (partial_doubles block sums and a ticket) for the launch.
template <class Then = NoFollowUp>
void multi_dot(const double* const* v, int k, const double* w, std::size_t n, const cuda_reduction::Scratch& s,
               double* result, Then then = {}) {
  VectorGroup g{};
  for (int i = 0; i < k; ++i) g.v[i] = v[i];
  const int blocks = blocks_for(n);
  with_group_size(
      k, [&]<int K>() { multi_dot_kernel<K><<<blocks, threads>>>(g, w, n, s.partial, s.ticket, result, then); });
  cuda_error::check_launch("multi_dot_kernel");
}

// One launch: w += sum_i a[i] v[i] for the k (1..4) vectors v (n entries
// each), ||w||^2 of the new w into *result (device memory), then then(). The
// caller holds the scratch for the launch.
template <class Then = NoFollowUp>
void axpy_then_norm(const double* a, const double* const* v, int k, double* w, std::size_t n,
                    const cuda_reduction::Scratch& s, double* result, Then then = {}) {
  VectorGroup g{};
  for (int i = 0; i < k; ++i) g.v[i] = v[i];
  const int blocks = blocks_for(n);
  with_group_size(k, [&]<int K>() {
    axpy_then_norm_kernel<K><<<blocks, threads>>>(a, g, w, n, s.partial, s.ticket, result, then);
  });
  cuda_error::check_launch("axpy_then_norm_kernel");
}

}  // namespace tb::cuda_dots
