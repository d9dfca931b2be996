#pragma once
// What the multicolour tests share: a block Gauss-Seidel written independently
// of solvers/multicolor, with Eigen on the original numbering (the reference
// its sweeps must equal), and one application of the preconditioner.
#include <Eigen/Dense>
#include <vector>

#include "solvers/core/array.hpp"
#include "solvers/matrix/bsr.hpp"
#include "solvers/multicolor/colour_pattern.hpp"
#include "solvers/multicolor/point_implicit.hpp"

namespace tb::test {

inline Eigen::MatrixXd dense_block(const BsrMatrix& a, index_t k) {
  const index_t n = a.block_size;
  Eigen::MatrixXd m(n, n);
  for (index_t r = 0; r < n; ++r)
    for (index_t c = 0; c < n; ++c) m(r, c) = a.block(k)[r * n + c];
  return m;
}

// Block Gauss-Seidel over the colours in order, on the original numbering:
// x_i = A_ii^{-1} (b_i - sum_{j != i} A_ij x_j), rows of a colour in any order.
inline std::vector<double> hand_written_sweeps(const BsrMatrix& a, const multicolor::ColourPattern& p,
                                               const std::vector<double>& b, int sweeps) {
  const index_t n = a.block_size;
  std::vector<double> x(b.size(), 0.0);
  for (int s = 0; s < sweeps; ++s)
    for (index_t c = 0; c < p.num_colours(); ++c)
      for (index_t i = 0; i < a.block_rows; ++i) {
        if (p.old_to_new[i] < p.colour_begin[c] || p.old_to_new[i] >= p.colour_begin[c + 1]) continue;
        Eigen::VectorXd rhs = Eigen::Map<const Eigen::VectorXd>(b.data() + i * n, n);
        for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
          const index_t j = a.col_idx[k];
          if (j != i) rhs -= dense_block(a, k) * Eigen::Map<const Eigen::VectorXd>(x.data() + j * n, n);
        }
        Eigen::VectorXd xi = dense_block(a, a.find_block(i, i)).partialPivLu().solve(rhs);
        std::copy(xi.data(), xi.data() + n, x.begin() + i * n);
      }
  return x;
}

// z = M r: the preconditioner with options `o` set up on `backend` and applied once.
inline std::vector<double> apply_on(Backend backend, const BsrMatrix& a, const std::vector<double>& r,
                                    const multicolor::Options& o) {
  auto m = multicolor::make_preconditioner(o);
  m->setup(a, backend);
  Vector rv(backend, r), z(backend, r.size());
  m->apply(rv, z);
  return z.to_host();
}

}  // namespace tb::test
