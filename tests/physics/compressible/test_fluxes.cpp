// Numerical fluxes and their Jacobians: consistency F(U, U, n) = F(U) . n for
// both fluxes, Roe's exact upwinding of supersonic states and exact resolution
// of a stationary contact, and the analytic Jacobians against central finite
// differences (physical flux; Roe, HLLC and Rusanov on both sides over every
// branch; far-field and wall faces with each flux).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "finite_difference.hpp"
#include "physics/compressible/boundary_conditions.hpp"
#include "physics/compressible/fluxes.hpp"
#include "solvers/core/error.hpp"

namespace tb::compressible {
namespace {

const Gas gas;

State state(double rho, double u, double v, double p) { return gas.conserved({rho, u, v, p}); }

struct Normal {
  double x, y;
};
const Normal normals[] = {{1.0, 0.0}, {0.6, 0.8}, {-0.28, 0.96}, {-0.8, -0.6}};

void expect_near_state(const State& a, const State& b, double tol) {
  for (int k = 0; k < num_vars; ++k) EXPECT_NEAR(a[k], b[k], tol * (1.0 + std::abs(b[k]))) << "component " << k;
}

TEST(CompressibleFlux, BothFluxesAreConsistent) {
  const State states[] = {state(1.0, 0.3, -0.1, 0.7), state(0.4, -1.5, 2.0, 0.2), state(2.5, 0.0, 0.0, 3.0)};
  for (const State& s : states)
    for (const Normal& n : normals) {
      const State exact = physical_flux(gas, s, n.x, n.y);
      expect_near_state(roe_flux(gas, s, s, n.x, n.y), exact, 1e-14);
      expect_near_state(hllc_flux(gas, s, s, n.x, n.y), exact, 1e-14);
      expect_near_state(rusanov_flux(gas, s, s, n.x, n.y), exact, 1e-14);
    }
}

TEST(CompressibleFlux, RoeUpwindsSupersonicFlowExactly) {
  // u . n > c on both sides: every wave leaves the left state, so F = F(U_L).
  const State l = state(1.0, 2.5, 0.1, 0.7), r = state(0.8, 2.2, -0.2, 0.6);
  expect_near_state(roe_flux(gas, l, r, 1.0, 0.0), physical_flux(gas, l, 1.0, 0.0), 1e-13);
  expect_near_state(roe_flux(gas, r, l, -1.0, 0.0), physical_flux(gas, l, -1.0, 0.0), 1e-13);
  expect_near_state(hllc_flux(gas, l, r, 1.0, 0.0), physical_flux(gas, l, 1.0, 0.0), 1e-13);
  expect_near_state(hllc_flux(gas, r, l, -1.0, 0.0), physical_flux(gas, l, -1.0, 0.0), 1e-13);
}

TEST(CompressibleFlux, RoeAndHllcResolveAStationaryContactRusanovSmearsIt) {
  // Density jump and tangential shear at rest normal to the face, equal pressure.
  const State l = state(1.0, -0.48, 0.36, 0.7), r = state(0.25, 0.4, -0.3, 0.7);
  const State exact = {0.0, 0.7 * 0.6, 0.7 * 0.8, 0.0};
  expect_near_state(roe_flux(gas, l, r, 0.6, 0.8), exact, 1e-14);
  expect_near_state(hllc_flux(gas, l, r, 0.6, 0.8), exact, 1e-14);
  EXPECT_GT(std::abs(rusanov_flux(gas, l, r, 0.6, 0.8)[0]), 0.1);
}

using test::finite_difference;

void expect_near_block(const Block& analytic, const Block& fd, const char* what) {
  for (int k = 0; k < num_vars * num_vars; ++k)
    EXPECT_NEAR(analytic[k], fd[k], 1e-6 * (1.0 + std::abs(fd[k]))) << what << ", entry " << k;
}

TEST(CompressibleFlux, PhysicalFluxJacobianMatchesFiniteDifferences) {
  const State s = state(1.2, 0.4, -0.3, 0.9);
  for (const Normal& n : normals)
    expect_near_block(physical_flux_jacobian(gas, s, n.x, n.y),
                      finite_difference(s, [&](const State& x) { return physical_flux(gas, x, n.x, n.y); }), "dF/dU");
}

TEST(CompressibleFlux, RusanovJacobiansMatchFiniteDifferencesOnBothSides) {
  // Pairs where the left, then the right state has the larger spectral radius,
  // with flow along and against the normal (the derivative of |u . n|).
  const std::pair<State, State> pairs[] = {{state(1.0, 0.5, 0.2, 1.0), state(0.9, 0.1, 0.0, 0.5)},
                                           {state(0.9, -0.1, 0.0, 0.5), state(1.0, -0.6, 0.3, 1.1)},
                                           {state(1.1, -0.7, 0.4, 0.8), state(1.0, 0.2, -0.1, 0.6)}};
  for (const auto& [l, r] : pairs)
    for (const Normal& n : normals) {
      const FluxJacobians j = rusanov_flux_jacobians(gas, l, r, n.x, n.y);
      expect_near_block(j.left, finite_difference(l, [&](const State& x) { return rusanov_flux(gas, x, r, n.x, n.y); }),
                        "dF/dU_L");
      expect_near_block(
          j.right, finite_difference(r, [&](const State& x) { return rusanov_flux(gas, l, x, n.x, n.y); }), "dF/dU_R");
    }
}

// State pairs that take every branch of Roe's and HLLC's fluxes: subsonic both
// ways (the HLLC star state on the left, then on the right), Harten's entropy fix
// active on the acoustic waves (|u.n -/+ c| < 0.1 (|u.n| + c), a sonic point),
// supersonic both ways (HLLC's F_L and F_R), strong jumps.
const std::pair<State, State> riemann_pairs[] = {
    {state(1.0, 0.5, 0.2, 1.0), state(0.9, 0.1, 0.0, 0.5)},
    {state(0.9, -0.1, 0.0, 0.5), state(1.0, -0.6, 0.3, 1.1)},
    {state(1.1, -0.7, 0.4, 0.8), state(1.0, 0.2, -0.1, 0.6)},
    {state(1.0, 1.17, 0.05, 1.0 / 1.4), state(1.02, 1.2, -0.03, 1.02 / 1.4)},  // u.n ~ c: entropy fix on u.n - c
    {state(1.0, -1.16, 0.1, 1.0 / 1.4), state(0.98, -1.21, 0.0, 0.97 / 1.4)},  // u.n ~ -c: on u.n + c
    {state(1.0, 2.5, 0.1, 0.7), state(0.8, 2.2, -0.2, 0.6)},
    {state(0.8, -2.2, -0.2, 0.6), state(1.0, -2.5, 0.1, 0.7)},
    {state(3.0, 0.3, -0.4, 4.0), state(0.3, -0.2, 0.5, 0.2)},
};

// The largest relative difference between an analytic block and its central
// difference, over the entries (scale 1 + |fd|).
double block_error(const Block& analytic, const Block& fd) {
  double e = 0.0;
  for (int k = 0; k < num_vars * num_vars; ++k)
    e = std::max(e, std::abs(analytic[k] - fd[k]) / (1.0 + std::abs(fd[k])));
  return e;
}

TEST(CompressibleFlux, RoeAndHllcJacobiansMatchFiniteDifferencesOnBothSides) {
  int entropy_fixed = 0, hllc_star_left = 0, hllc_star_right = 0, hllc_supersonic = 0;
  for (const auto& [l, r] : riemann_pairs)
    for (const Normal& n : normals) {
      const FluxJacobians roe = roe_flux_jacobians(gas, l, r, n.x, n.y);
      expect_near_block(roe.left, finite_difference(l, [&](const State& x) { return roe_flux(gas, x, r, n.x, n.y); }),
                        "Roe dF/dU_L");
      expect_near_block(roe.right, finite_difference(r, [&](const State& x) { return roe_flux(gas, l, x, n.x, n.y); }),
                        "Roe dF/dU_R");
      const FluxJacobians hllc = hllc_flux_jacobians(gas, l, r, n.x, n.y);
      expect_near_block(hllc.left, finite_difference(l, [&](const State& x) { return hllc_flux(gas, x, r, n.x, n.y); }),
                        "HLLC dF/dU_L");
      expect_near_block(hllc.right,
                        finite_difference(r, [&](const State& x) { return hllc_flux(gas, l, x, n.x, n.y); }),
                        "HLLC dF/dU_R");
      // Which branches these states take (the Roe average's u.n and c, the HLLC speeds).
      const Primitive pl = gas.primitive(l), pr = gas.primitive(r);
      const double sl = std::sqrt(pl.rho), sr = std::sqrt(pr.rho);
      const double u = (sl * pl.u + sr * pr.u) / (sl + sr), v = (sl * pl.v + sr * pr.v) / (sl + sr);
      const double h = (sl * (l[3] + pl.p) / pl.rho + sr * (r[3] + pr.p) / pr.rho) / (sl + sr);
      const double c = std::sqrt(0.4 * (h - 0.5 * (u * u + v * v))), un = u * n.x + v * n.y;
      if (std::abs(std::abs(un) - c) < 0.1 * (std::abs(un) + c)) ++entropy_fixed;
      const State f = hllc_flux(gas, l, r, n.x, n.y);
      if (f == physical_flux(gas, l, n.x, n.y) || f == physical_flux(gas, r, n.x, n.y))
        ++hllc_supersonic;
      else
        ++(f[0] >= 0.0 ? hllc_star_left : hllc_star_right);
    }
  EXPECT_GE(entropy_fixed, 4);
  EXPECT_GE(hllc_supersonic, 4);
  EXPECT_GE(hllc_star_left, 4);
  EXPECT_GE(hllc_star_right, 4);
}

// Rieper's low-Mach fix (RoeDissipation::low_mach_floor). With equal density
// and pressure on both sides the acoustic waves carry the normal-velocity jump
// alone, a1 = -a4 = -rho~ z du_n / (2 c~), and for |u~.n| < c~ the change of the
// normal momentum's flux from Roe's (z = 1) is
//   0.5 (1 - z) rho~ du_n (u~.n^2 + c~^2) / c~,
// z = min(1, max(M_L, M_R, floor)). Every other component changes in
// proportion to 1 - z as well.
TEST(CompressibleFlux, TheLowMachFixScalesTheNormalVelocityJumpByTheLocalMach) {
  const double p = 0.7, ul = 0.02, vl = 0.01, ur = -0.01, vr = 0.03;
  const State l = state(1.0, ul, vl, p), r = state(1.0, ur, vr, p);
  const double c = std::sqrt(1.4 * p), ml = std::hypot(ul, vl) / c, mr = std::hypot(ur, vr) / c;
  // Roe averages of equal densities: plain means.
  const double u = 0.5 * (ul + ur), v = 0.5 * (vl + vr);
  const double h = 3.5 * p + 0.25 * (ul * ul + vl * vl + ur * ur + vr * vr);
  const double c2 = 0.4 * (h - 0.5 * (u * u + v * v));
  const State plain = roe_flux(gas, l, r, 1.0, 0.0);
  for (double floor : {0.001, 0.01, 0.05, 0.5}) {
    const double z = std::min(1.0, std::max({ml, mr, floor}));
    const State fixed = roe_flux(gas, l, r, 1.0, 0.0, {0.1, false, floor});
    EXPECT_NEAR(fixed[1] - plain[1], 0.5 * (1.0 - z) * (ur - ul) * (u * u + c2) / std::sqrt(c2), 1e-15)
        << "floor " << floor;
  }
  EXPECT_LT(ml, 0.05);  // so that floors 0.05 and 0.5 set z
  const State at_05 = roe_flux(gas, l, r, 1.0, 0.0, {0.1, false, 0.05});
  const State at_5 = roe_flux(gas, l, r, 1.0, 0.0, {0.1, false, 0.5});
  for (int k = 0; k < num_vars; ++k)
    EXPECT_NEAR((at_05[k] - plain[k]) * 0.5, (at_5[k] - plain[k]) * 0.95, 1e-15) << "component " << k;
  // A pressure jump without a normal-velocity jump is not touched.
  const State dp_r = state(1.0, ul, vr, 0.72);
  EXPECT_EQ(roe_flux(gas, l, dp_r, 1.0, 0.0, {0.1, false, 0.05}), roe_flux(gas, l, dp_r, 1.0, 0.0));
  // Off (floor 1, the default) and above Mach 1 the flux is Roe's to the bit.
  EXPECT_EQ(roe_flux(gas, l, r, 1.0, 0.0, {0.1, false, 1.0}), plain);
  const State fast_l = state(1.0, 2.5, 0.1, 0.7), fast_r = state(0.8, 2.2, -0.2, 0.6);
  EXPECT_EQ(roe_flux(gas, fast_l, fast_r, 0.6, 0.8, {0.1, false, 0.05}), roe_flux(gas, fast_l, fast_r, 0.6, 0.8));
  // Consistent: no jump, no dissipation.
  expect_near_state(roe_flux(gas, l, l, 0.6, 0.8, {0.1, false, 0.05}), physical_flux(gas, l, 0.6, 0.8), 1e-14);
}

TEST(CompressibleFlux, LowMachRoeJacobiansMatchFiniteDifferences) {
  // Above the floor (z = the local Mach), at it (z constant) and at rest on one side.
  const std::pair<State, State> slow[] = {
      {state(1.0, 0.2, 0.1, 0.7), state(0.95, 0.15, -0.05, 0.68)},
      {state(1.0, 0.01, 0.0, 0.7), state(1.0, -0.01, 0.02, 0.71)},
      {state(1.0, 0.0, 0.0, 0.7), state(0.9, 0.3, 0.1, 0.6)},
  };
  for (const auto& [l, r] : slow)
    for (const Normal& n : normals) {
      const RoeDissipation fix{0.1, true, 0.05};
      const FluxJacobians j = roe_flux_jacobians(gas, l, r, n.x, n.y, fix);
      expect_near_block(j.left,
                        finite_difference(l, [&](const State& x) { return roe_flux(gas, x, r, n.x, n.y, fix); }),
                        "low-Mach Roe dF/dU_L");
      expect_near_block(j.right,
                        finite_difference(r, [&](const State& x) { return roe_flux(gas, l, x, n.x, n.y, fix); }),
                        "low-Mach Roe dF/dU_R");
    }
}

TEST(CompressibleFlux, RoeJacobianIsNotRusanovs) {
  // The check above tells the two apart: Rusanov's Jacobian is far from the
  // finite differences of Roe's flux at a subsonic face.
  const auto& [l, r] = riemann_pairs[0];
  const Block fd = finite_difference(l, [&](const State& x) { return roe_flux(gas, x, r, 0.6, 0.8); });
  EXPECT_LT(block_error(roe_flux_jacobians(gas, l, r, 0.6, 0.8).left, fd), 1e-7);
  EXPECT_GT(block_error(rusanov_flux_jacobians(gas, l, r, 0.6, 0.8).left, fd), 1e-2);
}

TEST(CompressibleFlux, FluxJacobiansDispatchOnTheScheme) {
  const auto& [l, r] = riemann_pairs[2];
  for (FluxScheme scheme : {FluxScheme::Roe, FluxScheme::Hllc, FluxScheme::Rusanov}) {
    const FluxJacobians j = flux_jacobians(scheme, gas, l, r, 0.6, 0.8);
    expect_near_block(j.left,
                      finite_difference(l, [&](const State& x) { return numerical_flux(scheme, gas, x, r, 0.6, 0.8); }),
                      "dF/dU_L");
    expect_near_block(j.right,
                      finite_difference(r, [&](const State& x) { return numerical_flux(scheme, gas, l, x, 0.6, 0.8); }),
                      "dF/dU_R");
  }
}

TEST(CompressibleFlux, BoundaryJacobiansMatchFiniteDifferences) {
  const State inner = state(1.05, 0.35, 0.1, 0.75), far = gas.free_stream(0.38, 0.0);
  for (FluxScheme scheme : {FluxScheme::Roe, FluxScheme::Hllc, FluxScheme::Rusanov})
    for (BoundaryKind kind : {BoundaryKind::FarField, BoundaryKind::SlipWall})
      for (WallFlux wall : {WallFlux::Mirror, WallFlux::Pressure})
        for (const Normal& n : normals)
          expect_near_block(
              boundary_flux_jacobian(kind, scheme, gas, inner, far, n.x, n.y, wall),
              finite_difference(
                  inner, [&](const State& x) { return boundary_flux(kind, scheme, gas, x, far, n.x, n.y, wall); }),
              kind == BoundaryKind::FarField ? "far field"
              : wall == WallFlux::Mirror     ? "slip wall, mirror"
                                             : "slip wall, pressure");
}

TEST(CompressibleFlux, SlipWallLetsNoMassOrEnergyThrough) {
  const State inner = state(1.05, 0.35, 0.1, 0.75);
  const State f =
      boundary_flux(BoundaryKind::SlipWall, FluxScheme::Roe, gas, inner, inner, 0.6, 0.8, WallFlux::Pressure);
  EXPECT_EQ(f[0], 0.0);
  EXPECT_EQ(f[3], 0.0);
  EXPECT_DOUBLE_EQ(f[1], 0.75 * 0.6);
}

// The mirror wall: no mass or energy for every scheme, a momentum flux along the
// normal; the inner pressure when the flow is tangential, more when it runs into
// the wall (u.n > 0) and less when it leaves it: the normal velocity is damped.
TEST(CompressibleFlux, MirrorWallDampsTheNormalVelocity) {
  const double nx = 0.6, ny = 0.8;
  for (FluxScheme scheme : {FluxScheme::Roe, FluxScheme::Hllc, FluxScheme::Rusanov})
    for (double un : {-0.2, 0.0, 0.3}) {
      // Tangent (-0.8, 0.6) times 0.4 plus un along n; rho 1.05, p 0.75.
      const State inner = state(1.05, -0.32 + un * nx, 0.24 + un * ny, 0.75);
      const State f = boundary_flux(BoundaryKind::SlipWall, scheme, gas, inner, inner, nx, ny, WallFlux::Mirror);
      EXPECT_EQ(f[0], 0.0);
      EXPECT_EQ(f[3], 0.0);
      EXPECT_NEAR(f[1] * ny - f[2] * nx, 0.0, 1e-14) << flux_scheme_name(scheme);
      const double wall_pressure = f[1] * nx + f[2] * ny;
      if (un == 0.0)
        EXPECT_NEAR(wall_pressure, 0.75, 1e-14) << flux_scheme_name(scheme);
      else
        EXPECT_GT((wall_pressure - 0.75) * un, 0.05 * std::abs(un)) << flux_scheme_name(scheme) << ", u.n " << un;
    }
}

TEST(CompressibleFlux, UnknownSchemeNamesTheChoices) {
  EXPECT_EQ(parse_flux_scheme("rusanov"), FluxScheme::Rusanov);
  EXPECT_EQ(parse_flux_scheme("hllc"), FluxScheme::Hllc);
  try {
    parse_flux_scheme("ausm");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("roe, hllc or rusanov"), std::string::npos);
  }
}

}  // namespace
}  // namespace tb::compressible
