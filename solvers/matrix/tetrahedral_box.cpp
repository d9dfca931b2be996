#include "tetrahedral_box.hpp"

#include <array>
#include <cmath>
#include <string>

#include "solvers/core/error.hpp"
#include "split_mix.hpp"

namespace tb {

namespace {

// The 14 neighbour offsets in increasing order of the linear index offset
// dz * nx * ny + dy * nx + dx, with the node itself in the middle, so each
// block row comes out with sorted columns.
constexpr std::array<std::array<int, 3>, 15> stencil = {{{-1, -1, -1},
                                                         {0, -1, -1},
                                                         {-1, 0, -1},
                                                         {0, 0, -1},
                                                         {-1, -1, 0},
                                                         {0, -1, 0},
                                                         {-1, 0, 0},
                                                         {0, 0, 0},
                                                         {1, 0, 0},
                                                         {0, 1, 0},
                                                         {1, 1, 0},
                                                         {0, 0, 1},
                                                         {1, 0, 1},
                                                         {0, 1, 1},
                                                         {1, 1, 1}}};

void check(const TetrahedralBoxParams& p) {
  if (p.nx < 1 || p.ny < 1 || p.nz < 1)
    throw Error("tetrahedral box: nx, ny, nz must be at least 1, got " + std::to_string(p.nx) + " x " +
                std::to_string(p.ny) + " x " + std::to_string(p.nz));
  if (p.block_size < 1 || p.block_size > max_block_size)
    throw Error("tetrahedral box: block size must be 1.." + std::to_string(max_block_size) + ", got " +
                std::to_string(p.block_size));
  if (double(p.nx) * p.ny * p.nz * 15 * p.block_size * p.block_size > 2e9)
    throw Error("tetrahedral box: too large for 32-bit indices");
}

}  // namespace

BsrMatrix generate_tetrahedral_box(const TetrahedralBoxParams& p) {
  check(p);
  const index_t n = p.block_size, nx = p.nx, ny = p.ny, nz = p.nz;
  BsrMatrix a;
  a.block_size = n;
  a.block_rows = a.block_cols = nx * ny * nz;
  a.row_ptr.assign(std::size_t(a.block_rows) + 1, 0);
  SplitMix rng(p.seed);
  std::vector<double> row_sum(n);
  for (index_t k = 0; k < nz; ++k)
    for (index_t j = 0; j < ny; ++j)
      for (index_t i = 0; i < nx; ++i) {
        const index_t row = (k * ny + j) * nx + i;
        std::fill(row_sum.begin(), row_sum.end(), 0.0);
        index_t diag = -1;
        for (const auto& [dx, dy, dz] : stencil) {
          const index_t ii = i + dx, jj = j + dy, kk = k + dz;
          if (ii < 0 || ii >= nx || jj < 0 || jj >= ny || kk < 0 || kk >= nz) continue;
          if (dx == 0 && dy == 0 && dz == 0) diag = a.nnz_blocks();
          a.col_idx.push_back((kk * ny + jj) * nx + ii);
          for (index_t e = 0; e < n * n; ++e) {
            const double v = rng.uniform(-1.0, 1.0);
            a.values.push_back(v);
            if (e % n != e / n || a.col_idx.back() != row) row_sum[e / n] += std::abs(v);
          }
        }
        // Strict diagonal dominance with a random margin of 10-60 %.
        double* d = a.block(diag);
        for (index_t r = 0; r < n; ++r) d[r * n + r] = row_sum[r] * rng.uniform(1.1, 1.6);
        a.row_ptr[row + 1] = a.nnz_blocks();
      }
  return a;
}

}  // namespace tb
