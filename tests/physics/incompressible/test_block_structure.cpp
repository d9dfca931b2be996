// The matrices tb-incomp hands to the solver layer: the 7-point block pattern
// in natural order (the rows and columns of tb::generate_stencil7, which FGBILU
// reads), n = 2 blocks in 2D and n = 3 in 3D, velocity components coupled
// inside the blocks by the Newton linearisation of convection, and an SPD
// pressure matrix.
#include <gtest/gtest.h>

#include <cmath>

#include "flow_fixtures.hpp"
#include "solvers/matrix/generate.hpp"

namespace tb::test {
namespace {

void expect_stencil7_pattern(const BsrMatrix& a, index_t nx, index_t ny, index_t nz) {
  Stencil7Params p;
  p.nx = nx, p.ny = ny, p.nz = nz, p.block_size = a.block_size;
  const BsrMatrix reference = generate_stencil7(p);
  EXPECT_TRUE(a.same_pattern(reference));
  EXPECT_NO_THROW(a.validate());
}

// Any non-zero velocity field, so the convection Jacobian is non-trivial.
void swirl(FractionalStep& flow) {
  auto u = flow.velocity();
  const int n = flow.grid().dim();
  for (std::size_t i = 0; i < u.size(); ++i) u[i] = std::sin(0.7 * double(i) + 0.3 * (i % n));
}

TEST(IncompressibleBlocks, TwoDimensionalMomentumHasTwoByTwoBlocksOnTheFivePointPattern) {
  FractionalStep flow(FvGrid(axis(6), axis(5, 1.0, 1.2), axis(1)), cavity_walls(), {0.01, 0.1});
  swirl(flow);
  RegistrySolvers solvers;
  solvers.step(flow);
  const BsrMatrix& a = flow.momentum_matrix();
  EXPECT_EQ(a.block_size, 2);
  EXPECT_EQ(a.block_rows, 30);
  expect_stencil7_pattern(a, 6, 5, 1);
  // Component coupling: the off-diagonal entries of the blocks are not all zero.
  double coupling = 0.0;
  for (index_t k = 0; k < a.nnz_blocks(); ++k)
    coupling = std::max({coupling, std::abs(a.block(k)[1]), std::abs(a.block(k)[2])});
  EXPECT_GT(coupling, 1e-3);
  expect_stencil7_pattern(flow.poisson_matrix(), 6, 5, 1);
  EXPECT_EQ(flow.poisson_matrix().block_size, 1);
}

TEST(IncompressibleBlocks, ThreeDimensionalMomentumHasThreeByThreeBlocksOnTheSevenPointPattern) {
  FractionalStep flow(FvGrid(axis(4), axis(3), axis(5, 1.0, 1.0)), cavity_walls(), {0.01, 0.1});
  swirl(flow);
  RegistrySolvers solvers;
  solvers.step(flow);
  const BsrMatrix& a = flow.momentum_matrix();
  EXPECT_EQ(a.block_size, 3);
  expect_stencil7_pattern(a, 4, 3, 5);
  const std::vector<index_t> diag = a.diagonal_positions();
  double coupling = 0.0;
  for (index_t k : diag)
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c)
        if (r != c) coupling = std::max(coupling, std::abs(a.block(k)[r * 3 + c]));
  EXPECT_GT(coupling, 1e-3);
  expect_stencil7_pattern(flow.poisson_matrix(), 4, 3, 5);
}

TEST(IncompressibleBlocks, PoissonMatrixIsSymmetricWithPositiveDiagonal) {
  FractionalStep flow(FvGrid(axis(5, 2.0, 1.5), axis(4), axis(3)), cavity_walls(), {0.01, 0.1});
  const BsrMatrix& a = flow.poisson_matrix();
  for (index_t i = 0; i < a.block_rows; ++i)
    for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      const index_t j = a.col_idx[k];
      EXPECT_EQ(a.values[k], a.values[a.find_block(j, i)]) << i << "," << j;
      if (i == j) {
        EXPECT_GT(a.values[k], 0.0);
      }
    }
}

TEST(IncompressibleBlocks, StepsReuseThePattern) {
  FractionalStep flow(FvGrid(axis(5), axis(5), axis(1)), cavity_walls(), {0.01, 0.1});
  RegistrySolvers solvers;
  solvers.step(flow);
  const BsrMatrix first = flow.momentum_matrix();
  solvers.step(flow);
  EXPECT_TRUE(first.same_pattern(flow.momentum_matrix()));
  EXPECT_NE(first.values, flow.momentum_matrix().values);
}

}  // namespace
}  // namespace tb::test
