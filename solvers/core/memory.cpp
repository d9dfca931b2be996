#include "memory.hpp"

#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

#include "array.hpp"
#include "cuda_call.hpp"
#include "error.hpp"

namespace tb {

namespace cuda_memory {
void* allocate(std::size_t bytes);
void release(void* p) noexcept;
void copy(void* dst, bool dst_device, const void* src, bool src_device, std::size_t bytes);
void zero(void* p, std::size_t bytes);
}  // namespace cuda_memory

void throw_size_mismatch(std::size_t expected, std::size_t got) {
  throw Error("array copy between sizes " + std::to_string(expected) + " and " + std::to_string(got));
}

namespace memory {

// 64-byte alignment: whole cache lines for the OpenMP kernels.
void* allocate(Backend b, std::size_t bytes) {
  if (bytes == 0) return nullptr;
  if (b == Backend::cuda) return TB_CUDA_CALL(cuda_memory::allocate(bytes));
  void* p = std::aligned_alloc(64, (bytes + 63) / 64 * 64);
  if (!p) throw std::bad_alloc();
  return p;
}

void release(Backend b, void* p) noexcept {
  if (!p) return;
  if (b == Backend::cuda) {
#ifdef TB_WITH_CUDA
    cuda_memory::release(p);
#endif
    return;
  }
  std::free(p);
}

void copy(void* dst, Backend dst_backend, const void* src, Backend src_backend, std::size_t bytes) {
  if (bytes == 0) return;
  if (dst_backend == Backend::host && src_backend == Backend::host) {
    std::memcpy(dst, src, bytes);
    return;
  }
  TB_CUDA_CALL(cuda_memory::copy(dst, dst_backend == Backend::cuda, src, src_backend == Backend::cuda, bytes));
}

void zero(Backend b, void* p, std::size_t bytes) {
  if (bytes == 0) return;
  if (b == Backend::cuda) return TB_CUDA_CALL(cuda_memory::zero(p, bytes));
  std::memset(p, 0, bytes);
}

}  // namespace memory
}  // namespace tb
