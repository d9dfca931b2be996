// The 7-point block format: BSR round trip, MatrixMarket export, grid
// inference, and refusal of patterns that are not a natural 7-point stencil.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "solvers/core/error.hpp"
#include "solvers/matrix/generate.hpp"
#include "solvers/matrix/matrix_market.hpp"
#include "solvers/matrix/stencil7_matrix.hpp"

namespace tb::fgbilu {
namespace {

BsrMatrix generated(index_t nx, index_t ny, index_t nz, index_t n, unsigned seed = 3) {
  Stencil7Params p;
  p.nx = nx, p.ny = ny, p.nz = nz, p.block_size = n, p.seed = seed;
  return generate_stencil7(p);
}

struct Case {
  index_t nx, ny, nz, n;
};
class RoundTrip : public ::testing::TestWithParam<Case> {};

TEST_P(RoundTrip, BsrToStencil7AndBack) {
  const Case c = GetParam();
  const BsrMatrix a = generated(c.nx, c.ny, c.nz, c.n);
  const GridShape g = infer_grid_shape(a);
  EXPECT_EQ(g.cells(), c.nx * c.ny * c.nz);
  const Stencil7Matrix m = stencil7_from_bsr(a, g);
  const BsrMatrix back = to_bsr(m);
  EXPECT_TRUE(back.same_pattern(a));
  EXPECT_EQ(back.values, a.values);
}

INSTANTIATE_TEST_SUITE_P(Shapes, RoundTrip,
                         ::testing::Values(Case{4, 3, 2, 1}, Case{5, 4, 3, 3}, Case{1, 1, 6, 2}, Case{7, 1, 1, 4},
                                           Case{3, 1, 4, 2}, Case{2, 2, 2, 32}));

TEST(Stencil7, InfersTheGeneratorsGrid) {
  const GridShape g = infer_grid_shape(generated(5, 4, 3, 2));
  EXPECT_EQ(g.ni, 5);
  EXPECT_EQ(g.nj, 4);
  EXPECT_EQ(g.nk, 3);
}

TEST(Stencil7, CoefficientsSitWhereFigure2PutsThem) {
  const BsrMatrix a = generated(3, 3, 3, 2);
  const Stencil7Matrix m = stencil7_from_bsr(a, infer_grid_shape(a));
  const index_t r = m.schedule.shape.natural(1, 1, 1), q = m.schedule.position[r];
  const index_t cols[num_coefficients] = {r - 9, r - 3, r - 1, r, r + 1, r + 3, r + 9};
  for (int c = 0; c < num_coefficients; ++c) {
    const index_t k = a.find_block(r, cols[c]);
    ASSERT_GE(k, 0);
    for (index_t e = 0; e < 4; ++e) EXPECT_EQ(m.block(c, q)[e], a.block(k)[e]) << "coefficient " << c;
  }
  // Off the grid the coefficients are zero (cell (0,0,0) has no alpha, beta, gamma).
  const index_t q0 = m.schedule.position[0];
  for (int c = alpha; c <= gamma; ++c)
    for (index_t e = 0; e < 4; ++e) EXPECT_EQ(m.block(c, q0)[e], 0.0);
}

TEST(Stencil7, ExplicitGridIsCheckedAgainstThePattern) {
  const BsrMatrix a = generated(4, 3, 2, 1);
  const GridShape right{4, 3, 2}, wrong{3, 4, 2}, bad_size{4, 3, 3};
  EXPECT_EQ(infer_grid_shape(a, &right).nj, 3);
  EXPECT_THROW(infer_grid_shape(a, &wrong), Error);
  EXPECT_THROW(infer_grid_shape(a, &bad_size), Error);
}

TEST(Stencil7, RefusesPeriodicWrapAround) {
  // A 4 x 1 x 1 line whose first and last cells are coupled (periodic in i).
  BsrMatrix a;
  a.block_size = 1;
  a.block_rows = a.block_cols = 4;
  a.row_ptr = {0, 3, 6, 9, 12};
  a.col_idx = {0, 1, 3, 0, 1, 2, 1, 2, 3, 0, 2, 3};
  a.values.assign(12, -1.0);
  try {
    infer_grid_shape(a);
    FAIL() << "a periodic pattern was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("7-point stencil"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("periodic"), std::string::npos) << e.what();
  }
}

TEST(Stencil7, RefusesBlockSizeAbove32) {
  const BsrMatrix a = generated(2, 1, 1, 33);
  EXPECT_THROW(infer_grid_shape(a), Error);
}

TEST(Stencil7, MatrixMarketExportReadsBackAsTheSameMatrix) {
  const BsrMatrix a = generated(3, 2, 2, 3);
  const Stencil7Matrix m = stencil7_from_bsr(a, infer_grid_shape(a));
  const std::string path = (std::filesystem::temp_directory_path() / "tb_fgbilu_stencil7.mtx").string();
  write_matrix_market(path, m, "fgbilu test");
  const MatrixMarketMatrix read = read_matrix_market(path);
  std::filesystem::remove(path);
  const CsrMatrix expect = bsr_to_csr(a);
  ASSERT_EQ(read.matrix.rows, expect.rows);
  EXPECT_EQ(read.matrix.row_ptr, expect.row_ptr);
  EXPECT_EQ(read.matrix.col_idx, expect.col_idx);
  EXPECT_EQ(read.matrix.values, expect.values);
}

}  // namespace
}  // namespace tb::fgbilu
