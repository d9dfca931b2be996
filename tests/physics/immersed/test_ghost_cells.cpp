// The ghost-cell rows (ghost_cells.hpp: the wall-constrained quadratic fit at
// the boundary intercept, evaluated at the ghost cell) are exact for quadratic
// fields, read fluid cells only, and the cell types agree with the body's own
// inside test.
#include <gtest/gtest.h>

#include "ib_fixtures.hpp"
#include "physics/immersed/ghost_cells.hpp"
#include "physics/immersed/scalar_system.hpp"

namespace tb::test {
namespace {

using namespace tb::immersed;

CartesianGrid stretched_grid() {
  return CartesianGrid({clustered_axis_nodes(0.0, 2.0, 0.6, 1.4, 0.07, 1.15),
                        clustered_axis_nodes(0.0, 2.0, 0.6, 1.4, 0.08, 1.1), uniform_nodes(0.0, 2.0, 24)});
}

double quadratic(const Vec3& x) {
  return 0.3 + 1.1 * x[0] - 0.7 * x[1] + 0.45 * x[2] + 0.8 * x[0] * x[1] - 0.3 * x[1] * x[2] + 0.4 * x[2] * x[0] +
         0.5 * x[0] * x[0] - 0.2 * x[2] * x[2] + 0.35 * x[1] * x[1];
}
Vec3 quadratic_gradient(const Vec3& x) {
  return {1.1 + 0.8 * x[1] + 0.4 * x[2] + 1.0 * x[0], -0.7 + 0.8 * x[0] - 0.3 * x[2] + 0.7 * x[1],
          0.45 - 0.3 * x[1] + 0.4 * x[0] - 0.4 * x[2]};
}
// The same with a cubic term: the rows are no longer exact, only close.
double cubic(const Vec3& x) { return quadratic(x) + 0.9 * x[0] * x[1] * x[2]; }

void expect_exact_rows(const CartesianGrid& grid, const Body& body) {
  const GhostCells ib = build_ghost_cells(grid, body);
  ASSERT_GT(ib.ghosts.size(), 20u);
  double cubic_error = 0.0;
  for (const GhostCell& g : ib.ghosts) {
    const Vec3 x = grid.centre(grid.ijk(g.cell));
    double d = quadratic(x) - dirichlet_ghost_rhs(g, quadratic(g.boundary_point));
    double n = quadratic(x) - neumann_ghost_rhs(g, dot(g.normal, quadratic_gradient(g.boundary_point)));
    double c = cubic(x) - dirichlet_ghost_rhs(g, cubic(g.boundary_point));
    ASSERT_GE(g.dirichlet.cells.size(), 12u);
    for (std::size_t k = 0; k < g.dirichlet.cells.size(); ++k) {
      const index_t cell = g.dirichlet.cells[k];
      EXPECT_EQ(ib.types[cell], CellType::fluid) << "a stencil reads a ghost or solid cell";
      d -= g.dirichlet.weights[k] * quadratic(grid.centre(grid.ijk(cell)));
      c -= g.dirichlet.weights[k] * cubic(grid.centre(grid.ijk(cell)));
    }
    for (std::size_t k = 0; k < g.neumann.cells.size(); ++k) {
      EXPECT_EQ(ib.types[g.neumann.cells[k]], CellType::fluid) << "a stencil reads a ghost or solid cell";
      n -= g.neumann.weights[k] * quadratic(grid.centre(grid.ijk(g.neumann.cells[k])));
    }
    EXPECT_NEAR(d, 0.0, 1e-11) << "Dirichlet row of cell " << g.cell;
    EXPECT_NEAR(n, 0.0, 1e-11) << "Neumann row of cell " << g.cell;
    cubic_error = std::max(cubic_error, std::abs(c));
  }
  // Not exact for a cubic (the test can fail), but close: O(h^3), h about 0.07.
  EXPECT_GT(cubic_error, 1e-8);
  EXPECT_LT(cubic_error, 2e-3);
}

TEST(GhostCells, RowsAreExactForQuadraticFieldsOnASphere) {
  expect_exact_rows(stretched_grid(), Sphere({1.02, 0.97, 1.01}, 0.31));
}

TEST(GhostCells, RowsAreExactForQuadraticFieldsOnAnEllipsoid) {
  expect_exact_rows(stretched_grid(), Ellipsoid({0.98, 1.03, 1.0}, {0.36, 0.25, 0.42}));
}

TEST(GhostCells, ClassificationAgreesWithTheInsideTest) {
  const CartesianGrid grid = stretched_grid();
  const Sphere sphere({1.02, 0.97, 1.01}, 0.31);
  const GhostCells ib = build_ghost_cells(grid, sphere);
  long fluid = 0, ghost = 0, solid = 0;
  for (index_t cell = 0; cell < grid.num_cells(); ++cell) {
    const auto c = grid.ijk(cell);
    const Vec3 x = grid.centre(c);
    const double r = norm(x - sphere.centre());
    ASSERT_EQ(ib.types[cell] == CellType::fluid, r >= 0.31) << "cell " << cell << " at distance " << r;
    if (ib.types[cell] == CellType::fluid) {
      ++fluid;
      for (int d = 0; d < 3; ++d)
        for (int s : {-1, 1}) {
          if (!has_neighbour(grid, c, d, s)) continue;
          EXPECT_NE(ib.types[cell + s * grid.stride(d)], CellType::solid)
              << "fluid cell " << cell << " touches a solid cell";
        }
    } else {
      (ib.types[cell] == CellType::ghost ? ghost : solid)++;
      EXPECT_EQ(ib.ghost_of[cell] >= 0, ib.types[cell] == CellType::ghost);
    }
  }
  EXPECT_GT(solid, 0);
  EXPECT_GT(ghost, 0);
  EXPECT_EQ(std::size_t(ghost), ib.ghosts.size());
}

TEST(CartesianGrid, ClusteredAxisHasTheCoreWidthAndEndsExactly) {
  const std::vector<double> x = clustered_axis_nodes(-2.0, 5.0, -0.6, 0.6, 0.05, 1.1);
  EXPECT_EQ(x.front(), -2.0);
  EXPECT_EQ(x.back(), 5.0);
  int core = 0;
  for (std::size_t i = 0; i + 1 < x.size(); ++i) {
    ASSERT_GT(x[i + 1], x[i]);
    if (x[i] >= -0.6 - 1e-12 && x[i + 1] <= 0.6 + 1e-12) {
      EXPECT_NEAR(x[i + 1] - x[i], 0.05, 1e-12);
      ++core;
    }
  }
  EXPECT_EQ(core, 24);
  EXPECT_THROW(clustered_axis_nodes(0.0, 1.0, 0.5, 1.5, 0.1, 1.1), Error);
}

}  // namespace
}  // namespace tb::test
