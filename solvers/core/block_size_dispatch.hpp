#pragma once
// The one dispatch from a runtime block size to a compile-time one, used by
// every room whose block loops unroll for small blocks (BSR SpMV, BILU(0),
// the asynchronous ILU, FGBILU's cell kernels, the multicolour relaxation):
// calls f.template operator()<N>() with N = n for n in 1..8 and N = 0 (the
// runtime-n loops) above.
#include "types.hpp"

namespace tb {

namespace detail {
template <int N, int Max, class F>
decltype(auto) block_size_from(index_t n, F& f) {
  if constexpr (N > Max) {
    return f.template operator()<0>();
  } else {
    if (n == N) return f.template operator()<N>();
    return block_size_from<N + 1, Max>(n, f);
  }
}
}  // namespace detail

// As with_block_size for n in 1..Max (Max compile-time sizes), N = 0 above:
// for kernels whose larger blocks still fit their threads' registers (the
// asynchronous ILU's groups of lanes, one block row each, up to 32).
template <int Max, class F>
decltype(auto) with_block_size_up_to(index_t n, F&& f) {
  return detail::block_size_from<1, Max>(n, f);
}

template <class F>
decltype(auto) with_block_size(index_t n, F&& f) {
  switch (n) {
    case 1:
      return f.template operator()<1>();
    case 2:
      return f.template operator()<2>();
    case 3:
      return f.template operator()<3>();
    case 4:
      return f.template operator()<4>();
    case 5:
      return f.template operator()<5>();
    case 6:
      return f.template operator()<6>();
    case 7:
      return f.template operator()<7>();
    case 8:
      return f.template operator()<8>();
    default:
      return f.template operator()<0>();
  }
}

}  // namespace tb
