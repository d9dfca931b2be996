// Seed 002's random test values on a given pattern: the adjacency plus the
// diagonal, the stated dominance margin, one matrix per seed, and refused input.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "dominance.hpp"
#include "solvers/core/error.hpp"
#include "solvers/matrix/dominant_blocks.hpp"

namespace tb {
namespace {

// The path 0 - 1 - 2 - 3 and the chord 0 - 3: a ring of four.
const std::vector<index_t> ring_ptr = {0, 2, 4, 6, 8}, ring_idx = {1, 3, 0, 2, 1, 3, 0, 2};

TEST(DominantBlocks, PatternIsTheAdjacencyWithTheDiagonal) {
  const BsrMatrix a = dominant_block_matrix(ring_ptr, ring_idx, 3, 1);
  a.validate();
  EXPECT_EQ(a.block_rows, 4);
  EXPECT_EQ(a.block_size, 3);
  EXPECT_EQ(a.row_ptr, (std::vector<index_t>{0, 3, 6, 9, 12}));
  EXPECT_EQ(a.col_idx, (std::vector<index_t>{0, 1, 3, 0, 1, 2, 1, 2, 3, 0, 2, 3}));
}

TEST(DominantBlocks, RowsAreDominantByTheStatedMarginAndTheSeedNamesTheMatrix) {
  const BsrMatrix a = dominant_block_matrix(ring_ptr, ring_idx, 5, 1);
  const auto [lo, hi] = test::dominance_ratios(a);
  EXPECT_GE(lo, 1.1);
  EXPECT_LE(hi, 1.6);
  EXPECT_EQ(a.values, dominant_block_matrix(ring_ptr, ring_idx, 5, 1).values);
  EXPECT_NE(a.values, dominant_block_matrix(ring_ptr, ring_idx, 5, 2).values);
}

std::string error_of(const std::vector<index_t>& ptr, const std::vector<index_t>& idx, index_t n = 2) {
  try {
    dominant_block_matrix(ptr, idx, n, 1);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(DominantBlocks, BadAdjacencyOrBlockSizeIsRefused) {
  EXPECT_NE(error_of({0, 2, 4, 6, 8}, {3, 1, 0, 2, 1, 3, 0, 2}).find("row 0 of the adjacency is not sorted"),
            std::string::npos);
  EXPECT_NE(error_of({0, 1, 2}, {1, 1}).find("row 1 of the adjacency"), std::string::npos);  // names itself
  EXPECT_NE(error_of({0, 1, 2}, {1, 2}).find("leaves 0..1"), std::string::npos);
  EXPECT_NE(error_of({0, 1, 3}, {1, 0}).find("do not span"), std::string::npos);
  EXPECT_NE(error_of(ring_ptr, ring_idx, 0).find("block size must be 1.."), std::string::npos);
}

}  // namespace
}  // namespace tb
