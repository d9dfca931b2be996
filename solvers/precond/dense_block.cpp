#include "dense_block.hpp"

#include <cmath>
#include <utility>

namespace tb::dense {

bool invert(double* a, index_t n) {
  // Gauss-Jordan with row pivoting; perm records the row swaps so the inverse's
  // columns can be swapped back at the end.
  index_t perm_buf[64];
  index_t* perm = perm_buf;
  for (index_t c = 0; c < n; ++c) {
    index_t piv = c;
    double best = std::abs(a[c * n + c]);
    for (index_t r = c + 1; r < n; ++r)
      if (std::abs(a[r * n + c]) > best) best = std::abs(a[r * n + c]), piv = r;
    if (!(best > 0.0) || !std::isfinite(best)) return false;
    perm[c] = piv;
    if (piv != c)
      for (index_t k = 0; k < n; ++k) std::swap(a[c * n + k], a[piv * n + k]);
    const double inv = 1.0 / a[c * n + c];
    a[c * n + c] = 1.0;
    for (index_t k = 0; k < n; ++k) a[c * n + k] *= inv;
    for (index_t r = 0; r < n; ++r) {
      if (r == c) continue;
      const double f = a[r * n + c];
      if (f == 0.0) continue;
      a[r * n + c] = 0.0;
      for (index_t k = 0; k < n; ++k) a[r * n + k] -= f * a[c * n + k];
    }
  }
  for (index_t c = n - 1; c >= 0; --c)
    if (perm[c] != c)
      for (index_t r = 0; r < n; ++r) std::swap(a[r * n + c], a[r * n + perm[c]]);
  for (index_t k = 0; k < n * n; ++k)
    if (!std::isfinite(a[k])) return false;
  return true;
}

}  // namespace tb::dense
