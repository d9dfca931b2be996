#pragma once
// The manufactured-solution Poisson problem of case poisson_sphere:
//   -delta^2 phi = f (Eq. 6-7) on the fluid cells of a box with an immersed body,
//   phi = phi_exact on the box faces, and on the body either phi = phi_exact
//   (Dirichlet ghost rows) or dphi/dn = n . grad phi_exact (Neumann ghost rows),
// with phi_exact = sin(1.3 x + 0.4) cos(0.9 y) exp(0.5 z), so f = 2.25 phi_exact.
// The max-norm error over fluid cells falls at second order (ghost-cell method,
// Mittal 2008 §3.1).
#include <vector>

#include "physics/immersed/scalar_system.hpp"
#include "solvers/systems/linear_systems.hpp"

namespace tb::immersed {

double manufactured_phi(const Vec3& x);
Vec3 manufactured_gradient(const Vec3& x);

struct PoissonResult {
  std::vector<double> phi;
  double max_error = 0.0;  // over fluid cells (a piece's own: the caller reduces it over the ranks)
  SolveStats stats;
};

// Assembles and solves the system (`pressure`, declared by the caller) through
// `systems`; on a rank's piece of the grid its rows, with the other ranks (phi:
// the owned cells' values).
PoissonResult solve_manufactured_poisson(const CartesianGrid& grid, const GhostCells& ib, BodyCondition body,
                                         systems::LinearSystems& systems, systems::SystemId pressure);

}  // namespace tb::immersed
