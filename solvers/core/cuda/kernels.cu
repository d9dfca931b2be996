// CUDA twins of the host vector kernels (kernels_ref.cpp, kernels_omp.cpp). Element-wise
// kernels use grid-stride loops over a grid capped near one full wave of the
// largest GPUs, so a launch never needs more blocks than can be resident.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <mutex>
#include <unordered_map>

#include "counted_copy.cuh"
#include "error_check.cuh"
#include "reduction.cuh"
#include "solvers/core/kernels.hpp"

namespace tb::kernels::cuda {

namespace {

constexpr int threads = 256;
// Also the number of partial sums of dot: it depends on n only, never on the
// device, so a dot product gives the same bits on an H100 and an H200.
constexpr int max_blocks = 1024;

int blocks_for(std::size_t n) { return int(std::min<std::size_t>((n + threads - 1) / threads, max_blocks)); }

__device__ __forceinline__ std::size_t first_index() { return std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; }
__device__ __forceinline__ std::size_t grid_stride() { return std::size_t(gridDim.x) * blockDim.x; }

__global__ void __launch_bounds__(threads)
    dot_partials(const double* x, const double* y, std::size_t n, double* partial) {
  double s = 0.0;
  for (std::size_t i = first_index(); i < n; i += grid_stride()) s += x[i] * y[i];
  s = cuda_reduction::block_sum<threads>(s);
  if (threadIdx.x == 0) partial[blockIdx.x] = s;
}

// Second stage of dot: one block adds the partial sums in a fixed order.
__global__ void __launch_bounds__(threads) sum_partials(const double* partial, int count, double* result) {
  double s = 0.0;
  for (int i = threadIdx.x; i < count; i += threads) s += partial[i];
  s = cuda_reduction::block_sum<threads>(s);
  if (threadIdx.x == 0) *result = s;
}

__global__ void __launch_bounds__(threads) axpby_kernel(double a, const double* x, double b, double* y, std::size_t n) {
  for (std::size_t i = first_index(); i < n; i += grid_stride()) y[i] = a * x[i] + b * y[i];
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

// Device memory for reduction results, allocated once per device and kept for
// the life of the process: a cudaMalloc per dot would cost more than the dot.
// It is deliberately never freed, because static destructors may run after
// the CUDA context is torn down. The mutex serialises host threads sharing a
// device, which the single scratch area requires.
struct Scratch {
  double* partial = nullptr;  // max_blocks partial sums
  double* result = nullptr;
  int* flag = nullptr;
};

std::mutex scratch_mutex;

Scratch& scratch_for_current_device() {
  static std::unordered_map<int, Scratch> per_device;
  int device = 0;
  cuda_error::throw_if(cudaGetDevice(&device), "cudaGetDevice");
  Scratch& s = per_device[device];
  if (!s.partial) {
    void* p = nullptr;
    cuda_error::throw_if(cudaMalloc(&p, (max_blocks + 2) * sizeof(double)), "cudaMalloc of the reduction scratch");
    s.partial = static_cast<double*>(p);
    s.result = s.partial + max_blocks;
    s.flag = reinterpret_cast<int*>(s.result + 1);
  }
  return s;
}

}  // namespace

double dot(const double* x, const double* y, std::size_t n) {
  if (n == 0) return 0.0;
  std::lock_guard lock(scratch_mutex);
  Scratch& s = scratch_for_current_device();
  const int blocks = blocks_for(n);
  dot_partials<<<blocks, threads>>>(x, y, n, s.partial);
  cuda_error::check_launch("dot_partials");
  sum_partials<<<1, threads>>>(s.partial, blocks, s.result);
  cuda_error::check_launch("sum_partials");
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

// No fused CUDA kernels yet: one dot / axpby per vector (the host kernels read
// w once per group of four vectors).
void multi_dot(const double* const* v, int k, const double* w, double* out, std::size_t n) {
  for (int i = 0; i < k; ++i) out[i] = dot(v[i], w, n);
}

void multi_axpy(const double* alpha, const double* const* v, int k, double* w, std::size_t n) {
  for (int i = 0; i < k; ++i) axpby(alpha[i], v[i], 1.0, w, n);
}

}  // namespace tb::kernels::cuda
