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
#include "solvers/matrix/bsr.hpp"

namespace tb::incompressible {

// Slot of the neighbour across side s (-1, +1) in direction d: the column
// order of a row, -z -y -x self +x +y +z.
inline constexpr int slot_of(int d, int s) { return 3 + s * (d + 1); }
inline constexpr int self_slot = 3;

struct StencilPattern {
  BsrMatrix matrix;                              // the pattern, values zero
  std::vector<std::array<index_t, 7>> position;  // block position of each slot of each cell; -1 when absent
};

// On a piece of the grid (fv_grid.hpp) the rows are the owned cells' only, with
// the whole grid's columns: the rank's rows of the distributed system, which no
// ghost row ever needs; position has every local cell, a ghost's all -1.
StencilPattern make_stencil_pattern(const FvGrid& grid, index_t block_size);

// True when cell c has a neighbour across side s in direction d.
inline bool has_neighbour(const FvGrid& g, const std::array<index_t, 3>& c, int d, int s) {
  return g.has_neighbour(c, d, s);
}

}  // namespace tb::incompressible
