#pragma once
#include <cstdint>

namespace tb {
// 32-bit indices: the papers' largest systems (about 10^6 block rows) fit, and
// halving index traffic matters in bandwidth-bound kernels.
using index_t = std::int32_t;
}  // namespace tb

namespace tb {
// Below this many entries an OpenMP region costs more than the loop it splits
// (fork/join is a few microseconds; 16k doubles stream in about that time).
inline constexpr long openmp_min_length = 16384;
}  // namespace tb
