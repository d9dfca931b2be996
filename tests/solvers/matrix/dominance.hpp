#pragma once
// Row dominance of a block matrix: |a_rr| over the sum of the other |a_rc| of
// the scalar row, smallest and largest over all rows.
#include <algorithm>
#include <cmath>
#include <utility>

#include "solvers/matrix/bsr.hpp"

namespace tb::test {

inline std::pair<double, double> dominance_ratios(const BsrMatrix& a) {
  const index_t n = a.block_size;
  double lo = INFINITY, hi = 0.0;
  for (index_t i = 0; i < a.block_rows; ++i)
    for (index_t r = 0; r < n; ++r) {
      double diag = 0.0, off = 0.0;
      for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k)
        for (index_t c = 0; c < n; ++c) {
          const double v = a.block(k)[r * n + c];
          if (a.col_idx[k] == i && c == r)
            diag = v;
          else
            off += std::abs(v);
        }
      lo = std::min(lo, diag / off), hi = std::max(hi, diag / off);
    }
  return {lo, hi};
}

}  // namespace tb::test
