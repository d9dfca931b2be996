// The sequential twin of the BSR product (kernels.hpp): a block row's
// products summed in one chain.
#include <algorithm>

#include "kernels.hpp"

namespace tb::kernels::ref {

void bsr_spmv(const BsrView& a, const double* x, double* y) {
  const index_t bs = a.block_size;
  for (index_t i = 0; i < a.block_rows; ++i) {
    double* yi = y + std::size_t(i) * bs;
    std::fill(yi, yi + bs, 0.0);
    for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      const double* blk = a.values + std::size_t(k) * bs * bs;
      const double* xj = x + std::size_t(a.col_idx[k]) * bs;
      for (index_t r = 0; r < bs; ++r)
        for (index_t c = 0; c < bs; ++c) yi[r] += blk[r * bs + c] * xj[c];
    }
  }
}

}  // namespace tb::kernels::ref
