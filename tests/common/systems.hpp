#pragma once
// Small systems and a direct reference solution for solver tests.
#include <Eigen/Sparse>
#include <Eigen/SparseLU>
#include <algorithm>
#include <vector>

#include "solvers/matrix/bsr.hpp"
#include "solvers/matrix/generate.hpp"

namespace tb::test {

inline Eigen::SparseMatrix<double> to_eigen(const BsrMatrix& a) {
  const CsrMatrix c = bsr_to_csr(a);
  std::vector<Eigen::Triplet<double>> t;
  for (index_t i = 0; i < c.rows; ++i)
    for (index_t k = c.row_ptr[i]; k < c.row_ptr[i + 1]; ++k) t.emplace_back(i, c.col_idx[k], c.values[k]);
  Eigen::SparseMatrix<double> m(c.rows, c.cols);
  m.setFromTriplets(t.begin(), t.end());
  return m;
}

// x = A^{-1} b by sparse LU: the independent reference the iterative solvers must reach.
inline std::vector<double> direct_solve(const BsrMatrix& a, const std::vector<double>& b) {
  Eigen::SparseMatrix<double> m = to_eigen(a);
  Eigen::SparseLU<Eigen::SparseMatrix<double>> lu(m);
  Eigen::Map<const Eigen::VectorXd> rhs(b.data(), Eigen::Index(b.size()));
  Eigen::VectorXd x = lu.solve(rhs);
  return {x.data(), x.data() + x.size()};
}

inline std::vector<double> sine_rhs(std::size_t n) {
  std::vector<double> b(n);
  for (std::size_t i = 0; i < n; ++i) b[i] = std::sin(0.37 * double(i)) + 0.5;
  return b;
}

inline double max_abs_diff(const std::vector<double>& a, const std::vector<double>& b) {
  double d = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) d = std::max(d, std::abs(a[i] - b[i]));
  return d;
}

inline double max_abs(const std::vector<double>& a) {
  double d = 0.0;
  for (double v : a) d = std::max(d, std::abs(v));
  return d;
}

// A skew-symmetric block diagonal (10 blocks of 2): (r, A r) = 0, so GMRES(1)
// makes no progress at all (the stagnation tests).
inline BsrMatrix skew_symmetric_blocks() {
  BsrMatrix a;
  a.block_size = 2, a.block_rows = a.block_cols = 10;
  for (index_t i = 0; i < 10; ++i) {
    a.col_idx.push_back(i);
    a.row_ptr.push_back(i + 1);
    a.values.insert(a.values.end(), {0.0, 1.0 + i, -1.0 - i, 0.0});
  }
  return a;
}

// a's pattern holding diag(1, 2, 3, 1, 2, 3, ...): three distinct eigenvalues,
// so a Krylov space closes after three iterations.
inline BsrMatrix three_eigenvalues(BsrMatrix a) {
  const index_t bs = a.block_size;
  std::fill(a.values.begin(), a.values.end(), 0.0);
  for (index_t r = 0; r < a.block_rows; ++r)
    for (index_t p = a.row_ptr[r]; p < a.row_ptr[r + 1]; ++p)
      if (a.col_idx[p] == r)
        for (index_t i = 0; i < bs; ++i) a.values[std::size_t((p * bs + i) * bs + i)] = double(1 + (r * bs + i) % 3);
  return a;
}

}  // namespace tb::test
