#pragma once
// Host kernels that stream a matrix once per call (SpMV, the ILU sweeps) ask
// for the matrix some kilobytes ahead of use: the hardware prefetcher alone
// leaves the single-thread stream short of the memory bandwidth (PETSc's BAIJ
// kernels prefetch the next block row likewise). The hint is temporal, into
// the outer caches (locality 1, x86's prefetcht2), not PETSc's non-temporal
// one: a Krylov solve streams the same matrix and factor every iteration, and
// where they fit in the last-level cache the non-temporal hint sends them back
// to memory each time (docs/ARCHITECTURE.md, "Measured decisions").
#include <algorithm>
#include <cstdint>

namespace tb {

inline constexpr std::uintptr_t prefetch_lead_bytes = 8192;

// The cache lines of [from, to) moved prefetch_lead_bytes ahead, never past
// `end`, the end of the stream. Integer addresses: a pointer past the array
// would be undefined even unread, and prefetches never fault.
inline void prefetch_ahead(const void* from, const void* to, const void* end) {
  auto p = reinterpret_cast<std::uintptr_t>(from) + prefetch_lead_bytes;
  const auto e =
      std::min(reinterpret_cast<std::uintptr_t>(to) + prefetch_lead_bytes, reinterpret_cast<std::uintptr_t>(end));
  for (; p < e; p += 64) __builtin_prefetch(reinterpret_cast<const void*>(p), 0, 1);
}

}  // namespace tb
