#include "dominant_blocks.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "solvers/core/error.hpp"
#include "split_mix.hpp"

namespace tb {

namespace {

void check(std::span<const index_t> ptr, std::span<const index_t> idx, index_t block_size) {
  if (block_size < 1 || block_size > max_block_size)
    throw Error("dominant_block_matrix: block size must be 1.." + std::to_string(max_block_size) + ", got " +
                std::to_string(block_size));
  if (ptr.empty() || ptr.front() != 0 || std::size_t(ptr.back()) != idx.size())
    throw Error("dominant_block_matrix: the adjacency's row pointers do not span its column indices");
  const double rows = double(ptr.size() - 1);
  if ((double(idx.size()) + rows) * block_size * block_size > 2e9)
    throw Error("dominant_block_matrix: too large for 32-bit indices");
  for (std::size_t r = 0; r + 1 < ptr.size(); ++r)
    for (index_t k = ptr[r]; k < ptr[r + 1]; ++k) {
      if (idx[k] < 0 || idx[k] >= index_t(rows) || idx[k] == index_t(r) || (k > ptr[r] && idx[k] <= idx[k - 1]))
        throw Error("dominant_block_matrix: row " + std::to_string(r) + " of the adjacency is not sorted, repeats " +
                    "a column, names itself or leaves 0.." + std::to_string(index_t(rows) - 1));
    }
}

}  // namespace

BsrMatrix dominant_block_matrix(std::span<const index_t> adjacency_ptr, std::span<const index_t> adjacency_idx,
                                index_t block_size, unsigned seed) {
  check(adjacency_ptr, adjacency_idx, block_size);
  const index_t n = block_size, rows = index_t(adjacency_ptr.size() - 1);
  BsrMatrix a;
  a.block_size = n;
  a.block_rows = a.block_cols = rows;
  a.row_ptr.assign(std::size_t(rows) + 1, 0);
  a.col_idx.reserve(adjacency_idx.size() + std::size_t(rows));
  a.values.reserve(a.col_idx.capacity() * std::size_t(n * n));
  SplitMix rng(seed);
  std::vector<double> row_sum(static_cast<std::size_t>(n));
  for (index_t row = 0; row < rows; ++row) {
    std::fill(row_sum.begin(), row_sum.end(), 0.0);
    index_t diag = -1;
    const auto add_block = [&](index_t col) {
      if (col == row) diag = a.nnz_blocks();
      a.col_idx.push_back(col);
      for (index_t e = 0; e < n * n; ++e) {
        const double v = rng.uniform(-1.0, 1.0);
        a.values.push_back(v);
        if (e % n != e / n || col != row) row_sum[std::size_t(e / n)] += std::abs(v);
      }
    };
    index_t k = adjacency_ptr[row];
    for (; k < adjacency_ptr[row + 1] && adjacency_idx[k] < row; ++k) add_block(adjacency_idx[k]);
    add_block(row);
    for (; k < adjacency_ptr[row + 1]; ++k) add_block(adjacency_idx[k]);
    double* d = a.block(diag);
    for (index_t r = 0; r < n; ++r) d[r * n + r] = row_sum[std::size_t(r)] * rng.uniform(1.1, 1.6);
    a.row_ptr[row + 1] = a.nnz_blocks();
  }
  return a;
}

}  // namespace tb
