// Poisson (Eq. 6-7) with a manufactured solution on a box holding an immersed
// sphere: the max-norm error over fluid cells falls at about second order
// under refinement with Dirichlet and with Neumann ghost rows (the
// wall-constrained quadratic of ghost_cells.hpp). With Mittal's trilinear image
// point the Neumann rows converged at first order (4.64e-3, 2.40e-3, 1.23e-3 on
// 12^3, 24^3, 48^3): its O(h^2) interpolation error was divided by |IP - G|.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "ib_fixtures.hpp"
#include "physics/immersed/manufactured_poisson.hpp"

namespace tb::test {
namespace {

using namespace tb::immersed;

double mms_error(index_t cells, BodyCondition body) {
  const CartesianGrid grid(
      {uniform_nodes(0.0, 1.0, cells), uniform_nodes(0.0, 1.0, cells), uniform_nodes(0.0, 1.0, cells)});
  const GhostCells ib = build_ghost_cells(grid, Sphere({0.52, 0.49, 0.505}, 0.23));
  RegistrySolve solver;
  const tb::systems::SystemId pressure = solver.declare(tb::systems::SystemDeclaration::named("pressure"));
  const PoissonResult r = solve_manufactured_poisson(grid, ib, body, solver, pressure);
  EXPECT_TRUE(r.stats.converged()) << r.stats.line();
  return r.max_error;
}

void expect_order(BodyCondition body, const char* name, double order) {
  const double e1 = mms_error(12, body), e2 = mms_error(24, body), e3 = mms_error(48, body);
  const double p1 = std::log2(e1 / e2), p2 = std::log2(e2 / e3);
  std::printf("%s sphere: max error 12^3 %.3e, 24^3 %.3e, 48^3 %.3e; orders %.2f %.2f\n", name, e1, e2, e3, p1, p2);
  EXPECT_GT(p1 + p2, 2.0 * (order - 0.15));
  EXPECT_GT(std::min(p1, p2), order - 0.4);
}

TEST(PoissonMms, DirichletSphereConvergesAtSecondOrder) { expect_order(BodyCondition::dirichlet, "Dirichlet", 2.0); }

TEST(PoissonMms, NeumannSphereConvergesAtSecondOrder) { expect_order(BodyCondition::neumann, "Neumann", 2.0); }

}  // namespace
}  // namespace tb::test
