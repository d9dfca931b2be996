#pragma once
// The 7-point block pattern of a structured grid in natural order (i fastest,
// then j, then k), the same rows and columns as tb::generate_stencil7, so the
// FGBILU room (seed 000) reads the momentum and pressure matrices as they are.
// Built once per grid; each step only refills the values. A periodic direction
// adds wrap-around columns (still 7 blocks a row, sorted), which leaves the
// natural 7-point structure: registry solvers accept it, FGBILU's wavefronts do not.
#include <array>
#include <vector>

#include "physics/incompressible/fv_grid.hpp"
#include "physics/split_rows.hpp"
#include "solvers/matrix/bsr.hpp"

namespace tb::incompressible {

// Slot of the neighbour across side s (-1, +1) in direction d: the column
// order of a row, -z -y -x self +x +y +z.
inline constexpr int slot_of(int d, int s) { return 3 + s * (d + 1); }
inline constexpr int self_slot = 3;

// The matrices are assembled where they are: the pattern is the system.
struct StencilPattern {
  BsrMatrix matrix;                              // the owned rows' blocks in owned columns; values zero at first
  std::vector<std::array<index_t, 7>> position;  // where each slot of each cell goes (physics/split_rows.hpp)
  // A piece's blocks in ghost columns, column g standing for the whole grid's
  // row ghost_columns[g] (ascending); no blocks on a whole grid.
  BsrMatrix off_rank;
  std::vector<index_t> ghost_columns;
};

// The positions of every cell's 7 slots, 7 per cell, as the kernels read them (grid_view.hpp).
inline const index_t* positions(const StencilPattern& p) {
  static_assert(sizeof(std::array<index_t, 7>) == 7 * sizeof(index_t), "positions are read as 7 index_t per cell");
  return p.position.empty() ? nullptr : p.position.front().data();
}

// On a piece of the grid (fv_grid.hpp) the rows are the owned cells' only,
// split as the distributed solvers keep a rank's rows: `matrix` in the owned
// cells' columns (numbered from the first owned cell), `off_rank` in the
// ghost planes' (docs/distributed.md: no split copy beside them); a ghost cell's
// positions are all no_block. On a whole grid `matrix` is the whole system.
StencilPattern make_stencil_pattern(const FvGrid& grid, index_t block_size);

// tb::Error from `who` where the pattern has blocks in ghost columns and no
// off-rank matrix of its pattern is given.
void check_off_rank(const StencilPattern& pattern, const BsrMatrix* off_rank, const char* who);

// True when cell c has a neighbour across side s in direction d.
inline bool has_neighbour(const FvGrid& g, const std::array<index_t, 3>& c, int d, int s) {
  return g.has_neighbour(c, d, s);
}

}  // namespace tb::incompressible
