// The block-row split behind the distributed BSR operator: for every layout
// (ranks that own several rows, one, or none) the local and off-rank blocks of
// all ranks together reproduce the serial product, and a values-only refresh
// follows new numbers. Each rank checks every layout on its own.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "solvers/dist/row_distribution.hpp"

namespace tb {
namespace {

// Block row i couples to i-1, i, i+1 and to the last block row: a wrap-around
// column makes the first rank need a ghost from the last.
BsrMatrix coupled_blocks(index_t block_rows, index_t block_size) {
  BsrMatrix a;
  a.block_size = block_size;
  a.block_rows = a.block_cols = block_rows;
  for (index_t i = 0; i < block_rows; ++i) {
    for (index_t j = 0; j < block_rows; ++j)
      if (std::abs(i - j) <= 1 || j == block_rows - 1) {
        a.col_idx.push_back(j);
        for (index_t e = 0; e < block_size * block_size; ++e) a.values.push_back(std::sin(1.0 + i * 7.0 + j * 3.0 + e));
      }
    a.row_ptr.push_back(a.nnz_blocks());
  }
  return a;
}

void add_product(const BsrMatrix& m, const std::vector<index_t>& global_col, index_t first_row,
                 const std::vector<double>& x, std::vector<double>& y) {
  const index_t b = m.block_size;
  for (index_t i = 0; i < m.block_rows; ++i)
    for (index_t k = m.row_ptr[i]; k < m.row_ptr[i + 1]; ++k)
      for (index_t r = 0; r < b; ++r)
        for (index_t c = 0; c < b; ++c)
          y[(first_row + i) * b + r] += m.block(k)[r * b + c] * x[global_col[m.col_idx[k]] * b + c];
}

std::vector<double> split_product(const BsrMatrix& a, int ranks, const std::vector<double>& x) {
  const auto rows = dist::RowDistribution::balanced(a.block_rows, ranks);
  std::vector<double> y(x.size(), 0.0);
  for (int r = 0; r < ranks; ++r) {
    const auto blocks = dist::RankBlocks::split(a, rows, r);
    std::vector<index_t> own(blocks.local.block_cols);
    for (index_t j = 0; j < index_t(own.size()); ++j) own[j] = rows.first(r) + j;
    add_product(blocks.local, own, rows.first(r), x, y);
    add_product(blocks.off_rank, blocks.ghost_columns, rows.first(r), x, y);
  }
  return y;
}

TEST(RowDistribution, BalancedRangesCoverAllRowsAndAllowEmptyRanks) {
  const auto d = dist::RowDistribution::balanced(7, 9);
  EXPECT_EQ(d.begin, (std::vector<index_t>{0, 1, 2, 3, 4, 5, 6, 7, 7, 7}));
  for (index_t i = 0; i < 7; ++i) EXPECT_EQ(d.owner(i), int(i));
  EXPECT_EQ(d.owned(8), 0);
  EXPECT_EQ(dist::RowDistribution::balanced(7, 3).begin, (std::vector<index_t>{0, 3, 5, 7}));
}

TEST(RowDistribution, SplitBlocksReproduceTheSerialProduct) {
  for (index_t block_size : {1, 4}) {
    const auto a = coupled_blocks(7, block_size);
    std::vector<double> x(std::size_t(a.rows()));
    for (std::size_t i = 0; i < x.size(); ++i) x[i] = std::cos(0.3 * double(i));
    std::vector<index_t> all(7);
    for (index_t j = 0; j < 7; ++j) all[j] = j;
    std::vector<double> serial(x.size(), 0.0);
    add_product(a, all, 0, x, serial);
    // The split changes the order of a row's sum: agreement to rounding of the row's largest terms.
    double scale = 0.0;
    for (double v : serial) scale = std::max(scale, std::abs(v));
    for (int ranks : {1, 2, 3, 9}) {
      const auto y = split_product(a, ranks, x);
      for (std::size_t i = 0; i < y.size(); ++i)
        EXPECT_NEAR(y[i], serial[i], 1e-14 * scale) << "ranks " << ranks << " row " << i;
    }
  }
}

TEST(RowDistribution, RefreshCopiesNewValuesOnTheSamePattern) {
  auto a = coupled_blocks(7, 4);
  const auto rows = dist::RowDistribution::balanced(7, 3);
  auto blocks = dist::RankBlocks::split(a, rows, 1);
  EXPECT_EQ(blocks.ghost_columns, (std::vector<index_t>{2, 5, 6}));
  for (double& v : a.values) v *= 2.0;
  const double* before = blocks.local.values.data();
  blocks.refresh_values(a);
  EXPECT_EQ(blocks.local.values.data(), before);
  const auto fresh = dist::RankBlocks::split(a, rows, 1);
  EXPECT_EQ(blocks.local.values, fresh.local.values);
  EXPECT_EQ(blocks.off_rank.values, fresh.off_rank.values);
}

}  // namespace
}  // namespace tb
