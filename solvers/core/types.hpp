#pragma once
#include <cstdint>

namespace tb {
// 32-bit indices: the papers' largest systems (about 10^6 block rows) fit, and
// halving index traffic matters in bandwidth-bound kernels.
using index_t = std::int32_t;
}  // namespace tb

namespace tb {
// Below this many entries an OpenMP region costs more than the loop it splits.
// With passive waits (docs/threading.md) a region pays a futex wake-up, 13-15 us
// on the 2-core VM and more once the worker has slept: at 16,384 the 129^2
// cavity's SpMV and assembly loops split and the whole run took 1.16x its
// one-thread time; at 65,536 they stay serial.
inline constexpr long openmp_min_length = 65536;
}  // namespace tb
