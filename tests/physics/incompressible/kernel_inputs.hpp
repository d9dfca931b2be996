#pragma once
// Inputs of the incompressible kernels' twin tests (test_incompressible_kernels*.cpp):
// a stretched grid large enough for the OpenMP kernels to split their loops
// (more than openmp_min_length cells), moving walls on every side, and fields
// of seeded random values, so that every branch of every per-cell body
// (boundary faces, interior faces, the pinned cell) is taken.
#include <array>
#include <cstdint>
#include <vector>

#include "flow_fixtures.hpp"
#include "physics/incompressible/kernels.hpp"
#include "physics/incompressible/stencil_pattern.hpp"

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

// Walls on every side with tangential velocities, so that no boundary value
// is zero; periodic sides where the grid is periodic.
inline std::array<BoundarySpec, 6> moving_walls(const FvGrid& g) {
  std::array<BoundarySpec, 6> b{};
  for (int side = 0; side < 2 * g.dim(); ++side) {
    const int d = side / 2;
    if (g.axis(d).periodic) {
      b[std::size_t(side)].kind = BoundaryKind::periodic;
      continue;
    }
    for (int e = 0; e < g.dim(); ++e)
      if (e != d) b[std::size_t(side)].velocity[std::size_t(e)] = 0.25 * (side + 1) * (e + 1);
  }
  return b;
}

struct KernelInputs {
  FvGrid grid;
  Boundaries boundaries;
  StencilPattern momentum, poisson;
  FaceVelocities faces;
  std::vector<double> u, u_old, p, grad_p, div;
  double dt = 0.013, nu = 0.0021;

  KernelInputs(const FvGrid& g, int seed)
      : grid(g),
        boundaries(grid, moving_walls(grid)),
        momentum(make_stencil_pattern(grid, grid.dim())),
        poisson(make_stencil_pattern(grid, 1)),
        faces(grid) {
    const std::size_t cells = std::size_t(grid.num_cells()), n = std::size_t(grid.dim());
    u = random_values(cells * n, 11u * unsigned(seed));
    u_old = random_values(cells * n, 13u * unsigned(seed));
    p = random_values(cells, 17u * unsigned(seed));
    grad_p = random_values(cells * n, 19u * unsigned(seed));
    div = random_values(cells, 23u * unsigned(seed));
    for (int d = 0; d < grid.dim(); ++d)
      faces.normal[std::size_t(d)] =
          random_values(faces.normal[std::size_t(d)].size(), 29u * unsigned(seed) + unsigned(d));
  }
  KernelInputs(const KernelInputs&) = delete;
};

// A 3D stretched grid of 42 x 40 x 40 = 67,200 cells (above openmp_min_length),
// a 2D one of 300 x 240 cells, and a 3D one periodic in x and z.
inline FvGrid grid_3d() { return FvGrid(axis(42, 1.0, 1.3), axis(40, 2.0, 0.9), axis(40, 1.5, 0.0)); }
inline FvGrid grid_2d() { return FvGrid(axis(300, 1.0, 1.1), axis(240, 1.0, 0.0), axis(1)); }
inline FvGrid grid_periodic() {
  return FvGrid(axis(44, 1.0, 0.0), axis(40, 1.0, 1.2), axis(40, 1.0, 0.0), {true, false, true});
}

}  // namespace tb::test
