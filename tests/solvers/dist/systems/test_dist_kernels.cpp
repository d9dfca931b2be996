// The distributed product's device steps (solvers/dist/kernels.hpp): the
// OpenMP kernels against the sequential twins bit for bit, on sizes past the
// OpenMP threshold so that the team splits the loops, and against sums
// written out here.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "solvers/dist/kernels.hpp"

namespace tb {
namespace {

TEST(DistKernels, GatherItemsPacksTheSendItemsInPlanOrder) {
  const index_t width = 4, owned = 40000;
  std::vector<double> src(std::size_t(owned * width));
  for (std::size_t i = 0; i < src.size(); ++i) src[i] = std::sin(0.1 * double(i));
  std::vector<index_t> items;
  for (index_t s = 0; s < 20000; ++s) items.push_back((s * 7919) % owned);  // unordered, some repeated
  const index_t count = index_t(items.size());
  std::vector<double> by_ref(std::size_t(count * width), -1.0), by_omp(by_ref.size(), -2.0);
  dist::kernels::ref::gather_items(src.data(), items.data(), count, width, by_ref.data());
  dist::kernels::omp::gather_items(src.data(), items.data(), count, width, by_omp.data());
  EXPECT_EQ(by_omp, by_ref);
  for (index_t s : {index_t(0), index_t(1), count - 1})
    for (index_t c = 0; c < width; ++c)
      EXPECT_EQ(by_ref[std::size_t(s * width + c)], src[std::size_t(items[std::size_t(s)] * width + c)]);
}

TEST(DistKernels, ScatterItemsPutsTheReceivedItemsInTheirPlaces) {
  const index_t width = 4, local = 50000;
  std::vector<index_t> items;
  for (index_t s = 0; s < 20000; ++s) items.push_back(local - 1 - (s * 7) % local);  // distinct, unordered
  const index_t count = index_t(items.size());
  std::vector<double> in(std::size_t(count * width));
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = std::cos(0.3 * double(i));
  std::vector<double> by_ref(std::size_t(local * width), -1.0), by_omp = by_ref;
  dist::kernels::ref::scatter_items(in.data(), items.data(), count, width, by_ref.data());
  dist::kernels::omp::scatter_items(in.data(), items.data(), count, width, by_omp.data());
  EXPECT_EQ(by_omp, by_ref);
  for (index_t s : {index_t(0), index_t(1), count - 1})
    for (index_t c = 0; c < width; ++c)
      EXPECT_EQ(by_ref[std::size_t(items[std::size_t(s)] * width + c)], in[std::size_t(s * width + c)]);
  EXPECT_EQ(by_ref[std::size_t(width * 1)], -1.0) << "an entry no item names stays";
}

// An off-rank block of 3 x 3 blocks: every other row holds 1 to 3 blocks of
// 2 000 ghost columns; the interface rows are those that hold any.
TEST(DistKernels, AddRowsProductAddsEachInterfaceRowOnce) {
  const index_t bs = 3, rows = 30000, ghosts = 2000;
  BsrMatrix off;
  off.block_size = bs;
  off.block_rows = rows;
  off.block_cols = ghosts;
  std::vector<index_t> interface;
  for (index_t i = 0; i < rows; ++i) {
    if (i % 2 == 1) {
      const index_t blocks = 1 + i % 3;
      for (index_t k = 0; k < blocks; ++k) {
        off.col_idx.push_back((i * 13 + k * 577) % ghosts);
        for (index_t e = 0; e < bs * bs; ++e) off.values.push_back(std::cos(0.01 * double(i) + double(e) + 0.3 * k));
      }
      interface.push_back(i);
    }
    off.row_ptr.push_back(off.nnz_blocks());
  }
  std::vector<double> x(std::size_t(ghosts * bs));
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = 1.0 + std::sin(0.37 * double(i));
  std::vector<double> y0(std::size_t(rows * bs));
  for (std::size_t i = 0; i < y0.size(); ++i) y0[i] = std::cos(0.5 * double(i));
  std::vector<double> by_ref = y0, by_omp = y0;
  const BsrView v = view(off);
  const index_t count = index_t(interface.size());
  dist::kernels::ref::add_rows_product(v, interface.data(), count, x.data(), by_ref.data());
  dist::kernels::omp::add_rows_product(v, interface.data(), count, x.data(), by_omp.data());
  EXPECT_EQ(by_omp, by_ref);
  // Row 1: y0 plus its two blocks times their ghosts, summed block by block;
  // row 0 (no blocks) untouched.
  for (index_t r = 0; r < bs; ++r) {
    double sum[2] = {0.0, 0.0};
    for (index_t k = 0; k < 2; ++k)
      for (index_t c = 0; c < bs; ++c)
        sum[k] +=
            off.values[std::size_t(k * bs * bs + r * bs + c)] * x[std::size_t(off.col_idx[std::size_t(k)] * bs + c)];
    EXPECT_EQ(by_ref[std::size_t(bs + r)], y0[std::size_t(bs + r)] + (sum[0] + sum[1]));
    EXPECT_EQ(by_ref[std::size_t(r)], y0[std::size_t(r)]);
  }
}

}  // namespace
}  // namespace tb
