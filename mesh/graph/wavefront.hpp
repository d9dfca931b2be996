#pragma once
// Wavefront hyperplanes p = i + j + k of a structured grid (seed 000 §2.1,
// Algorithm 1): every cell's lower neighbours (i-1, j, k), (i, j-1, k),
// (i, j, k-1) lie in plane p - 1, so the cells of one plane factorise and solve
// in parallel. Within a plane cells follow Algorithm 1's loop order (i, then j,
// then k).
#include <array>
#include <vector>

#include "solvers/core/types.hpp"

namespace tb {

struct Hyperplanes {
  std::vector<index_t> plane_ptr{0};  // plane p: ijk[plane_ptr[p] .. plane_ptr[p+1])
  std::vector<std::array<index_t, 3>> ijk;
  index_t num_planes() const { return static_cast<index_t>(plane_ptr.size()) - 1; }
  index_t plane_size(index_t p) const { return plane_ptr[p + 1] - plane_ptr[p]; }
};
// Throws tb::Error when a dimension is not positive.
Hyperplanes wavefront_hyperplanes(index_t ni, index_t nj, index_t nk);

}  // namespace tb
