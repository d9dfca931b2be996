#include "tetrahedral_box.hpp"

#include <array>
#include <string>
#include <vector>

#include "dominant_blocks.hpp"
#include "solvers/core/error.hpp"

namespace tb {

namespace {

// The 14 neighbour offsets in increasing order of the linear index offset
// dz * nx * ny + dy * nx + dx, so each row of the adjacency comes out sorted.
constexpr std::array<std::array<int, 3>, 14> neighbours = {{{-1, -1, -1},
                                                            {0, -1, -1},
                                                            {-1, 0, -1},
                                                            {0, 0, -1},
                                                            {-1, -1, 0},
                                                            {0, -1, 0},
                                                            {-1, 0, 0},
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
  const index_t nx = p.nx, ny = p.ny, nz = p.nz;
  std::vector<index_t> ptr(std::size_t(nx) * ny * nz + 1, 0), idx;
  idx.reserve(ptr.size() * neighbours.size());
  for (index_t k = 0; k < nz; ++k)
    for (index_t j = 0; j < ny; ++j)
      for (index_t i = 0; i < nx; ++i) {
        for (const auto& [dx, dy, dz] : neighbours) {
          const index_t ii = i + dx, jj = j + dy, kk = k + dz;
          if (ii < 0 || ii >= nx || jj < 0 || jj >= ny || kk < 0 || kk >= nz) continue;
          idx.push_back((kk * ny + jj) * nx + ii);
        }
        ptr[std::size_t((k * ny + j) * nx + i) + 1] = index_t(idx.size());
      }
  return dominant_block_matrix(ptr, idx, p.block_size, p.seed);
}

}  // namespace tb
