#pragma once
// The wavefront schedule of seed 000, Algorithm 1: W:(p,q) -> (i,j,k) and the
// plane sizes N_p, built once per grid from the one hyperplane enumeration in
// mesh/graph (tb::wavefront_hyperplanes). Cells are numbered by their
// wavefront position: plane p holds positions plane_ptr[p] .. plane_ptr[p+1).
// The FGBILU coefficients are stored in this order (stencil7_matrix.hpp).
#include <array>
#include <vector>

#include "mesh/graph/structured_index.hpp"
#include "solvers/core/types.hpp"

namespace tb::fgbilu {

// Neighbour directions in the order of the paper's coefficients:
// alpha (k-1), beta (j-1), gamma (i-1) | epsilon (i+1), zeta (j+1), eta (k+1).
enum Direction : int { k_minus = 0, j_minus = 1, i_minus = 2, i_plus = 3, j_plus = 4, k_plus = 5 };
inline constexpr int num_neighbours = 6;

// Natural order: i fastest (the row order of the 7-point block stencil).
using GridShape = StructuredIndex;

// How the cells of a Stencil7Matrix are stored. The wavefront variants need
// wavefront order (a hyperplane is a contiguous range); the sequential
// baseline walks cells in natural order and streams memory only when they are
// stored that way, so it gets natural order (and no hyperplanes).
enum class CellOrder { wavefront, natural };

struct WavefrontSchedule {
  GridShape shape;
  CellOrder order = CellOrder::wavefront;
  std::vector<index_t> plane_ptr;           // N_p = plane_ptr[p+1] - plane_ptr[p], p = i + j + k (0-based)
  std::vector<std::array<index_t, 3>> ijk;  // W: wavefront position -> (i, j, k)
  std::vector<index_t> natural;             // storage position -> natural cell index (vectors are in natural order)
  std::vector<index_t> position;            // natural cell index -> storage position
  // neighbour[d * cells + q]: storage position of q's neighbour in direction d, or -1 off the grid.
  // Direction-major so that the threads of one plane read consecutive entries.
  std::vector<index_t> neighbour;

  index_t num_planes() const { return index_t(plane_ptr.size()) - 1; }
  index_t plane_size(index_t p) const { return plane_ptr[p + 1] - plane_ptr[p]; }
  index_t max_plane_size() const;
};

// Throws tb::Error when a dimension is not positive.
WavefrontSchedule make_wavefront_schedule(const GridShape& shape, CellOrder order = CellOrder::wavefront);

}  // namespace tb::fgbilu
