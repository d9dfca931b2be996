// The laminar viscous terms: the thin-layer Jacobians (interior and no-slip
// wall, adiabatic and isothermal) against central differences with mu frozen,
// the wall ghost states, Sutherland's law, and exact constant stress for a
// linear shear flow on a distorted mesh (interior faces cancel).
#include <gtest/gtest.h>

#include <cmath>

#include "compressible_fixtures.hpp"
#include "finite_difference.hpp"

namespace tb::test {
namespace {

void expect_near_block(const Block& analytic, const Block& fd, const char* what) {
  double scale = 0.0;
  for (double x : fd) scale = std::max(scale, std::abs(x));
  for (int k = 0; k < num_vars * num_vars; ++k)
    EXPECT_NEAR(analytic[k], fd[k], 1e-6 * (1.0 + scale)) << what << ", entry " << k;
}

Viscosity viscosity() {
  Viscosity v;
  v.mu_inf = 0.5 / 5000.0;
  return v;
}

TEST(Viscous, SutherlandIsOneAtTheFreeStreamAndGrowsWithTemperature) {
  const Viscosity v = viscosity();
  EXPECT_DOUBLE_EQ(v.mu(1.0), v.mu_inf);
  // Sutherland with S = 110.4 K, T_inf = 288.15 K, by hand: 2^1.5 * 398.55 / 686.7.
  EXPECT_NEAR(v.mu(2.0) / v.mu(1.0), 1.64158, 1e-4);
}

// flow.viscosity = constant: mu_inf at every temperature (the high-order
// workshop's NACA 0012 at Re 5000 prescribes it).
TEST(Viscous, AConstantViscosityIgnoresTheTemperature) {
  Viscosity v = viscosity();
  v.constant = true;
  for (double t : {0.5, 1.0, 1.05, 2.0}) EXPECT_EQ(v.mu(t), v.mu_inf) << "T = " << t;
}

TEST(Viscous, ThinLayerJacobiansMatchFiniteDifferences) {
  const Gas gas;
  const Viscosity v = viscosity();
  const State l = gas.conserved({1.1, 0.3, -0.2, 0.75}), r = gas.conserved({0.95, 0.45, 0.1, 0.7});
  const double nx = 0.6, ny = 0.8, dist = 0.03, mu = v.mu(1.05);
  const FluxJacobians j = thin_layer_jacobians(v, gas, l, r, nx, ny, dist, mu);
  expect_near_block(
      j.left, finite_difference(l, [&](const State& x) { return thin_layer_flux(v, gas, x, r, nx, ny, dist, mu); }),
      "left");
  expect_near_block(
      j.right, finite_difference(r, [&](const State& x) { return thin_layer_flux(v, gas, l, x, nx, ny, dist, mu); }),
      "right");
}

TEST(Viscous, WallGhostsAndWallJacobiansMatchFiniteDifferences) {
  const Mesh2D mesh = distorted(cylinder_mesh(), 31);
  EulerSettings s = settings_at(0.5, 0.0);
  s.viscous = viscosity();
  s.wall_temperature = 1.2;
  for (const char* kind_name : {"noslip", "isothermal"}) {
    BoundaryMap map;
    map.far_field = {"farfield"};
    (std::string(kind_name) == "noslip" ? map.no_slip_adiabatic : map.no_slip_isothermal) = {"cylinder"};
    EulerDiscretisation disc(mesh, boundary_kinds_by_marker(mesh, map), s);
    std::vector<State> w = perturbed_free_stream(s, mesh.num_cells(), 0.1, 5);
    index_t face = -1;
    for (index_t f = mesh.num_interior_faces; f < mesh.num_faces() && face < 0; ++f)
      if (is_no_slip(disc.boundary_kind(f))) face = f;
    ASSERT_GE(face, 0);
    const BoundaryKind kind = disc.boundary_kind(face);
    const index_t cell = mesh.faces[std::size_t(face)].left;
    const State u0 = w[std::size_t(cell)];
    // The ghost: zero velocity and T_wall (or T) halfway.
    const State g = disc.wall_ghost(kind, u0);
    EXPECT_NEAR(g[1] + u0[1], 0.0, 1e-15);
    const double t0 = s.viscous.temperature(s.gas, u0), tg = s.viscous.temperature(s.gas, g);
    EXPECT_NEAR(0.5 * (t0 + tg), kind == BoundaryKind::NoSlipIsothermal ? 1.2 : t0, 1e-14);
    expect_near_block(disc.wall_ghost_jacobian(kind, u0),
                      finite_difference(u0, [&](const State& x) { return disc.wall_ghost(kind, x); }), kind_name);
    // The wall flux's Jacobian, mu frozen at the base state as in the residual's linearisation.
    const Vec2 n = disc.geometry().face_normal[std::size_t(face)];
    const double mu0 = s.viscous.mu(t0);
    expect_near_block(disc.wall_viscous_jacobian(w, face),
                      finite_difference(u0,
                                        [&](const State& x) {
                                          return thin_layer_flux(s.viscous, s.gas, x, disc.wall_ghost(kind, x), n.x,
                                                                 n.y, disc.face_distance(face), mu0);
                                        }),
                      kind_name);
    EXPECT_EQ(disc.wall_viscous_flux(w, face)[0], 0.0);
  }
}

TEST(Viscous, LinearShearGivesConstantStressThatCancelsInside) {
  // u = 0.3 + 0.02 y, v = -0.01 x, rho and p uniform: tau is constant, so the
  // viscous mass and momentum residuals of cells with exact gradients vanish.
  const Mesh2D mesh = distorted(cylinder_mesh(), 13);
  EulerSettings s = settings_at(0.3, 0.0);
  EulerDiscretisation inviscid(mesh, cylinder_boundaries(mesh, true), s);
  s.viscous = viscosity();
  s.viscous.mu_inf = 0.1;  // large, so the viscous part dominates round-off
  EulerDiscretisation viscous(mesh, cylinder_boundaries(mesh, true), s);
  std::vector<State> w(std::size_t(mesh.num_cells()));
  for (std::size_t c = 0; c < w.size(); ++c) {
    const Vec2 x = inviscid.geometry().cell_centroid[c];
    w[c] = s.gas.conserved({1.0, 0.3 + 0.02 * x.y, -0.01 * x.x, 1.0 / 1.4});
  }
  std::vector<State> ri, rv;
  inviscid.residual(w, 1, ri);
  viscous.residual(w, 1, rv);
  // Cells away from the boundary (their neighbours' gradients are exact too).
  std::vector<bool> near_boundary(w.size(), false);
  for (index_t f = mesh.num_interior_faces; f < mesh.num_faces(); ++f)
    near_boundary[std::size_t(mesh.faces[std::size_t(f)].left)] = true;
  int checked = 0;
  double largest_stress_flux = 0.0;
  for (index_t f = 0; f < mesh.num_interior_faces; ++f) {
    const Face& face = mesh.faces[std::size_t(f)];
    for (index_t c : {face.left, face.right})
      if (near_boundary[std::size_t(face.left)] || near_boundary[std::size_t(face.right)])
        near_boundary[std::size_t(c)] = true;
  }
  for (std::size_t c = 0; c < w.size(); ++c) {
    if (near_boundary[c]) continue;
    ++checked;
    for (int k = 0; k < 3; ++k) {
      const double d = rv[c][k] - ri[c][k];
      ASSERT_NEAR(d, 0.0, 1e-13) << "cell " << c << " equation " << k;
    }
    largest_stress_flux = std::max(largest_stress_flux, std::abs(rv[c][3] - ri[c][3]));
  }
  EXPECT_GT(checked, 3000);
  EXPECT_GT(largest_stress_flux, 0.0);  // viscous heating: tau : grad u != 0
}

}  // namespace
}  // namespace tb::test
