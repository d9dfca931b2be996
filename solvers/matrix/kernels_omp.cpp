// The OpenMP BSR product (kernels.hpp): block rows split over threads, the
// block size compiled in for 1..8.
#include "kernels.hpp"
#include "solvers/core/block_size_dispatch.hpp"
#include "solvers/core/prefetch.hpp"

namespace tb::kernels::omp {

namespace {

// Block size known at compile time: the inner loops unroll and the block row's
// partial sums stay in registers.
template <int BS>
void spmv_fixed(const BsrView& a, const double* x, double* y) {
  const index_t* rp = a.row_ptr;
  const index_t* ci = a.col_idx;
  const double* v = a.values;
  const double* v_end = v + std::size_t(rp[a.block_rows]) * BS * BS;
#pragma omp parallel for schedule(static) if (long(a.block_rows) * BS >= openmp_min_length)
  for (index_t i = 0; i < a.block_rows; ++i) {
    prefetch_ahead(v + std::size_t(rp[i]) * BS * BS, v + std::size_t(rp[i + 1]) * BS * BS, v_end);
    double acc[BS] = {};
    for (index_t k = rp[i]; k < rp[i + 1]; ++k) {
      const double* blk = v + std::size_t(k) * BS * BS;
      const double* xj = x + std::size_t(ci[k]) * BS;
      for (int r = 0; r < BS; ++r) {
        double s = 0.0;
        for (int c = 0; c < BS; ++c) s += blk[r * BS + c] * xj[c];
        acc[r] += s;
      }
    }
    for (int r = 0; r < BS; ++r) y[std::size_t(i) * BS + r] = acc[r];
  }
}

void spmv_dynamic(const BsrView& a, const double* x, double* y) {
  const index_t bs = a.block_size;
#pragma omp parallel for schedule(static) if (long(a.block_rows) * bs >= openmp_min_length)
  for (index_t i = 0; i < a.block_rows; ++i) block_row_product(a, i, x, y + std::size_t(i) * bs);
}

}  // namespace

void bsr_spmv(const BsrView& a, const double* x, double* y) {
  with_block_size(a.block_size, [&]<int N>() {
    if constexpr (N > 0)
      spmv_fixed<N>(a, x, y);
    else
      spmv_dynamic(a, x, y);
  });
}

}  // namespace tb::kernels::omp
