#pragma once
// Inputs of the immersed-boundary kernels' twin tests (test_immersed_kernels*.cpp):
// a grid stretched in x with more than openmp_min_length cells (so the OpenMP
// kernels split their loops), a sphere inside it (fluid, ghost and solid
// cells, ghost rows), inflow, outflow and wall sides, fields of seeded random
// values, and the wall-fit stencils of points on the sphere, so that every
// branch of every body is taken.
#include <cmath>
#include <cstdint>
#include <numbers>
#include <vector>

#include "ib_fixtures.hpp"
#include "physics/immersed/ghost_cells.hpp"
#include "physics/immersed/kernels.hpp"
#include "physics/immersed/scalar_system.hpp"

namespace tb::test {

// SplitMix64 in [-1, 1): the same numbers on every platform.
inline std::vector<double> random_values(std::size_t n, std::uint64_t seed) {
  std::vector<double> v(n);
  for (double& x : v) {
    seed += 0x9e3779b97f4a7c15ull;
    std::uint64_t z = seed;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    x = double(z >> 11) * 0x1.0p-52 - 1.0;
  }
  return v;
}

struct KernelInputs {
  immersed::CartesianGrid grid{{immersed::clustered_axis_nodes(0.0, 2.4, 0.7, 1.4, 0.045, 1.08),
                                uniform_nodes(0.0, 2.0, 40), uniform_nodes(0.0, 2.0, 48)}};
  immersed::Sphere sphere{{1.02, 0.97, 1.01}, 0.31};
  immersed::GhostCells ib = immersed::build_ghost_cells(grid, sphere);
  immersed::SystemPattern pattern = immersed::make_system_pattern(grid, ib);
  immersed::SidesView sides;
  std::size_t cells = std::size_t(grid.num_cells());
  std::vector<double> u[3], u_old[3], n_old, p;
  std::vector<char> cleared;
  immersed::FaceField faces{grid};
  std::vector<index_t> ghost_cells;
  std::vector<double> ghost_values;
  immersed::FlatStencils pressure_points, shear_points;  // on the sphere
  std::vector<double> normals, wall_velocities;
  double dt = 0.013, nu = 0.021;

  KernelInputs() {
    using immersed::SideKind;
    const SideKind kinds[6] = {SideKind::inflow, SideKind::outflow, SideKind::wall,
                               SideKind::inflow, SideKind::wall,    SideKind::inflow};
    const double stream[3] = {1.0, 0.1, -0.05};
    for (int side = 0; side < 6; ++side) {
      const bool outflow = kinds[side] == SideKind::outflow;
      sides.kind[side] = kinds[side];
      sides.velocity[side] = outflow ? immersed::FaceKind::neumann : immersed::FaceKind::dirichlet;
      sides.pressure[side] = outflow ? immersed::FaceKind::dirichlet : immersed::FaceKind::neumann;
      for (int d = 0; d < 3; ++d) sides.value[d][side] = kinds[side] == SideKind::inflow ? stream[d] : 0.0;
    }
    for (int d = 0; d < 3; ++d) {
      u[d] = random_values(cells, 11 + std::uint64_t(d));
      u_old[d] = random_values(cells, 21 + std::uint64_t(d));
      faces.normal(d) = random_values(faces.normal(d).size(), 31 + std::uint64_t(d));
    }
    n_old = random_values(cells, 41);
    p = random_values(cells, 42);
    const std::vector<double> flags = random_values(cells, 43);
    for (double f : flags) cleared.push_back(f > 0.8 ? 1 : 0);
    ghost_values = random_values(ib.ghosts.size(), 44);
    for (const immersed::GhostCell& g : ib.ghosts) ghost_cells.push_back(g.cell);
    // Points on the sphere, as SphereDrag places them (fewer).
    const int bands = 24, sectors = 48;
    for (int b = 0; b < bands; ++b) {
      const double ct = -1.0 + (b + 0.5) * 2.0 / bands, st = std::sqrt(1.0 - ct * ct);
      for (int s = 0; s < sectors; ++s) {
        const double phi = (s + 0.5) * 2.0 * std::numbers::pi / sectors;
        const immersed::Vec3 n{st * std::cos(phi), st * std::sin(phi), ct};
        const immersed::Vec3 x{1.02 + 0.31 * n[0], 0.97 + 0.31 * n[1], 1.01 + 0.31 * n[2]};
        const immersed::Vec3 wall{0.2 * n[1], -0.1 * n[0], 0.05};
        normals.insert(normals.end(), n.begin(), n.end());
        wall_velocities.insert(wall_velocities.end(), wall.begin(), wall.end());
        pressure_points.add(immersed::WallFit(grid, ib.types, x, n, immersed::WallCondition::neumann).value_at(x));
        shear_points.add(
            immersed::WallFit(grid, ib.types, x, n, immersed::WallCondition::dirichlet).normal_derivative());
      }
    }
  }

  immersed::GridView view() const { return grid.view(ib.types.data()); }
  immersed::cell::SurfaceView surface(double mu, double area) const {
    return {pressure_points.view(),
            shear_points.view(),
            pressure_points.boundary_weights.data(),
            shear_points.boundary_weights.data(),
            normals.data(),
            wall_velocities.data(),
            mu,
            area};
  }
};

}  // namespace tb::test
