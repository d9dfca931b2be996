// The sequential twins of the distributed product's device steps (kernels.hpp).
#include "halo_rows.hpp"
#include "kernels.hpp"

namespace tb::dist::kernels::ref {

void gather_items(const double* src, const index_t* items, index_t count, index_t width, double* out) {
  for (index_t s = 0; s < count; ++s) gather_item(src, items, width, out, s);
}

void scatter_items(const double* in, const index_t* items, index_t count, index_t width, double* dst) {
  for (index_t s = 0; s < count; ++s) scatter_item(in, items, width, dst, s);
}

void add_rows_product(const BsrView& off, const index_t* rows, index_t count, const double* x, double* y) {
  for (index_t k = 0; k < count; ++k) add_row_product(off, rows, x, y, k);
}

}  // namespace tb::dist::kernels::ref
