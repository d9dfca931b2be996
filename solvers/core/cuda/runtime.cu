// Device discovery for tb::cuda_device_count / cuda_device_name (backend.cpp).
#include <cuda_runtime.h>

#include <string>

#include "solvers/core/error.hpp"

namespace tb::cuda_runtime {

// A machine without a driver or a visible device is a normal situation for
// this library (CPU-only CI, login nodes): report zero devices instead of an
// error, and clear the error so it does not leak into the next CUDA call.
// The count cannot change within a process, so the first answer is kept.
int device_count() {
  static const int count = [] {
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
      (void)cudaGetLastError();
      return 0;
    }
    return n;
  }();
  return count;
}

std::string device_name() {
  int device = 0;
  cudaDeviceProp prop{};
  if (cudaGetDevice(&device) != cudaSuccess || cudaGetDeviceProperties(&prop, device) != cudaSuccess) {
    (void)cudaGetLastError();
    return {};
  }
  return prop.name;
}

void set_device(int device) {
  const cudaError_t e = cudaSetDevice(device);
  if (e != cudaSuccess) {
    (void)cudaGetLastError();
    throw Error("cudaSetDevice(" + std::to_string(device) + ") failed: " + cudaGetErrorString(e));
  }
}

}  // namespace tb::cuda_runtime
