#pragma once
// Where the systems keep a matrix on a device: its memory and the copies to
// and from the host. The CUDA device is one (cuda_storage); a test stands in
// host memory for a device (tests/solvers/systems) and counts its copies at
// the same counting point (solvers/core/transfers.hpp), so that the
// bookkeeping of where values live (system_matrix.hpp) is the same code on
// both and is tested without a GPU. No CUDA header here.
#include <cstddef>
#include <memory>

#include "solvers/core/backend.hpp"

namespace tb::systems {

class DeviceStorage {
 public:
  virtual ~DeviceStorage() = default;
  virtual const char* name() const = 0;
  // Where kernels read this storage's memory: cuda for the device; host for
  // host memory standing in for one (tests), whose values host solvers read in place.
  virtual Backend backend() const = 0;
  virtual void* allocate(std::size_t bytes) = 0;
  virtual void release(void* p) noexcept = 0;
  // Copies between host memory and this storage, each counted (transfers::count).
  virtual void to_device(void* device, const void* host, std::size_t bytes) = 0;
  virtual void to_host(void* host, const void* device, std::size_t bytes) = 0;
};

// The CUDA device's memory (tb::memory on Backend::cuda, whose copies count
// themselves). Throws tb::Error, with the reason, in a build without CUDA or
// on a machine without a visible device.
std::unique_ptr<DeviceStorage> cuda_storage();

}  // namespace tb::systems
