#pragma once
// The loop bodies of the distributed product's device steps (kernels.hpp),
// shared by the host and CUDA kernels: one send item packed, one interface
// row's off-rank product added.
#include "solvers/core/host_device.hpp"
#include "solvers/matrix/bsr.hpp"

namespace tb::dist {

// Send item s of a halo exchange: `width` entries of src from its local index.
TB_HOST_DEVICE inline void gather_item(const double* src, const index_t* items, index_t width, double* out, index_t s) {
  const double* from = src + std::size_t(items[s]) * std::size_t(width);
  double* to = out + std::size_t(s) * std::size_t(width);
  for (index_t c = 0; c < width; ++c) to[c] = from[c];
}

// Received item s of a halo exchange into its local index: the reverse of gather_item.
TB_HOST_DEVICE inline void scatter_item(const double* in, const index_t* items, index_t width, double* dst, index_t s) {
  const double* from = in + std::size_t(s) * std::size_t(width);
  double* to = dst + std::size_t(items[s]) * std::size_t(width);
  for (index_t c = 0; c < width; ++c) to[c] = from[c];
}

// y's block row rows[k] += the off-rank block's row times the ghosts, the row
// summed block by block into acc first (block_row_product's order, which the
// host product of DistBsrOperator adds): the same bits on every backend.
TB_HOST_DEVICE inline void add_row_product(const BsrView& off, const index_t* rows, const double* x, double* y,
                                           index_t k) {
  const index_t i = rows[k], bs = off.block_size;
  double acc[max_block_size];
  block_row_product(off, i, x, acc);
  double* yi = y + std::size_t(i) * std::size_t(bs);
  for (index_t r = 0; r < bs; ++r) yi[r] += acc[r];
}

}  // namespace tb::dist
