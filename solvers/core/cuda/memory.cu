// Device allocation and transfers behind tb::memory (memory.cpp). All calls
// use the legacy default stream, so they are ordered with every kernel of the
// library without explicit synchronisation.
#include <cuda_runtime.h>

#include <cstddef>
#include <string>

#include "counted_copy.cuh"
#include "error_check.cuh"

namespace tb::cuda_memory {

void* allocate(std::size_t bytes) {
  void* p = nullptr;
  cuda_error::throw_if(cudaMalloc(&p, bytes), "cudaMalloc of " + std::to_string(bytes) + " bytes");
  return p;
}

// Called from destructors, possibly after the CUDA context is gone at process
// exit; a failure here cannot be acted on, so it is cleared and ignored.
void release(void* p) noexcept {
  if (cudaFree(p) != cudaSuccess) (void)cudaGetLastError();
}

void copy(void* dst, bool dst_device, const void* src, bool src_device, std::size_t bytes) {
  const cudaMemcpyKind kind = dst_device ? (src_device ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice)
                                         : (src_device ? cudaMemcpyDeviceToHost : cudaMemcpyHostToHost);
  const char* name = dst_device ? (src_device ? "device-to-device" : "host-to-device")
                                : (src_device ? "device-to-host" : "host-to-host");
  cuda_error::throw_if(cuda_copy::memcpy(dst, src, bytes, kind),
                       std::string("cudaMemcpy ") + name + " of " + std::to_string(bytes) + " bytes");
}

void zero(void* p, std::size_t bytes) {
  cuda_error::throw_if(cudaMemset(p, 0, bytes), "cudaMemset of " + std::to_string(bytes) + " bytes");
}

}  // namespace tb::cuda_memory
