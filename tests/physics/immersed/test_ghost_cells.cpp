// The ghost-cell rows (Mittal 2008 Eq. 12) are exact for linear fields, the
// image-point interpolation for trilinear ones, and the cell types agree with the
// body's own inside test.
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

double linear(const Vec3& x) { return 0.3 + 1.1 * x[0] - 0.7 * x[1] + 0.45 * x[2]; }
const Vec3 linear_gradient{1.1, -0.7, 0.45};
double trilinear(const Vec3& x) { return linear(x) + 0.8 * x[0] * x[1] - 0.3 * x[1] * x[2] + 0.5 * x[0] * x[1] * x[2]; }

void expect_exact_rows(const CartesianGrid& grid, const Body& body) {
  const GhostCells ib = build_ghost_cells(grid, body);
  ASSERT_GT(ib.ghosts.size(), 20u);
  int replaced = 0;
  for (const GhostCell& g : ib.ghosts) {
    const double phi_g = linear(grid.centre(grid.ijk(g.cell)));
    double d = phi_g - dirichlet_ghost_rhs(g, linear(g.boundary_point));
    double n = phi_g - neumann_ghost_rhs(g, dot(g.normal, linear_gradient));
    double ip = g.dirichlet.boundary_weight * trilinear(g.boundary_point);
    for (int k = 0; k < 8; ++k) {
      if (g.dirichlet.nodes[k] < 0) {
        ++replaced;
        continue;
      }
      const Vec3 x = grid.centre(grid.ijk(g.dirichlet.nodes[k]));
      d += g.dirichlet.weights[k] * linear(x);
      n -= g.neumann.weights[k] * linear(x);
      ip += g.dirichlet.weights[k] * trilinear(x);
      EXPECT_NE(ib.types[g.dirichlet.nodes[k]], CellType::solid) << "a stencil reads a solid cell";
    }
    EXPECT_NEAR(d, 0.0, 1e-11) << "Dirichlet row of cell " << g.cell;
    EXPECT_NEAR(n, 0.0, 1e-11) << "Neumann row of cell " << g.cell;
    EXPECT_NEAR(ip, trilinear(g.image_point), 1e-11) << "trilinear interpolation at the image point of " << g.cell;
  }
  EXPECT_GT(replaced, 0) << "no stencil contained its own ghost cell: the replacement by B went untested";
}

TEST(GhostCells, RowsAreExactForLinearFieldsOnASphere) {
  expect_exact_rows(stretched_grid(), Sphere({1.02, 0.97, 1.01}, 0.31));
}

TEST(GhostCells, RowsAreExactForLinearFieldsOnAnEllipsoid) {
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
