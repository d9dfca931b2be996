#pragma once
// Small systems and a direct reference solution for solver tests.
#include <Eigen/Sparse>
#include <Eigen/SparseLU>
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

}  // namespace tb::test
