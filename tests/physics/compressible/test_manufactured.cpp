// Order of accuracy by the method of manufactured solutions (docs/compressible.md):
// the smooth fields of physics/compressible/manufactured.hpp on the unit square,
// the far field fed with the exact state, the cell sources by Gauss's theorem.
// The discrete steady solution's error against the exact cell-centroid values
// must fall at about second order over three nested meshes, for the Euler and
// the laminar Navier-Stokes equations, on smoothly distorted quadrilaterals and
// on triangles.
// The test prints its table of errors and observed orders.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <numbers>
#include <utility>

#include "compressible_fixtures.hpp"
#include "physics/compressible/manufactured.hpp"

namespace tb::test {
namespace {

// n x n cells on the unit square, the nodes moved by a smooth map (the same
// map on every level, so the meshes are nested up to curvature), all sides
// far field; quadrilaterals, or each split along a diagonal into triangles.
Mesh2D unit_square(index_t n, bool triangles) {
  Mesh2D m;
  const double pi = std::numbers::pi;
  for (index_t j = 0; j <= n; ++j)
    for (index_t i = 0; i <= n; ++i) {
      const double x = double(i) / double(n), y = double(j) / double(n);
      const double bump = 0.04 * std::sin(pi * x) * std::sin(pi * y);
      m.nodes.push_back({x + bump, y + 0.5 * bump});
    }
  auto node = [&](index_t i, index_t j) { return j * (n + 1) + i; };
  for (index_t j = 0; j < n; ++j)
    for (index_t i = 0; i < n; ++i) {
      const index_t a = node(i, j), b = node(i + 1, j), c = node(i + 1, j + 1), d = node(i, j + 1);
      if (triangles) {
        m.add_cell({a, b, c});
        m.add_cell({a, c, d});
      } else {
        m.add_cell({a, b, c, d});
      }
    }
  const index_t far = m.marker_index("farfield");
  for (index_t k = 0; k < n; ++k) {
    m.boundary_edges.push_back({{node(k, 0), node(k + 1, 0)}, far});
    m.boundary_edges.push_back({{node(k + 1, n), node(k, n)}, far});
    m.boundary_edges.push_back({{node(0, k + 1), node(0, k)}, far});
    m.boundary_edges.push_back({{node(n, k), node(n, k + 1)}, far});
  }
  build_faces(m);
  return m;
}

// The L2 (area-weighted RMS) error of density and of pressure at the centroids.
struct MmsError {
  double rho = 0.0, p = 0.0;
};

MmsError solve_manufactured(index_t n, bool triangles, double mu, int order, GradientStencil stencil,
                            double low_mach_floor) {
  const Mesh2D mesh = unit_square(n, triangles);
  EulerSettings settings;
  settings.flux = FluxScheme::Roe;
  settings.gradient_stencil = stencil;
  settings.viscous.mu_inf = mu;
  settings.roe.low_mach_floor = low_mach_floor;
  const ManufacturedSolution mms(settings.gas, settings.viscous);
  BoundaryMap map;
  map.far_field = {"farfield"};
  EulerDiscretisation disc(mesh, boundary_kinds_by_marker(mesh, map), settings);
  disc.set_manufactured(&mms);
  std::vector<State> w0(std::size_t(mesh.num_cells()));
  for (index_t c = 0; c < mesh.num_cells(); ++c)
    w0[std::size_t(c)] = mms.conserved(disc.geometry().cell_centroid[std::size_t(c)]);
  PseudoTimeSettings pt;
  pt.rel_tol = 1e-9;
  pt.order = order;
  PseudoTimeSolver solver(disc, w0, pt);
  JacobianSolver linear("gmres(restart=60,rtol=1e-4,maxit=300)+bilu0");
  const LinearSolve solve = linear.function();
  while (!solver.converged() && solver.steps() < 400) step(solver, solve);
  EXPECT_TRUE(solver.converged()) << n << " cells per side: not converged in 400 steps";
  MmsError e;
  double area = 0.0;
  for (index_t c = 0; c < mesh.num_cells(); ++c) {
    const double a = disc.geometry().cell_area[std::size_t(c)];
    const Primitive exact = mms.primitive(disc.geometry().cell_centroid[std::size_t(c)]);
    const Primitive q = settings.gas.primitive(solver.state()[std::size_t(c)]);
    e.rho += a * (q.rho - exact.rho) * (q.rho - exact.rho);
    e.p += a * (q.p - exact.p) * (q.p - exact.p);
    area += a;
  }
  e.rho = std::sqrt(e.rho / area), e.p = std::sqrt(e.p / area);
  return e;
}

// The observed orders of density and pressure on the finest pair of meshes.
std::pair<double, double> observed_order(bool triangles, double mu, int order,
                                         GradientStencil stencil = GradientStencil::Faces,
                                         double low_mach_floor = 1.0) {
  const index_t sizes[3] = {16, 32, 64};
  MmsError e[3];
  for (int l = 0; l < 3; ++l) e[l] = solve_manufactured(sizes[l], triangles, mu, order, stencil, low_mach_floor);
  for (int l = 0; l < 3; ++l)
    std::printf("  order-%d scheme, %s, %s stencil, mu %.3g, %3d cells per side: L2 error rho %.3e  p %.3e\n", order,
                triangles ? "triangles" : "quadrilaterals", stencil == GradientStencil::Faces ? "face" : "node", mu,
                int(sizes[l]), e[l].rho, e[l].p);
  for (int l = 1; l < 3; ++l) {
    const double order_rho = std::log2(e[l - 1].rho / e[l].rho), order_p = std::log2(e[l - 1].p / e[l].p);
    std::printf("    observed order %d -> %d: rho %.2f  p %.2f\n", int(sizes[l - 1]), int(sizes[l]), order_rho,
                order_p);
  }
  return {std::log2(e[1].rho / e[2].rho), std::log2(e[1].p / e[2].p)};
}

void expect_second_order(bool triangles, double mu, GradientStencil stencil = GradientStencil::Faces,
                         double low_mach_floor = 1.0) {
  const auto [rho, p] = observed_order(triangles, mu, 2, stencil, low_mach_floor);
  EXPECT_GT(rho, 1.8);
  EXPECT_GT(p, 1.8);
}

TEST(ManufacturedSolution, SourcesSumToTheBoundaryFlux) {
  // Interior edges are integrated once from each side with opposite normals, so
  // the sources of all cells add up to the flux through the outer boundary.
  const ManufacturedSolution mms(Gas{}, Viscosity{});
  const Mesh2D mesh = unit_square(4, false);
  const std::vector<State> s = manufactured_sources(mesh, mms);
  // The fields are not constant: the sources are not all zero ...
  double largest = 0.0;
  for (const State& c : s) largest = std::max(largest, std::abs(c[0]));
  EXPECT_GT(largest, 1e-3);
  // ... and their sum is the flux through the outer boundary alone.
  State total{}, boundary{};
  for (const State& c : s)
    for (int k = 0; k < num_vars; ++k) total[k] += c[k];
  for (const BoundaryEdge& e : mesh.boundary_edges) {
    const State f = mms.edge_integral(mesh.nodes[std::size_t(e.nodes[0])], mesh.nodes[std::size_t(e.nodes[1])]);
    for (int k = 0; k < num_vars; ++k) boundary[k] += f[k];
  }
  for (int k = 0; k < num_vars; ++k) EXPECT_NEAR(total[k], boundary[k], 1e-12) << "equation " << k;
}

TEST(ManufacturedSolution, GradientMatchesFiniteDifferences) {
  const ManufacturedSolution mms(Gas{}, Viscosity{});
  const Vec2 x{0.37, 0.61};
  const double h = 1e-6;
  const PrimitiveGradient g = mms.gradient(x);
  const Primitive px = mms.primitive({x.x + h, x.y}), mx = mms.primitive({x.x - h, x.y});
  const Primitive py = mms.primitive({x.x, x.y + h}), my = mms.primitive({x.x, x.y - h});
  const double fd[8] = {(px.rho - mx.rho) / (2 * h), (py.rho - my.rho) / (2 * h), (px.u - mx.u) / (2 * h),
                        (py.u - my.u) / (2 * h),     (px.v - mx.v) / (2 * h),     (py.v - my.v) / (2 * h),
                        (px.p - mx.p) / (2 * h),     (py.p - my.p) / (2 * h)};
  for (int k = 0; k < 8; ++k) EXPECT_NEAR(g[k], fd[k], 1e-8) << "component " << k;
}

TEST(ManufacturedSolution, EulerIsSecondOrderOnDistortedQuadrilaterals) { expect_second_order(false, 0.0); }

TEST(ManufacturedSolution, EulerIsSecondOrderOnTriangles) { expect_second_order(true, 0.0); }

TEST(ManufacturedSolution, NavierStokesIsSecondOrderOnDistortedQuadrilaterals) { expect_second_order(false, 0.01); }

// tb-comp2d's default stencil (docs/compressible.md): the triangles' gradients read the cells at their corners.
TEST(ManufacturedSolution, EulerIsSecondOrderOnTrianglesWithNodeStencils) {
  expect_second_order(true, 0.0, GradientStencil::TriangleNodes);
}

TEST(ManufacturedSolution, NavierStokesIsSecondOrderOnTrianglesWithNodeStencils) {
  expect_second_order(true, 0.01, GradientStencil::TriangleNodes);
}

// Rieper's low-Mach fix (scheme.low_mach_fix = rieper) at the NACA 0012's floor,
// 0.5 x M 0.5: the fields here run at M ~ 0.5, so the fix acts where they slow.
TEST(ManufacturedSolution, NavierStokesIsSecondOrderWithTheLowMachFix) {
  expect_second_order(true, 0.01, GradientStencil::TriangleNodes, 0.25);
}

// The check tells the orders apart: the first-order scheme on the same meshes
// converges at first order.
TEST(ManufacturedSolution, FirstOrderSchemeIsFirstOrder) {
  const auto [rho, p] = observed_order(false, 0.0, 1);
  EXPECT_GT(rho, 0.8);
  EXPECT_LT(rho, 1.3);
  EXPECT_LT(p, 1.3);
}

}  // namespace
}  // namespace tb::test
