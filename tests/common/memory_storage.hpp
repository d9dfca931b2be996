#pragma once
// A device in host memory for the systems library's tests: its copies are
// counted at the one counting point as a device's are (solvers/core/transfers.hpp),
// so host tests can assert what a device-resident path would move.
#include <cstdlib>
#include <cstring>

#include "solvers/core/transfers.hpp"
#include "solvers/systems/device_storage.hpp"

namespace tb::test {

class MemoryStorage final : public systems::DeviceStorage {
 public:
  const char* name() const override { return "memory"; }
  Backend backend() const override { return Backend::host; }
  void* allocate(std::size_t bytes) override {
    allocations += bytes ? 1 : 0;
    return bytes ? std::malloc(bytes) : nullptr;
  }
  void release(void* p) noexcept override { std::free(p); }
  void to_device(void* device, const void* host, std::size_t bytes) override {
    std::memcpy(device, host, bytes);
    transfers::count(transfers::Direction::to_device, bytes, 0.0);
  }
  void to_host(void* host, const void* device, std::size_t bytes) override {
    std::memcpy(host, device, bytes);
    transfers::count(transfers::Direction::to_host, bytes, 0.0);
  }
  long allocations = 0;  // allocate() calls of a non-zero size
};

}  // namespace tb::test
