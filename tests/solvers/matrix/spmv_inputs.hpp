#pragma once
// The inputs of the BSR SpMV tests, host and GPU: irregular random BSR
// matrices, the 7-point test matrix, and a per-row rounding bound.
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "solvers/matrix/bsr.hpp"
#include "solvers/matrix/generate.hpp"

namespace tb::test {

// A square BSR matrix with an irregular pattern: empty block rows, rows of a
// single block, and rows longer than a warp's worth of blocks, so the flat
// walk's tail handling and the group reductions see every case.
inline BsrMatrix random_bsr(index_t block_rows, index_t bs, unsigned seed) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> val(-1.0, 1.0);
  BsrMatrix a;
  a.block_size = bs;
  a.block_rows = a.block_cols = block_rows;
  a.row_ptr.assign(1, 0);
  for (index_t i = 0; i < block_rows; ++i) {
    index_t len = index_t(gen() % 9);
    if (i % 17 == 3) len = 0;
    if (i % 23 == 5) len = std::min<index_t>(block_rows, 40);
    std::vector<index_t> cols(block_rows);
    for (index_t j = 0; j < block_rows; ++j) cols[j] = j;
    std::shuffle(cols.begin(), cols.end(), gen);
    cols.resize(std::min(len, block_rows));
    std::sort(cols.begin(), cols.end());
    a.col_idx.insert(a.col_idx.end(), cols.begin(), cols.end());
    a.row_ptr.push_back(index_t(a.col_idx.size()));
  }
  a.values.resize(a.col_idx.size() * std::size_t(bs) * bs);
  for (double& v : a.values) v = val(gen);
  a.validate();
  return a;
}

inline BsrMatrix stencil(index_t bs) {
  Stencil7Params p;
  p.nx = 7, p.ny = 5, p.nz = bs > 8 ? 2 : 6;
  p.block_size = bs;
  p.seed = unsigned(bs);
  return generate_stencil7(p);
}

// Per-row bound on the rounding of a sum of products in any order.
inline std::vector<double> row_tolerance(const BsrMatrix& a, const std::vector<double>& x) {
  BsrMatrix abs_a = a;
  for (double& v : abs_a.values) v = std::abs(v);
  std::vector<double> abs_x(x.size()), bound(std::size_t(a.rows()));
  for (std::size_t i = 0; i < x.size(); ++i) abs_x[i] = std::abs(x[i]);
  spmv_ref(abs_a, abs_x.data(), bound.data());
  const double per_term = 2.0 * std::numeric_limits<double>::epsilon() * (a.block_size * 64 + 1);
  for (double& b : bound) b = b * per_term + 1e-300;
  return bound;
}

}  // namespace tb::test
