// A rank's slab of the immersed-boundary grid (docs/distributed.md) against the whole
// grid: the same geometry, cell types and ghost-cell interpolations on its
// owned planes, and its rows of both systems equal the whole grid's rows bit for
// bit (whole-grid columns), so a decomposed run solves the one-process system.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "ib_fixtures.hpp"
#include "physics/immersed/ghost_cells.hpp"
#include "physics/immersed/scalar_system.hpp"

namespace tb::test {
namespace {

using namespace tb::immersed;

constexpr int ghost_planes = 6;  // tb-ib's (miniapps/immersed/ib_simulation.cpp)

CartesianGrid whole_grid() {
  return CartesianGrid({clustered_axis_nodes(-1.5, 2.0, -0.6, 0.6, 0.12, 1.2),
                        clustered_axis_nodes(-1.2, 1.2, -0.6, 0.6, 0.12, 1.2),
                        clustered_axis_nodes(-1.3, 1.3, -0.6, 0.6, 0.12, 1.2)});
}

std::vector<CartesianGrid> pieces(const CartesianGrid& whole, int parts) {
  std::vector<CartesianGrid> out;
  for (const Slab& s : decompose_slabs(whole.shape(), parts, ghost_planes))
    out.push_back(CartesianGrid::piece(whole, s.first_held(), s.held(), s.planes_below, s.planes_below + s.planes));
  return out;
}

index_t whole_cell(const CartesianGrid& piece, index_t local) { return piece.global_index(local); }

TEST(IbGridPiece, SameGeometryOnEveryPlaneItHolds) {
  const CartesianGrid whole = whole_grid();
  for (const CartesianGrid& p : pieces(whole, 3)) {
    ASSERT_TRUE(p.is_piece());
    for (index_t k = 0; k < p.cells(2); ++k) {
      const index_t kw = k + p.planes().first;
      EXPECT_EQ(p.axis(2).centres[k], whole.axis(2).centres[kw]);
      EXPECT_EQ(p.axis(2).widths[k], whole.axis(2).widths[kw]);
      if (k + 1 < p.cells(2)) {
        EXPECT_EQ(p.spacing(2, k), whole.spacing(2, kw));
      }
    }
    EXPECT_EQ(p.whole_cells(), whole.num_cells());
  }
}

TEST(IbGridPiece, OwnedCellTypesAndGhostStencilsAreTheWholeGrids) {
  const CartesianGrid whole = whole_grid();
  const Sphere sphere({0.05, -0.02, 0.03}, 0.5);
  const GhostCells all = build_ghost_cells(whole, sphere);
  std::size_t ghosts = 0;
  for (const CartesianGrid& p : pieces(whole, 3)) {
    const GhostCells mine = build_ghost_cells(p, sphere);
    for (index_t c = p.owned_cell_begin(); c < p.owned_cell_end(); ++c) {
      const index_t w = whole_cell(p, c);
      ASSERT_EQ(mine.types[c], all.types[w]) << "cell " << w;
      if (mine.types[c] != CellType::ghost) continue;
      ++ghosts;
      const GhostCell &g = mine.ghosts[mine.ghost_of[c]], &h = all.ghosts[all.ghost_of[w]];
      EXPECT_EQ(g.boundary_point, h.boundary_point);
      for (const auto& [a, b] : {std::pair{&g.dirichlet, &h.dirichlet}, std::pair{&g.neumann, &h.neumann}}) {
        ASSERT_EQ(a->cells.size(), b->cells.size());
        for (std::size_t k = 0; k < a->cells.size(); ++k) {
          EXPECT_EQ(whole_cell(p, a->cells[k]), b->cells[k]);
          EXPECT_EQ(a->weights[k], b->weights[k]);
        }
        EXPECT_EQ(a->boundary_weight, b->boundary_weight);
      }
    }
  }
  EXPECT_EQ(ghosts, std::size_t(std::count(all.types.begin(), all.types.end(), CellType::ghost)));
}

// Eq. 5's and Eq. 6's rows (Dirichlet and Neumann body conditions, an outflow box side).
TEST(IbGridPiece, OwnedRowsOfBothSystemsAreTheWholeGridsRows) {
  const CartesianGrid whole = whole_grid();
  const Sphere sphere({0.05, -0.02, 0.03}, 0.5);
  const BoxConditions box{FaceKind::dirichlet, FaceKind::neumann, FaceKind::dirichlet,
                          FaceKind::dirichlet, FaceKind::neumann, FaceKind::dirichlet};
  const GhostCells all = build_ghost_cells(whole, sphere);
  const SystemPattern wp = make_system_pattern(whole, all);
  for (const BodyCondition body : {BodyCondition::dirichlet, BodyCondition::neumann}) {
    const double alpha = body == BodyCondition::dirichlet ? 1.0 : 0.0, beta = alpha ? 0.004 : 1.0;
    BsrMatrix wa = wp.matrix;
    assemble_system(whole, all, wp, box, body, alpha, beta, wa);
    index_t rows = 0;
    for (const CartesianGrid& p : pieces(whole, 3)) {
      const GhostCells mine = build_ghost_cells(p, sphere);
      const SystemPattern pp = make_system_pattern(p, mine);
      BsrMatrix a = pp.matrix;
      assemble_system(p, mine, pp, box, body, alpha, beta, a);
      ASSERT_EQ(a.block_cols, wa.block_cols);
      for (index_t r = 0; r < a.block_rows; ++r, ++rows) {
        const index_t w = whole_cell(p, p.owned_cell_begin() + r);
        const std::vector<index_t> cols(a.col_idx.begin() + a.row_ptr[r], a.col_idx.begin() + a.row_ptr[r + 1]);
        const std::vector<index_t> wcols(wa.col_idx.begin() + wa.row_ptr[w], wa.col_idx.begin() + wa.row_ptr[w + 1]);
        ASSERT_EQ(cols, wcols) << "row " << w;
        for (index_t e = 0; e < index_t(cols.size()); ++e)
          ASSERT_EQ(a.values[a.row_ptr[r] + e], wa.values[wa.row_ptr[w] + e]) << "row " << w;
      }
    }
    EXPECT_EQ(rows, whole.num_cells());
  }
}

// The explicit Laplacian of the predictor's right-hand side, and the box
// values, on the owned cells from the piece's copy of a field.
TEST(IbGridPiece, LaplacianAndBoxValuesOfOwnedCellsAreTheWholeGrids) {
  const CartesianGrid whole = whole_grid();
  const Sphere sphere({0.05, -0.02, 0.03}, 0.5);
  const BoxConditions box{FaceKind::dirichlet, FaceKind::neumann,   FaceKind::dirichlet,
                          FaceKind::dirichlet, FaceKind::dirichlet, FaceKind::dirichlet};
  const FaceValue value = [](int side, const Vec3& x) { return 0.1 * side + x[0] * x[2]; };
  const GhostCells all = build_ghost_cells(whole, sphere);
  std::vector<double> phi(std::size_t(whole.num_cells())), lap(phi.size()), rhs(phi.size(), 0.0);
  for (std::size_t c = 0; c < phi.size(); ++c) phi[c] = std::sin(0.37 * double(c));
  apply_laplacian(whole, all, box, value, phi, lap);
  add_box_values(whole, all, box, 0.3, value, rhs);
  for (const CartesianGrid& p : pieces(whole, 2)) {
    const GhostCells mine = build_ghost_cells(p, sphere);
    const auto first = std::ptrdiff_t(p.global_index(0));
    std::vector<double> local(phi.begin() + first, phi.begin() + first + p.num_cells()), out(local.size()),
        b(local.size(), 0.0);
    apply_laplacian(p, mine, box, value, local, out);
    add_box_values(p, mine, box, 0.3, value, b);
    for (index_t c = p.owned_cell_begin(); c < p.owned_cell_end(); ++c) {
      ASSERT_EQ(out[c], lap[whole_cell(p, c)]) << "cell " << whole_cell(p, c);
      ASSERT_EQ(b[c], rhs[whole_cell(p, c)]) << "cell " << whole_cell(p, c);
    }
  }
}

}  // namespace
}  // namespace tb::test
