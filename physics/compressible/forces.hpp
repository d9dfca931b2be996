#pragma once
// Figures of a solution: Cp per slip-wall face, lift and drag coefficients from
// the integrated pressure (normalised by the free-stream dynamic pressure and a
// reference length, diameter or chord), and the entropy error of an isentropic flow.
// On a decomposed mesh (share: disc's mesh is this rank's piece) each takes the
// rank's own cells and wall faces and combines the ranks' parts: every rank
// gets the forces and the entropy error, rank 0 the wall distribution.
#include <vector>

#include "physics/compressible/euler_discretisation.hpp"
#include "physics/domain_share.hpp"

namespace tb::compressible {

struct WallPoint {
  double x = 0.0, y = 0.0;  // face midpoint
  double cp = 0.0;
  // Skin friction: the wall shear on the body along the free-stream direction
  // over q_inf; negative where the flow near the wall runs backwards. 0 on slip walls.
  double cf = 0.0;
};

struct Forces {
  double cl = 0.0, cd = 0.0;                   // totals
  double cd_pressure = 0.0, cd_viscous = 0.0;  // cd's parts
};

// Cp = (p - p_inf) / (rho_inf |u_inf|^2 / 2) and Cf on every wall face, in face
// order, from the face states the residual of `order` uses.
// On a decomposed mesh: every rank's wall faces in rank order, on rank 0 (empty on the others).
std::vector<WallPoint> wall_distribution(const EulerDiscretisation& disc, const std::vector<State>& w, int order,
                                         const DomainShare* share = nullptr);

// alpha: angle of attack (radians); drag along the free stream, lift normal to it.
// The force on the body is sum over wall faces of (p - p_inf) n |f| (pressure)
// minus the viscous flux tau n |f| on no-slip walls (viscous).
Forces pressure_forces(const EulerDiscretisation& disc, const std::vector<State>& w, int order, double alpha,
                       double reference_length, const DomainShare* share = nullptr);
// The same from this rank's wall sums (EulerDiscretisation::wall_forces, or
// PseudoTimeSolver::wall_force_sums where the state is resident).
Forces pressure_forces(const EulerDiscretisation& disc, const State& wall_sums, double alpha, double reference_length,
                       const DomainShare* share = nullptr);

// sqrt(sum_i V_i (s_i / s_inf - 1)^2 / sum_i V_i), s = p / rho^gamma: zero for the
// exact solution of a subsonic inviscid flow, so it measures the discretisation error.
double entropy_error(const EulerDiscretisation& disc, const std::vector<State>& w, const DomainShare* share = nullptr);

// The separation point on the upper surface (y > 0): the smallest x beyond the
// leading edge (smallest x of the wall) where Cf turns from positive to negative
// along the surface, sorted by x; NaN when Cf never turns negative there.
double separation_x(const std::vector<WallPoint>& wall);

}  // namespace tb::compressible
