#include "device_storage.hpp"

#include "solvers/core/backend.hpp"
#include "solvers/core/error.hpp"
#include "solvers/core/memory.hpp"

namespace tb::systems {

namespace {

class CudaStorage final : public DeviceStorage {
 public:
  const char* name() const override { return "cuda"; }
  Backend backend() const override { return Backend::cuda; }
  void* allocate(std::size_t bytes) override { return memory::allocate(Backend::cuda, bytes); }
  void release(void* p) noexcept override { memory::release(Backend::cuda, p); }
  void to_device(void* device, const void* host, std::size_t bytes) override {
    memory::copy(device, Backend::cuda, host, Backend::host, bytes);
  }
  void to_host(void* host, const void* device, std::size_t bytes) override {
    memory::copy(host, Backend::host, device, Backend::cuda, bytes);
  }
};

}  // namespace

std::unique_ptr<DeviceStorage> cuda_storage() {
  if (cuda_device_count() == 0)
    throw Error("no CUDA device for the systems' device matrices: " + cuda_unavailable_reason());
  return std::make_unique<CudaStorage>();
}

}  // namespace tb::systems
