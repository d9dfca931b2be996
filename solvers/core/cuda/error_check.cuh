#pragma once
// CUDA status to tb::Error. Included only by .cu files: C++ translation units
// never see <cuda_runtime.h>.
#include <cuda_runtime.h>

#include <string>

#include "solvers/core/device_launches.hpp"
#include "solvers/core/error.hpp"

namespace tb::cuda_error {

// Throws tb::Error naming the failed operation and CUDA's own explanation.
// cudaGetLastError clears a non-sticky error so that later calls do not
// report it a second time.
inline void throw_if(cudaError_t status, const std::string& operation) {
  if (status == cudaSuccess) return;
  (void)cudaGetLastError();
  throw Error("CUDA " + operation + " failed: " + cudaGetErrorName(status) + ": " + cudaGetErrorString(status));
}
// The same for a fixed name: no string is built unless the call failed.
inline void throw_if(cudaError_t status, const char* operation) {
  if (status != cudaSuccess) throw_if(status, std::string(operation));
}

// Follows every kernel launch, once (tests/style/check_launches.py), and counts
// it (device_launches.hpp). Launch errors (bad configuration, no device)
// surface at once; faults inside the kernel surface at the next synchronising
// call (a copy or a reduction). The message is built only on failure: this
// runs once per launch.
inline void check_launch(const char* kernel) {
  count_device_launch();
  const cudaError_t status = cudaGetLastError();
  if (status != cudaSuccess) throw_if(status, std::string("launch of ") + kernel);
}

}  // namespace tb::cuda_error
