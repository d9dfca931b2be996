#pragma once
// Centreline velocities of the lid-driven unit cavity (lid u = 1 at y = 1) from
// U. Ghia, K. N. Ghia and C. T. Shin, "High-Re solutions for incompressible flow
// using the Navier-Stokes equations and a multigrid method", J. Comput. Phys. 48
// (1982) 387-411: Table I (u on the vertical centreline x = 0.5) and Table II (v
// on the horizontal centreline y = 0.5), 129 x 129 (Re 100, 400) and 129 x 129
// (Re 1000) grids. The Re 400 v value at x = 0.9063 (-0.23827) is a known misprint
// in the table (the smooth profile lies near -0.32); it is left out here.
#include <optional>
#include <vector>

namespace tb::incompressible {

struct Profile {
  std::vector<double> coord;  // increasing
  std::vector<double> value;
};

// The Table I / Table II column for Re 100, 400 or 1000; nullopt otherwise.
std::optional<Profile> ghia_u_vertical(int reynolds);
std::optional<Profile> ghia_v_horizontal(int reynolds);

}  // namespace tb::incompressible
