#pragma once
// cudaMemcpy, with a copy between host and device timed and counted at the
// one counting point (solvers/core/transfers.hpp). Every .cu file copies
// through this (a result read back, a flag written), so that the count is
// the whole of a run's transfers. Included only by .cu files.
#include <cuda_runtime.h>

#include <chrono>
#include <cstddef>

#include "solvers/core/transfers.hpp"

namespace tb::cuda_copy {

// The copy's time is the copy's alone: cudaMemcpy first waits for the kernels
// queued before it (a Krylov method's dot read back waits for the iteration's
// kernels), and that wait is the caller's work, charged to the account it runs
// under (StepClock), not to the transfers.
inline cudaError_t memcpy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind) {
  const bool counted = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToHost;
  if (!counted) return cudaMemcpy(dst, src, bytes, kind);
  if (const cudaError_t pending = cudaDeviceSynchronize(); pending != cudaSuccess) return pending;
  const auto start = std::chrono::steady_clock::now();
  const cudaError_t status = cudaMemcpy(dst, src, bytes, kind);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (status == cudaSuccess)
    transfers::count(kind == cudaMemcpyHostToDevice ? transfers::Direction::to_device : transfers::Direction::to_host,
                     bytes, seconds);
  return status;
}

}  // namespace tb::cuda_copy
