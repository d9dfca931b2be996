#pragma once
// The one device step of the multicolour point-implicit solver (seed 002 §III,
// steps 1-3) for the rows of one colour, bc(k) <= i <= ec(k):
//   q_i = b_i - O_i x      (block SpMV over the row; O in fp32 or fp64, sums in fp64)
//   L_i y = q_i,  U_i x_i = y   (the LU-factored diagonal block, fp64)
// Rows of one colour are not coupled, so they are independent: the OpenMP twin
// gives bitwise the result of the sequential reference for any thread count.
#include "solvers/core/host_device.hpp"
#include "solvers/matrix/bsr.hpp"

namespace tb::multicolor {

template <class Real>
struct RelaxView {
  index_t block_size = 1;
  const index_t* ia = nullptr;
  const index_t* ja = nullptr;
  const double* d = nullptr;  // LU-factored diagonal blocks
  const Real* o = nullptr;    // off-diagonal blocks
};

// Entry (r, c) of an n x n block: the host keeps the BSR's row-major blocks, the
// GPU copy is column-major, the paper's layout (see cuda/kernels.cu).
template <bool ColMajor>
TB_HOST_DEVICE inline index_t entry(index_t r, index_t c, index_t n) {
  return ColMajor ? c * n + r : r * n + c;
}

// The loop body shared by every backend. N > 0 fixes the block size at compile
// time (1..8); N = 0 reads it at run time (up to max_block_size).
template <int N, bool ColMajor, class Real>
TB_HOST_DEVICE inline void relax_row(const RelaxView<Real>& m, index_t i, const double* b, double* x) {
  const index_t n = N > 0 ? N : m.block_size;
  const std::size_t bb = std::size_t(n) * n;
  // Column by column over each block, so the nb row sums are independent
  // chains (one running sum per row would serialise every multiply-add on the
  // adder's latency).
  double q[N > 0 ? N : max_block_size];
  for (index_t r = 0; r < n; ++r) q[r] = 0.0;
  for (index_t k = m.ia[i]; k < m.ia[i + 1]; ++k) {
    const Real* blk = m.o + std::size_t(k) * bb;
    const double* xj = x + std::size_t(m.ja[k]) * n;
    for (index_t c = 0; c < n; ++c) {
      const double xc = xj[c];
      for (index_t r = 0; r < n; ++r) q[r] += double(blk[entry<ColMajor>(r, c, n)]) * xc;
    }
  }
  for (index_t r = 0; r < n; ++r) q[r] = b[std::size_t(i) * n + r] - q[r];
  const double* lu = m.d + std::size_t(i) * bb;
  for (index_t r = 1; r < n; ++r)
    for (index_t c = 0; c < r; ++c) q[r] -= lu[entry<ColMajor>(r, c, n)] * q[c];
  double* xi = x + std::size_t(i) * n;
  for (index_t r = n - 1; r >= 0; --r) {
    double s = q[r];
    for (index_t c = r + 1; c < n; ++c) s -= lu[entry<ColMajor>(r, c, n)] * xi[c];
    xi[r] = s / lu[entry<ColMajor>(r, r, n)];
  }
}

// The kernels over relax_row, one per backend, are declared in kernels.hpp.

}  // namespace tb::multicolor
