// CUDA twins of the host vector kernels (kernels_ref.cpp, kernels_omp.cpp). Element-wise
// kernels use grid-stride loops over a grid capped near one full wave of the
// largest GPUs, so a launch never needs more blocks than can be resident.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <mutex>
#include <string>
#include <unordered_map>

#include "counted_copy.cuh"
#include "dot_kernels.cuh"
#include "error_check.cuh"
#include "reduction.cuh"
#include "solvers/core/kernels.hpp"

namespace tb::kernels::cuda {

namespace {

using cuda_dots::blocks_for;
using cuda_dots::first_index;
using cuda_dots::grid_stride;
using cuda_dots::max_blocks;
using cuda_dots::max_group;
using cuda_dots::threads;
using cuda_dots::VectorGroup;
using cuda_dots::with_group_size;

struct ScalarGroup {
  double a[max_group];
};

// w += sum_k a_k v_k in one pass: per entry the operations of K axpby calls
// (b = 1), in their order and with axpby_kernel's explicit fma: left to the
// compiler, the unrolled chain and the single call may be contracted apart.
template <int K>
__global__ void __launch_bounds__(threads)
    multi_axpy_kernel(ScalarGroup a, VectorGroup v, double b, double* w, std::size_t n) {
  for (std::size_t i = first_index(); i < n; i += grid_stride()) {
    double t = w[i];
    for (int k = 0; k < K; ++k) t = fma(a.a[k], v.v[k][i], b * t);
    w[i] = t;
  }
}

// multi_axpy_kernel with the coefficients read from device memory (multi_axpy_from).
template <int K>
__global__ void __launch_bounds__(threads)
    multi_axpy_from_kernel(const double* a, VectorGroup v, double* w, std::size_t n) {
  double ak[K];
  for (int k = 0; k < K; ++k) ak[k] = a[k];
  for (std::size_t i = first_index(); i < n; i += grid_stride()) cuda_dots::add_columns<K>(ak, v, w, i);
}

__global__ void __launch_bounds__(threads)
    scale_by_inverse_kernel(const double* s, double* x, std::size_t n, bool keep_if_zero) {
  const double d = *s;
  if (keep_if_zero && d == 0.0) return;
  const double a = 1.0 / d;
  for (std::size_t i = first_index(); i < n; i += grid_stride()) x[i] *= a;
}

// a x + b y with one rounding for a x (the fma), as multi_axpy_kernel does it.
__global__ void __launch_bounds__(threads) axpby_kernel(double a, const double* x, double b, double* y, std::size_t n) {
  for (std::size_t i = first_index(); i < n; i += grid_stride()) y[i] = fma(a, x[i], b * y[i]);
}

__global__ void __launch_bounds__(threads)
    axpbypcz_kernel(double a, const double* x, double b, const double* y, double c, double* z, std::size_t n) {
  for (std::size_t i = first_index(); i < n; i += grid_stride()) z[i] = a * x[i] + b * y[i] + c * z[i];
}

__global__ void __launch_bounds__(threads) scale_kernel(double a, double* x, std::size_t n) {
  for (std::size_t i = first_index(); i < n; i += grid_stride()) x[i] *= a;
}

__global__ void __launch_bounds__(threads) fill_kernel(double* x, double value, std::size_t n) {
  for (std::size_t i = first_index(); i < n; i += grid_stride()) x[i] = value;
}

// One atomic per block at most: __syncthreads_or folds the block's verdicts.
__global__ void __launch_bounds__(threads) find_non_finite(const double* x, std::size_t n, int* found) {
  int bad = 0;
  for (std::size_t i = first_index(); i < n; i += grid_stride()) bad |= !isfinite(x[i]);
  if (__syncthreads_or(bad) && threadIdx.x == 0) atomicOr(found, 1);
}

// Device memory for reductions, allocated once per device and kept for the
// life of the process (cuda_reduction::allocate_scratch): a cudaMalloc per dot
// would cost more than the dot. The mutex serialises host threads sharing a
// device, which the single scratch area requires.
struct Scratch {
  cuda_reduction::Scratch reduction;  // max_group x max_blocks block sums, the ticket
  double* result = nullptr;           // max_group results
  int* flag = nullptr;
};

std::mutex scratch_mutex;

Scratch& scratch_for_current_device() {
  static std::unordered_map<int, Scratch> per_device;
  int device = 0;
  cuda_error::throw_if(cudaGetDevice(&device), "cudaGetDevice");
  Scratch& s = per_device[device];
  if (!s.reduction.partial) {
    s.reduction = cuda_reduction::allocate_scratch(max_group * max_blocks + max_group + 1, "the reduction scratch");
    s.result = s.reduction.partial + max_group * max_blocks;
    s.flag = reinterpret_cast<int*>(s.result + max_group);
  }
  return s;
}

}  // namespace

double dot(const double* x, const double* y, std::size_t n) {
  if (n == 0) return 0.0;
  std::lock_guard lock(scratch_mutex);
  Scratch& s = scratch_for_current_device();
  const double* v[1] = {x};
  cuda_dots::multi_dot(v, 1, y, n, s.reduction, s.result);
  double result = 0.0;
  cuda_error::throw_if(cuda_copy::memcpy(&result, s.result, sizeof(double), cudaMemcpyDeviceToHost),
                       "cudaMemcpy of the dot result");
  return result;
}

void axpby(double a, const double* x, double b, double* y, std::size_t n) {
  if (n == 0) return;
  axpby_kernel<<<blocks_for(n), threads>>>(a, x, b, y, n);
  cuda_error::check_launch("axpby");
}

void axpbypcz(double a, const double* x, double b, const double* y, double c, double* z, std::size_t n) {
  if (n == 0) return;
  axpbypcz_kernel<<<blocks_for(n), threads>>>(a, x, b, y, c, z, n);
  cuda_error::check_launch("axpbypcz");
}

void scale(double a, double* x, std::size_t n) {
  if (n == 0) return;
  scale_kernel<<<blocks_for(n), threads>>>(a, x, n);
  cuda_error::check_launch("scale");
}

void fill(double* x, double value, std::size_t n) {
  if (n == 0) return;
  fill_kernel<<<blocks_for(n), threads>>>(x, value, n);
  cuda_error::check_launch("fill");
}

bool all_finite(const double* x, std::size_t n) {
  if (n == 0) return true;
  std::lock_guard lock(scratch_mutex);
  Scratch& s = scratch_for_current_device();
  cuda_error::throw_if(cudaMemset(s.flag, 0, sizeof(int)), "cudaMemset of the all_finite flag");
  find_non_finite<<<blocks_for(n), threads>>>(x, n, s.flag);
  cuda_error::check_launch("find_non_finite");
  int found = 0;
  cuda_error::throw_if(cuda_copy::memcpy(&found, s.flag, sizeof(int), cudaMemcpyDeviceToHost),
                       "cudaMemcpy of the all_finite flag");
  return found == 0;
}

// Up to four vectors a call, w read once: one launch and one copy of the k
// results for the k dot products.
void multi_dot(const double* const* v, int k, const double* w, double* out, std::size_t n) {
  if (k < 1 || k > max_group) throw Error("internal: multi_dot takes 1 to 4 vectors, not " + std::to_string(k));
  if (n == 0) {
    for (int i = 0; i < k; ++i) out[i] = 0.0;
    return;
  }
  std::lock_guard lock(scratch_mutex);
  Scratch& s = scratch_for_current_device();
  cuda_dots::multi_dot(v, k, w, n, s.reduction, s.result);
  cuda_error::throw_if(cuda_copy::memcpy(out, s.result, std::size_t(k) * sizeof(double), cudaMemcpyDeviceToHost),
                       "cudaMemcpy of the multi_dot results");
}

void multi_axpy(const double* alpha, const double* const* v, int k, double* w, std::size_t n) {
  if (k < 1 || k > max_group) throw Error("internal: multi_axpy takes 1 to 4 vectors, not " + std::to_string(k));
  if (n == 0) return;
  VectorGroup g{};
  ScalarGroup a{};
  for (int i = 0; i < k; ++i) g.v[i] = v[i], a.a[i] = alpha[i];
  with_group_size(k, [&]<int K>() { multi_axpy_kernel<K><<<blocks_for(n), threads>>>(a, g, 1.0, w, n); });
  cuda_error::check_launch("multi_axpy");
}

// multi_dot without its copy: the k results stay at out, on the device.
void multi_dot_to(const double* const* v, int k, const double* w, double* out, std::size_t n) {
  if (k < 1 || k > max_group) throw Error("internal: multi_dot_to takes 1 to 4 vectors, not " + std::to_string(k));
  if (n == 0) {
    cuda_error::throw_if(cudaMemset(out, 0, std::size_t(k) * sizeof(double)), "cudaMemset of multi_dot_to's results");
    return;
  }
  std::lock_guard lock(scratch_mutex);
  cuda_dots::multi_dot(v, k, w, n, scratch_for_current_device().reduction, out);
}

void multi_axpy_from(const double* alpha, const double* const* v, int k, double* w, std::size_t n) {
  if (k < 1 || k > max_group) throw Error("internal: multi_axpy_from takes 1 to 4 vectors, not " + std::to_string(k));
  if (n == 0) return;
  VectorGroup g{};
  for (int i = 0; i < k; ++i) g.v[i] = v[i];
  with_group_size(k, [&]<int K>() { multi_axpy_from_kernel<K><<<blocks_for(n), threads>>>(alpha, g, w, n); });
  cuda_error::check_launch("multi_axpy_from");
}

void axpy_from(const double* a, const double* x, double* y, std::size_t n) {
  const double* p[1] = {x};
  multi_axpy_from(a, p, 1, y, n);
}

void scale_by_inverse(const double* s, double* x, std::size_t n, bool keep_if_zero) {
  if (n == 0) return;
  scale_by_inverse_kernel<<<blocks_for(n), threads>>>(s, x, n, keep_if_zero);
  cuda_error::check_launch("scale_by_inverse");
}

}  // namespace tb::kernels::cuda
