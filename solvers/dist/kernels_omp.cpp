// The OpenMP kernels of the distributed product (kernels.hpp): the row bodies
// of the sequential twins in static loops; every item and row is written by
// one thread, so the bits do not depend on the team.
#include "halo_rows.hpp"
#include "kernels.hpp"
#include "solvers/core/types.hpp"

namespace tb::dist::kernels::omp {

void gather_items(const double* src, const index_t* items, index_t count, index_t width, double* out) {
#pragma omp parallel for schedule(static) if (long(count) * width >= openmp_min_length)
  for (index_t s = 0; s < count; ++s) gather_item(src, items, width, out, s);
}

void scatter_items(const double* in, const index_t* items, index_t count, index_t width, double* dst) {
#pragma omp parallel for schedule(static) if (long(count) * width >= openmp_min_length)
  for (index_t s = 0; s < count; ++s) scatter_item(in, items, width, dst, s);
}

void add_rows_product(const BsrView& off, const index_t* rows, index_t count, const double* x, double* y) {
#pragma omp parallel for schedule(static) if (long(count) * off.block_size >= openmp_min_length)
  for (index_t k = 0; k < count; ++k) add_row_product(off, rows, x, y, k);
}

}  // namespace tb::dist::kernels::omp
