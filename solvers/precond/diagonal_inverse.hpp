#pragma once
// The row body of point and block Jacobi's numeric set-up, shared by the host
// and CUDA kernels (kernels.hpp: invert_diagonal): block row i's diagonal block
// of a, inverted whole (block Jacobi) or on its diagonal only (point Jacobi,
// whose off-diagonal entries stay as set up: zero).
#include <cmath>

#include "dense_block.hpp"
#include "solvers/matrix/bsr.hpp"

namespace tb::precond {

// False where the block (or an entry of its diagonal) is singular or not finite.
TB_HOST_DEVICE inline bool invert_diagonal_row(const BsrView& a, const index_t* diagonal, bool whole_blocks,
                                               double* inverse, index_t i) {
  const index_t n = a.block_size;
  const std::size_t nb = std::size_t(n) * std::size_t(n);
  const double* d = a.values + std::size_t(diagonal[i]) * nb;
  double* out = inverse + std::size_t(i) * nb;
  if (whole_blocks) {
    for (std::size_t k = 0; k < nb; ++k) out[k] = d[k];
    return dense::invert(out, n);
  }
  for (index_t c = 0; c < n; ++c) {
    const double v = d[c * n + c];
    if (v == 0.0 || !std::isfinite(v)) return false;
    out[c * n + c] = 1.0 / v;
  }
  return true;
}

}  // namespace tb::precond
