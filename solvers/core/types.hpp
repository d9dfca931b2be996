#pragma once
#include <cstdint>

namespace tb {
// 32-bit indices: the papers' largest systems (about 10^6 block rows) fit, and
// halving index traffic matters in bandwidth-bound kernels.
using index_t = std::int32_t;
}  // namespace tb
