// BILU(0) factors against a dense block ILU(0) written independently with Eigen,
// and the defining property of ILU(0): (LU)_ij = A_ij on A's block pattern.
#include <gtest/gtest.h>

#include <Eigen/Dense>

#include "../../common/systems.hpp"
#include "solvers/core/error.hpp"
#include "solvers/precond/basic.hpp"
#include "solvers/precond/bilu0.hpp"
#include "solvers/precond/dense_block.hpp"
#include "solvers/precond/kernels.hpp"

namespace tb {
namespace {

using Dense = Eigen::MatrixXd;

// Block ILU(0) on a dense matrix with a block mask, by whole-block Eigen
// operations: L_ik = A_ik A_kk^{-1}; A_ij -= L_ik A_kj where (i,j) and (k,j) are kept.
void dense_block_ilu0(Dense& m, const std::vector<std::vector<bool>>& mask, int n) {
  const int nb = int(mask.size());
  for (int i = 0; i < nb; ++i)
    for (int k = 0; k < i; ++k) {
      if (!mask[i][k]) continue;
      Dense lik = m.block(i * n, k * n, n, n) * m.block(k * n, k * n, n, n).inverse();
      m.block(i * n, k * n, n, n) = lik;
      for (int j = k + 1; j < nb; ++j)
        if (mask[i][j] && mask[k][j]) m.block(i * n, j * n, n, n) -= lik * m.block(k * n, j * n, n, n);
    }
}

class Bilu0Reference : public ::testing::TestWithParam<int> {};

TEST_P(Bilu0Reference, MatchesDenseBlockIlu0) {
  const int n = GetParam();
  Stencil7Params p;
  p.nx = 4, p.ny = 3, p.nz = 3, p.block_size = n, p.seed = 11;
  const BsrMatrix a = generate_stencil7(p);
  Bilu0Factors f = bilu0_symbolic(a);
  precond::kernels::ref::bilu0_factor(a, f);

  const int nb = a.block_rows;
  Dense m = Dense(test::to_eigen(a));
  std::vector<std::vector<bool>> mask(nb, std::vector<bool>(nb, false));
  for (int i = 0; i < nb; ++i)
    for (int k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) mask[i][a.col_idx[k]] = true;
  dense_block_ilu0(m, mask, n);

  double scale = m.cwiseAbs().maxCoeff();
  for (int i = 0; i < nb; ++i)
    for (int k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      const int j = a.col_idx[k];
      Dense expect = m.block(i * n, j * n, n, n);
      if (i == j) expect = expect.inverse().eval();  // BILU(0) stores the diagonal inverted
      Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>> got(f.block(k), n, n);
      const double tol = 1e-12 * (i == j ? expect.cwiseAbs().maxCoeff() : scale);
      EXPECT_LE((got - expect).cwiseAbs().maxCoeff(), tol) << "block (" << i << "," << j << ")";
    }
}

TEST_P(Bilu0Reference, ProductEqualsMatrixOnPattern) {
  const int n = GetParam();
  Stencil7Params p;
  p.nx = 3, p.ny = 4, p.nz = 2, p.block_size = n, p.seed = 5;
  const BsrMatrix a = generate_stencil7(p);
  Bilu0Factors f = bilu0_symbolic(a);
  precond::kernels::ref::bilu0_factor(a, f);
  const int nb = a.block_rows, rows = a.rows();
  Dense l = Dense::Identity(rows, rows), u = Dense::Zero(rows, rows);
  for (int i = 0; i < nb; ++i)
    for (int k = f.pattern.row_ptr[i]; k < f.pattern.row_ptr[i + 1]; ++k) {
      const int j = f.pattern.col_idx[k];
      Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>> blk(f.block(k), n, n);
      if (j < i)
        l.block(i * n, j * n, n, n) = blk;
      else if (j == i)
        u.block(i * n, j * n, n, n) = Dense(blk).inverse();
      else
        u.block(i * n, j * n, n, n) = blk;
    }
  const Dense lu = l * u;
  const Dense dense_a = Dense(test::to_eigen(a));
  for (int i = 0; i < nb; ++i)
    for (int k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      const int j = a.col_idx[k];
      EXPECT_LE((lu.block(i * n, j * n, n, n) - dense_a.block(i * n, j * n, n, n)).cwiseAbs().maxCoeff(),
                1e-12 * dense_a.cwiseAbs().maxCoeff());
    }
  // Apply is exactly (LU)^{-1}.
  std::vector<double> r = test::sine_rhs(rows), z(rows);
  precond::kernels::ref::bilu0_apply(f, r.data(), z.data());
  Eigen::Map<const Eigen::VectorXd> rv(r.data(), rows);
  Eigen::VectorXd expect = lu.partialPivLu().solve(rv);
  for (int i = 0; i < rows; ++i) EXPECT_NEAR(z[i], expect[i], 1e-10 * expect.cwiseAbs().maxCoeff());
}

INSTANTIATE_TEST_SUITE_P(BlockSizes, Bilu0Reference, ::testing::Values(1, 2, 3, 4, 5, 7, 8, 11));

// Block size 1 takes its own sweeps (the nearest row's value in a register):
// the same bits as the block sweeps, on a 2D 5-point and a 3D 7-point stencil.
TEST(Bilu0, ScalarSweepsEqualTheBlockSweepsBitwise) {
  for (index_t nz : {1, 6}) {
    Stencil7Params p;
    p.nx = 9, p.ny = 7, p.nz = nz, p.block_size = 1, p.seed = 11;
    const BsrMatrix a = generate_stencil7(p);
    Bilu0Factors f = bilu0_symbolic(a);
    precond::kernels::ref::bilu0_factor(a, f);
    std::vector<double> r(std::size_t(a.rows())), fast(r.size()), blocks(r.size());
    for (std::size_t i = 0; i < r.size(); ++i) r[i] = std::sin(1.0 + double(i));
    precond::kernels::ref::bilu0_apply(f, r.data(), fast.data());
    bilu0_apply_blocks(f, r.data(), blocks.data());
    for (std::size_t i = 0; i < r.size(); ++i) ASSERT_EQ(fast[i], blocks[i]) << "row " << i << ", nz " << nz;
  }
}

TEST(Bilu0, MissingDiagonalBlockIsNamed) {
  BsrMatrix a;
  a.block_size = 1, a.block_rows = a.block_cols = 2;
  a.row_ptr = {0, 2, 3};
  a.col_idx = {0, 1, 0};
  a.values = {1, 2, 3};
  try {
    bilu0_symbolic(a);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("block row 1 has no diagonal block"), std::string::npos) << e.what();
  }
}

TEST(Bilu0, SingularPivotIsNamed) {
  BsrMatrix a;
  a.block_size = 2, a.block_rows = a.block_cols = 2;
  a.row_ptr = {0, 1, 2};
  a.col_idx = {0, 1};
  a.values = {1, 0, 0, 1, 1, 2, 2, 4};  // second diagonal block has rank 1
  Bilu0Factors f = bilu0_symbolic(a);
  try {
    precond::kernels::ref::bilu0_factor(a, f);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("block row 1"), std::string::npos) << e.what();
  }
}

TEST(DenseBlock, InverseWithPivoting) {
  for (int n : {1, 2, 3, 5, 8, 17, 64}) {
    Dense m = Dense::Random(n, n) + Dense::Identity(n, n) * 0.1;
    if (n > 1) m(0, 0) = 0.0;  // forces a row swap at the first step
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> rm = m;
    ASSERT_TRUE(dense::invert(rm.data(), n));
    EXPECT_LE((Dense(rm) * m - Dense::Identity(n, n)).cwiseAbs().maxCoeff(), 1e-9) << "n=" << n;
  }
}

TEST(DenseBlock, SingularIsReported) {
  double a[4] = {1, 2, 2, 4};
  EXPECT_FALSE(dense::invert(a, 2));
}

TEST(Jacobi, ZeroDiagonalIsNamed) {
  BsrMatrix a;
  a.block_size = 2, a.block_rows = a.block_cols = 1;
  a.row_ptr = {0, 1};
  a.col_idx = {0};
  a.values = {1, 1, 1, 0};
  auto m = make_point_jacobi();
  try {
    m->setup(a, Backend::host);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("row 1"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tb
