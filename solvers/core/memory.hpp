#pragma once
// Raw allocation and copies on a backend. Only array.hpp uses these directly.
#include <cstddef>

#include "backend.hpp"

namespace tb::memory {

void* allocate(Backend b, std::size_t bytes);
void release(Backend b, void* p) noexcept;
void copy(void* dst, Backend dst_backend, const void* src, Backend src_backend, std::size_t bytes);
void zero(Backend b, void* p, std::size_t bytes);

}  // namespace tb::memory
