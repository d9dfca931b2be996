// Periodic directions: the wrap-around couplings (sorted columns, still one
// block per neighbour), the Newton Jacobian across the wrap, and a
// force-driven periodic channel converging to the Poiseuille parabola
// u = f/(2 nu) y (1 - y) at second order.
#include <gtest/gtest.h>

#include <cmath>

#include "flow_fixtures.hpp"
#include "physics/incompressible/momentum.hpp"

namespace tb::test {
namespace {

TEST(Periodic, PatternWrapsAroundWithSortedColumns) {
  const FvGrid g(axis(4), axis(3), axis(3), {true, false, true});
  const StencilPattern p = make_stencil_pattern(g, 3);
  EXPECT_NO_THROW(p.matrix.validate());
  // Cell (0,0,0): x neighbours 1 and 3 (wrap), z neighbours 12 and 24 (wrap), y neighbour 4.
  EXPECT_EQ(p.matrix.row_ptr[1] - p.matrix.row_ptr[0], 6);
  EXPECT_GE(p.matrix.find_block(0, 3), 0);
  EXPECT_GE(p.matrix.find_block(0, 24), 0);
  EXPECT_EQ(p.matrix.col_idx[p.position[0][slot_of(0, -1)]], 3);
  EXPECT_THROW(FvGrid(axis(2), axis(3), axis(1), {true, false, false}), Error);
}

TEST(Periodic, BoundarySidesMustPairWithTheGrid) {
  const FvGrid g(axis(4), axis(3), axis(1), {true, false, false});
  auto sides = periodic_channel_sides();
  EXPECT_NO_THROW(Boundaries(g, sides));
  sides[1].kind = BoundaryKind::wall;
  EXPECT_THROW(Boundaries(g, sides), Error);
}

TEST(Periodic, JacobianAcrossTheWrapMatchesTheResidual) {
  const FvGrid g(axis(4, 2.0), axis(3, 1.0, 1.2), axis(3), {true, false, true});
  Boundaries b(g, periodic_channel_sides());
  StencilPattern pattern = make_stencil_pattern(g, 3);
  const std::size_t size = std::size_t(g.num_cells()) * 3;
  std::vector<double> u(size), grad_p(size, 0.0), dir(size), rp(size), rm(size), up(size), um(size), r0(size), ad(size);
  for (std::size_t i = 0; i < size; ++i) u[i] = std::sin(1.3 * double(i)), dir[i] = std::cos(0.7 * double(i));
  const double nu = 0.05, dt = 0.2, eps = 1e-3;
  BsrMatrix a = pattern.matrix, scratch = pattern.matrix;
  assemble_momentum(g, b, pattern, {u, grad_p, nu, dt, {0.1, 0.0, 0.0}}, a, r0);
  for (std::size_t i = 0; i < size; ++i) up[i] = u[i] + eps * dir[i], um[i] = u[i] - eps * dir[i];
  assemble_momentum(g, b, pattern, {up, grad_p, nu, dt, {0.1, 0.0, 0.0}}, scratch, rp);
  assemble_momentum(g, b, pattern, {um, grad_p, nu, dt, {0.1, 0.0, 0.0}}, scratch, rm);
  spmv(a, dir.data(), ad.data());
  double worst = 0.0, scale = 0.0;
  for (index_t cell = 0; cell < g.num_cells(); ++cell)
    for (int e = 0; e < 3; ++e) {
      const std::size_t i = std::size_t(cell) * 3 + e;
      const double dr = (rp[i] - rm[i]) / (2.0 * eps);
      worst = std::max(worst, std::abs(dr + 2.0 * (ad[i] - g.volume(g.ijk(cell)) / dt * dir[i])));
      scale = std::max(scale, std::abs(dr));
    }
  EXPECT_LT(worst, 1e-9 * scale);
}

double periodic_channel_error(index_t ny) {
  const double nu = 0.01, force = 12.0 * nu;  // mean velocity 1
  FractionalStep flow(FvGrid(axis(4), axis(ny, 1.0, 1.5), axis(1), {true, false, false}), periodic_channel_sides(),
                      {nu, 0.5, {force, 0.0, 0.0}});
  RegistrySolvers solvers;
  EXPECT_LT(march_to_steady(flow, solvers, 1e-8, 5000), 5000);
  const FvGrid& g = flow.grid();
  double worst = 0.0;
  for (index_t cell = 0; cell < g.num_cells(); ++cell) {
    const double y = g.axis(1).centres[g.ijk(cell)[1]];
    worst = std::max(worst, std::abs(flow.velocity()[2 * std::size_t(cell)] - 6.0 * y * (1.0 - y)));
    EXPECT_NEAR(flow.velocity()[2 * std::size_t(cell) + 1], 0.0, 1e-10);
  }
  return worst;
}

TEST(Periodic, ForceDrivenChannelConvergesAtSecondOrder) {
  const double coarse = periodic_channel_error(12), fine = periodic_channel_error(24);
  std::printf("periodic channel max error: ny=12 %.3e, ny=24 %.3e, order %.2f\n", coarse, fine,
              std::log2(coarse / fine));
  EXPECT_GT(std::log2(coarse / fine), 1.8);
  EXPECT_LT(fine, 1e-2);
}

}  // namespace
}  // namespace tb::test
