#pragma once
// The structured 7-point block matrix of seed 000, Fig. 2: on an I x J x K grid
// every cell (i,j,k) owns seven n x n blocks, alpha (k-1), beta (j-1),
// gamma (i-1), delta (diagonal), epsilon (i+1), zeta (j+1), eta (k+1); blocks
// that would couple to a cell off the grid are zero.
//
// Layout, chosen for coalesced GPU access: coefficient-major, then cells in
// wavefront order (wavefront_schedule.hpp; natural order for the sequential
// baseline only), then the n*n entries of the block
// row-major: values[(c * cells + q) * n*n + u*n + v]. The fine-grained kernels
// map consecutive threads to consecutive (q, u, v) of one hyperplane
// (Algorithm 8), so with this order a warp reading one coefficient reads one
// contiguous run of doubles: a hyperplane is a contiguous range of q. In natural
// (BSR) order the cells of a hyperplane lie up to I*J cells apart and every
// block would be a separate memory transaction. Vectors stay in natural order:
// they are the Krylov methods' vectors.
//
// It lives in solvers/matrix, below the rooms, because two rooms use it (FGBILU
// factorises it, the banded room converts it to DIA); the namespace tb::fgbilu
// names the paper whose format it is.
#include <string>
#include <vector>

#include "solvers/matrix/bsr.hpp"
#include "solvers/matrix/wavefront_schedule.hpp"

namespace tb::fgbilu {

enum Coefficient : int { alpha = 0, beta = 1, gamma = 2, delta = 3, epsilon = 4, zeta = 5, eta = 6 };
inline constexpr int num_coefficients = 7;

// The coefficient that couples a cell to its neighbour in direction d.
constexpr int coefficient_of(int direction) { return direction < 3 ? direction : direction + 1; }

struct Stencil7Matrix {
  index_t block_size = 1;  // n, 1..32
  WavefrontSchedule schedule;
  std::vector<double> values;  // 7 * cells * n * n, layout above

  index_t cells() const { return schedule.shape.cells(); }
  std::size_t block_entries() const { return std::size_t(block_size) * block_size; }
  double* block(int c, index_t q) { return values.data() + (std::size_t(c) * cells() + q) * block_entries(); }
  const double* block(int c, index_t q) const {
    return values.data() + (std::size_t(c) * cells() + q) * block_entries();
  }
};

inline constexpr index_t max_stencil7_block_size = 32;

// The I x J x K grid of a BSR matrix whose pattern is the natural-order 7-point
// stencil (rows i fastest, column offsets 1, I, I*J, every in-grid neighbour
// stored). A grid given explicitly (all of ni, nj, nk > 0) is checked instead of
// inferred. Throws tb::Error when the pattern is not such a stencil (periodic
// wrap-around columns, missing or extra blocks), naming the first bad block row.
// A grid with I = 1 is inferred as its equivalent J x K x 1 (same matrix, same
// factorisation).
GridShape infer_grid_shape(const BsrMatrix& a, const GridShape* given = nullptr);

// Where each block of the 7-point format lives in the BSR matrix: found once per
// pattern (symbolic), so that new values are copied without searching.
struct Stencil7Map {
  std::vector<index_t> bsr_block;  // [c * cells + q]: position in a.col_idx, or -1 off the grid
};

Stencil7Map map_bsr_blocks(const BsrMatrix& a, const WavefrontSchedule& s);
// Symbolic + numeric conversion; the map is returned for later updates.
Stencil7Matrix stencil7_from_bsr(const BsrMatrix& a, const GridShape& shape, Stencil7Map* map = nullptr,
                                 CellOrder order = CellOrder::wavefront);
// Numeric only: copies a's values (same pattern as when map was made).
void update_values(const BsrMatrix& a, const Stencil7Map& map, Stencil7Matrix& m);
// The natural-order BSR matrix; blocks off the grid are not stored.
BsrMatrix to_bsr(const Stencil7Matrix& m);
// MatrixMarket coordinate file of the scalar matrix (through to_bsr).
void write_matrix_market(const std::string& path, const Stencil7Matrix& m, const std::string& comment = {});

}  // namespace tb::fgbilu
