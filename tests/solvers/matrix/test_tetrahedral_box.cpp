// The tetrahedral-box generator: the Kuhn triangulation's node graph (14
// neighbours inside), a symmetric pattern, and strict diagonal dominance.
#include <gtest/gtest.h>

#include "dominance.hpp"
#include "solvers/core/error.hpp"
#include "solvers/matrix/tetrahedral_box.hpp"

namespace tb {
namespace {

TEST(TetrahedralBox, InteriorNodesHaveFourteenNeighboursAndThePatternIsSymmetric) {
  TetrahedralBoxParams p;
  p.nx = 5, p.ny = 4, p.nz = 3, p.block_size = 3;
  const BsrMatrix a = generate_tetrahedral_box(p);
  a.validate();
  EXPECT_EQ(a.block_rows, 60);
  const index_t interior = (1 * 4 + 1) * 5 + 2;  // (i, j, k) = (2, 1, 1)
  EXPECT_EQ(a.row_ptr[interior + 1] - a.row_ptr[interior], 15);
  EXPECT_EQ(a.row_ptr[1] - a.row_ptr[0], 8);  // a corner of the box: the cube's 7 other corners and itself
  for (index_t i = 0; i < a.block_rows; ++i)
    for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) EXPECT_GE(a.find_block(a.col_idx[k], i), 0);
  // The Kuhn cut: (0,0,0)-(1,1,1) is an edge, the other three main diagonals are not.
  EXPECT_GE(a.find_block(0, (1 * 4 + 1) * 5 + 1), 0);
  EXPECT_LT(a.find_block(1, (1 * 4 + 1) * 5 + 0), 0);
}

TEST(TetrahedralBox, RowsAreStrictlyDiagonallyDominant) {
  TetrahedralBoxParams p;
  p.nx = p.ny = p.nz = 4, p.block_size = 4;
  const BsrMatrix a = generate_tetrahedral_box(p);
  const auto [lo, hi] = test::dominance_ratios(a);
  EXPECT_GT(lo, 1.09);
  EXPECT_LT(hi, 1.61);
}

TEST(TetrahedralBox, BadSizesAreRefused) {
  TetrahedralBoxParams p;
  p.nx = 0;
  EXPECT_THROW(generate_tetrahedral_box(p), Error);
  p.nx = 2, p.block_size = 65;
  EXPECT_THROW(generate_tetrahedral_box(p), Error);
}

}  // namespace
}  // namespace tb
