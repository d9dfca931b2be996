// A slab of the grid as one rank of a decomposed run holds it (docs/distributed.md): its
// geometry is the whole grid's to the bit, its interface sides are the ones
// between ranks, only the rank owning cell 0 pins the pressure, and with the
// whole grid's fields on its cells (what the ghost exchange delivers) its owned
// rows of the momentum and Poisson systems, the Rhie-Chow faces and the Poisson
// right-hand side equal the whole grid's row for row, bit for bit.
#include <gtest/gtest.h>

#include <cmath>

#include "flow_fixtures.hpp"
#include "mesh/structured/slab.hpp"
#include "physics/incompressible/momentum.hpp"
#include "physics/incompressible/pressure.hpp"

namespace tb::test {
namespace {

FvGrid piece_of(const FvGrid& whole, const Slab& s) {
  return FvGrid::piece(whole, s.first_held(), s.held(), s.planes_below, s.planes_below + s.planes);
}

TEST(GridPiece, GeometryIsTheWholeGridsToTheBit) {
  const FvGrid whole(axis(5, 2.0), axis(11, 1.0, 1.3), axis(1));
  const std::vector<Slab> slabs = decompose_slabs(whole.shape(), 3, 2);
  for (const Slab& s : slabs) {
    const FvGrid g = piece_of(whole, s);
    const index_t first = s.first_held();
    ASSERT_EQ(g.cells(1), s.size() / s.plane_size);
    for (index_t j = 0; j < g.cells(1); ++j) {
      EXPECT_EQ(g.axis(1).widths[j], whole.axis(1).widths[first + j]);
      EXPECT_EQ(g.axis(1).centres[j], whole.axis(1).centres[first + j]);
      if (j + 1 < g.cells(1)) {
        EXPECT_EQ(g.axis(1).spacing[j], whole.axis(1).spacing[first + j]);
        EXPECT_EQ(g.axis(1).weight[j], whole.axis(1).weight[first + j]);
      }
    }
    EXPECT_EQ(g.extent(1), whole.extent(1));
    EXPECT_EQ(g.owned_cell_end() - g.owned_cell_begin(), s.owned());
    EXPECT_EQ(g.is_interface(side_of(1, -1)), s.rank > 0);
    EXPECT_EQ(g.is_interface(side_of(1, 1)), s.rank < 2);
    EXPECT_FALSE(g.is_interface(side_of(0, 1)));
    EXPECT_EQ(g.pressure_pin(), s.rank == 0 ? 0 : -1);
  }
  EXPECT_EQ(whole.pressure_pin(), 0);
  EXPECT_FALSE(whole.is_piece());
  // A slab axis that wraps around cannot be cut into slabs.
  const FvGrid periodic(axis(4), axis(4), axis(6), {false, false, true});
  EXPECT_THROW(FvGrid::piece(periodic, 0, 4, 0, 2), Error);
}

// A smooth field with structure in every direction, the same on any grid.
double field(double x, double y, int component) { return std::sin(1.0 + x + 2.0 * component) * std::cos(3.0 * y); }

TEST(GridPiece, OwnedRowsEqualTheWholeGridsRows) {
  // The channel: parabolic inflow across the slab axis, convective outflow,
  // walls; stretched in y so every plane's weights differ.
  const FvGrid whole(axis(6, 3.0), axis(10, 1.0, 1.5), axis(1));
  const int n = whole.dim();
  const double nu = 0.02, dt = 0.05;
  std::vector<double> u(std::size_t(whole.num_cells() * n)), p(std::size_t(whole.num_cells()));
  for (index_t cell = 0; cell < whole.num_cells(); ++cell) {
    const auto c = whole.ijk(cell);
    const double x = whole.axis(0).centres[c[0]], y = whole.axis(1).centres[c[1]];
    for (int e = 0; e < n; ++e) u[std::size_t(n * cell + e)] = field(x, y, e);
    p[std::size_t(cell)] = field(y, x, 2);
  }
  struct Assembled {
    StencilPattern momentum, poisson;
    std::vector<double> grad_p, rhs_m, rhs_p;
    FaceVelocities faces;
  };
  const auto assemble = [&](const FvGrid& g, const Boundaries& b, std::span<const double> ug,
                            std::span<const double> pg) {
    Assembled a{make_stencil_pattern(g, n), make_stencil_pattern(g, 1), {}, {}, {}, FaceVelocities(g)};
    a.grad_p.assign(ug.size(), 0.0), a.rhs_m.assign(ug.size(), 0.0), a.rhs_p.assign(pg.size(), 0.0);
    pressure_gradient(g, pg, a.grad_p);
    assemble_momentum(g, b, a.momentum, {ug, a.grad_p, nu, dt, {}}, a.momentum.matrix, a.rhs_m, nullptr,
                      &a.momentum.off_rank);
    assemble_poisson(g, a.poisson, a.poisson.matrix, &a.poisson.off_rank);
    rhie_chow_velocities(g, b, ug, pg, a.grad_p, dt, a.faces);
    poisson_rhs(g, a.faces, dt, a.rhs_p);
    return a;
  };
  const Boundaries whole_b(whole, channel_sides());
  const Assembled all = assemble(whole, whole_b, u, p);

  for (const Slab& s : decompose_slabs(whole.shape(), 3, 2)) {
    SCOPED_TRACE("rank " + std::to_string(s.rank));
    const FvGrid g = piece_of(whole, s);
    const Boundaries b(g, channel_sides());
    const std::size_t off = std::size_t(s.global_begin());
    Assembled mine = assemble(g, b, std::span<const double>(u).subspan(off * n, std::size_t(s.size() * n)),
                              std::span<const double>(p).subspan(off, std::size_t(s.size())));
    index_t wrong = 0;
    // The owned rows only, split: owned columns numbered from the first owned
    // cell, the ghost planes' apart, named by their whole-grid rows.
    EXPECT_EQ(mine.momentum.matrix.block_rows, s.owned());
    EXPECT_EQ(mine.poisson.matrix.block_cols, s.owned());
    EXPECT_EQ(std::size_t(mine.poisson.off_rank.block_cols), mine.poisson.ghost_columns.size());
    EXPECT_EQ(mine.momentum.ghost_columns, mine.poisson.ghost_columns);
    EXPECT_GT(mine.momentum.off_rank.nnz_blocks(), 0);  // each of three slabs borders another
    // Whole-grid column of a split position (physics/split_rows.hpp).
    const auto whole_column = [&](const StencilPattern& p, index_t k) {
      return k >= 0 ? p.matrix.col_idx[std::size_t(k)] + g.owned_cell_begin() + index_t(off)
                    : p.ghost_columns[std::size_t(p.off_rank.col_idx[std::size_t(off_rank_block(k))])];
    };
    for (index_t local = g.owned_cell_begin(); local < g.owned_cell_end(); ++local) {
      const index_t cell = local + index_t(off);
      const auto c = g.ijk(local), cw = whole.ijk(cell);
      for (int e = 0; e < n; ++e)
        wrong += mine.rhs_m[std::size_t(n * local + e)] != all.rhs_m[std::size_t(n * cell + e)];
      wrong += mine.rhs_p[std::size_t(local)] != all.rhs_p[std::size_t(cell)];
      for (int slot = 0; slot < 7; ++slot) {
        const index_t km = mine.momentum.position[local][slot], kw = all.momentum.position[cell][slot];
        if ((km == no_block) != (kw == no_block)) {
          ++wrong;
          continue;
        }
        if (km == no_block) continue;
        const double* bm = block_at(mine.momentum.matrix, &mine.momentum.off_rank, km);
        for (index_t e = 0; e < n * n; ++e) wrong += bm[e] != all.momentum.matrix.block(kw)[e];
        const index_t kp = mine.poisson.position[local][slot];
        wrong += *block_at(mine.poisson.matrix, &mine.poisson.off_rank, kp) !=
                 all.poisson.matrix.values[std::size_t(all.poisson.position[cell][slot])];
        // Same column, in the whole grid's numbering.
        wrong += whole_column(mine.momentum, km) != all.momentum.matrix.col_idx[std::size_t(kw)];
        wrong += whole_column(mine.poisson, kp) != all.poisson.matrix.col_idx[std::size_t(kw)];
      }
      for (int d = 0; d < n; ++d)
        for (int side : {-1, 1})
          wrong +=
              mine.faces.normal[d][mine.faces.face(d, c, side)] != all.faces.normal[d][all.faces.face(d, cw, side)];
    }
    EXPECT_EQ(wrong, 0);
  }
}

}  // namespace
}  // namespace tb::test
