#include <cuda_runtime.h>

#include <algorithm>
#include <limits>

#include "gpu_baseline.hpp"
#include "solvers/core/cuda/error_check.cuh"

namespace tb::bench::gpu {

namespace {

constexpr int threads = 256;

__global__ void init_kernel(double* a, double* b, double* c, std::size_t n) {
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    a[i] = 0.0;
    b[i] = 1.0;
    c[i] = 2.0;
  }
}

__global__ void triad_kernel(double* __restrict__ a, const double* __restrict__ b, const double* __restrict__ c,
                             double s, std::size_t n) {
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    a[i] = b[i] + s * c[i];
}

// Device buffers released on every path, exceptions included.
struct DeviceBuffer {
  explicit DeviceBuffer(std::size_t bytes) {
    cuda_error::throw_if(cudaMalloc(&p, bytes), "cudaMalloc for the GPU triad");
  }
  ~DeviceBuffer() { cudaFree(p); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  double* data() const { return static_cast<double*>(p); }
  void* p = nullptr;
};

struct Event {
  Event() { cuda_error::throw_if(cudaEventCreate(&e), "cudaEventCreate"); }
  ~Event() { cudaEventDestroy(e); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  cudaEvent_t e{};
};

}  // namespace

double triad_seconds(std::size_t n, int reps) {
  if (n == 0) return 0.0;
  DeviceBuffer a(n * sizeof(double)), b(n * sizeof(double)), c(n * sizeof(double));
  // Enough blocks to fill any current GPU several times over; the loop strides the rest.
  const unsigned blocks = unsigned(std::min<std::size_t>((n + threads - 1) / threads, 65535));
  init_kernel<<<blocks, threads>>>(a.data(), b.data(), c.data(), n);
  cuda_error::check_launch("triad init");
  Event start, stop;
  double best = std::numeric_limits<double>::infinity();
  for (int r = 0; r <= std::max(reps, 1); ++r) {  // r = 0 is the warm-up
    cuda_error::throw_if(cudaEventRecord(start.e), "cudaEventRecord");
    triad_kernel<<<blocks, threads>>>(a.data(), b.data(), c.data(), 3.0, n);
    cuda_error::check_launch("triad");
    cuda_error::throw_if(cudaEventRecord(stop.e), "cudaEventRecord");
    cuda_error::throw_if(cudaEventSynchronize(stop.e), "triad kernel");
    float ms = 0.0f;
    cuda_error::throw_if(cudaEventElapsedTime(&ms, start.e, stop.e), "cudaEventElapsedTime");
    if (r > 0) best = std::min(best, 1e-3 * double(ms));
  }
  double last = 0.0;
  cuda_error::throw_if(cudaMemcpy(&last, a.data() + n - 1, sizeof(double), cudaMemcpyDeviceToHost), "triad check copy");
  if (last != 7.0) throw Error("GPU triad computed a wrong value");
  return best;
}

void synchronize() { cuda_error::throw_if(cudaDeviceSynchronize(), "cudaDeviceSynchronize"); }

}  // namespace tb::bench::gpu
