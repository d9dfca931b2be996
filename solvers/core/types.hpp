#pragma once
#include <cstdint>

namespace tb {
// 32-bit indices: the papers' largest systems (about 10^6 block rows) fit, and
// halving index traffic matters in bandwidth-bound kernels.
using index_t = std::int32_t;
}  // namespace tb

namespace tb {
// Below this many entries an OpenMP region costs more than the loop it splits.
// With passive waits (docs/threading.md) a region pays a futex wake-up, and
// more once the worker has slept, so the loops of a 129^2 cavity stay serial.
inline constexpr long openmp_min_length = 65536;
}  // namespace tb
