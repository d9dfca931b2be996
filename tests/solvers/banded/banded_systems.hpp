#pragma once
// Small banded test systems: random scalar matrices with a given set of
// diagonals, and the Poisson-type stencil7 systems of the paper (§II-B); and
// the comparison of two DIA slabs entry for entry.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <utility>
#include <vector>

#include "solvers/banded/dia_matrix.hpp"
#include "solvers/matrix/bsr.hpp"
#include "solvers/matrix/generate.hpp"

namespace tb::test {

// n x n, scalar, the given column offsets in every row where they fall inside
// the matrix, random values in [-1, 1) off the diagonal and a diagonal that
// dominates by 'dominance' (> 1: BiCGStab converges quickly).
inline BsrMatrix random_banded(index_t n, std::vector<index_t> offsets, unsigned seed, double dominance = 1.5) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> val(-1.0, 1.0);
  BsrMatrix a;
  a.block_rows = a.block_cols = n;
  a.row_ptr.assign(1, 0);
  for (index_t i = 0; i < n; ++i) {
    double off_sum = 0.0;
    std::size_t diag = 0;
    for (index_t o : offsets) {
      const index_t j = i + o;
      if (j < 0 || j >= n) continue;
      if (o == 0) diag = a.values.size();
      const double v = o == 0 ? 0.0 : val(gen);
      off_sum += std::abs(v);
      a.col_idx.push_back(j);
      a.values.push_back(v);
    }
    a.values[diag] = dominance * off_sum + 0.1;
    a.row_ptr.push_back(index_t(a.col_idx.size()));
  }
  return a;
}

// random_banded(n, full, seed) plus, in every `every`-th row, one entry on each
// of the `sparse` offsets (where it falls inside the matrix): the shape an
// immersed boundary's interpolation rows give a 7-point matrix, a few far
// diagonals holding a handful of entries.
inline BsrMatrix banded_with_sparse_diagonals(index_t n, std::vector<index_t> full, std::vector<index_t> sparse,
                                              index_t every, unsigned seed) {
  const BsrMatrix base = random_banded(n, full, seed);
  std::mt19937_64 gen(seed + 99);
  std::uniform_real_distribution<double> val(-0.3, 0.3);
  BsrMatrix a;
  a.block_rows = a.block_cols = n;
  a.row_ptr.assign(1, 0);
  for (index_t i = 0; i < n; ++i) {
    std::vector<std::pair<index_t, double>> row;
    for (index_t k = base.row_ptr[i]; k < base.row_ptr[i + 1]; ++k)
      row.emplace_back(base.col_idx[k], base.values[std::size_t(k)]);
    if (i % every == 0)
      for (index_t o : sparse)
        if (i + o >= 0 && i + o < n) row.emplace_back(i + o, val(gen));
    std::sort(row.begin(), row.end());
    for (const auto& [j, v] : row) a.col_idx.push_back(j), a.values.push_back(v);
    a.row_ptr.push_back(index_t(a.col_idx.size()));
  }
  return a;
}

// The scalar 7-point system of the stencil7 generator on a uniform grid:
// symmetric (no convection) for CG, or with upwind convection for BiCGStab.
inline BsrMatrix poisson7(index_t nx, index_t ny, index_t nz, bool symmetric = true) {
  Stencil7Params p;
  p.nx = nx, p.ny = ny, p.nz = nz, p.block_size = 1, p.stretch = 1.0, p.symmetric = symmetric;
  p.peclet = symmetric ? 0.0 : 10.0;
  return generate_stencil7(p);
}

// Every field of a slab, as dia_from_bsr would cut it.
inline void expect_same_dia(const banded::DiaMatrix& got, const banded::DiaMatrix& expected) {
  EXPECT_EQ(got.n, expected.n);
  EXPECT_EQ(got.first_row, expected.first_row);
  EXPECT_EQ(got.rows, expected.rows);
  EXPECT_EQ(got.offsets, expected.offsets);
  EXPECT_EQ(got.values, expected.values);
  EXPECT_EQ(got.rest_ptr, expected.rest_ptr);
  EXPECT_EQ(got.rest_offsets, expected.rest_offsets);
  EXPECT_EQ(got.rest_values, expected.rest_values);
  EXPECT_EQ(got.rest_band, expected.rest_band);
}

}  // namespace tb::test
