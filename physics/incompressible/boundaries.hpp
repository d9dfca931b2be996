#pragma once
// Boundary conditions on the six sides of the box. Each boundary face holds a
// velocity that the momentum equation sees as a Dirichlet value and the
// projection as a fixed normal flux (so the pressure correction has a Neumann
// condition on every side):
//   wall     no slip; a tangential velocity makes a moving lid
//   inflow   a prescribed velocity, uniform or parabolic across the side (in
//            each tangential direction that is neither empty nor periodic)
//   outflow  convective: du/dt + U_c du/dn = 0 (Orlanski with a fixed speed U_c,
//            the bulk inflow speed), advanced implicitly each step, then its
//            normal component shifted uniformly so that the outflow flux equals
//            the inflow flux and the Poisson problem stays solvable.
//   periodic on both sides of a direction (the grid joins them; no boundary faces).
// On a piece of the grid (fv_grid.hpp) the sides between ranks are walls at
// rest that only ghost cells see, and the fluxes sum the owned faces over the
// ranks (DomainShare), so every rank shifts its outflow by the same amount.
#include <array>
#include <iosfwd>
#include <span>
#include <string>
#include <vector>

#include "physics/domain_share.hpp"
#include "physics/incompressible/fv_grid.hpp"
#include "solvers/core/backend.hpp"

namespace tb::incompressible {

enum class BoundaryKind { wall, inflow, outflow, periodic };
enum class InflowProfile { uniform, parabolic };

struct BoundarySpec {
  BoundaryKind kind = BoundaryKind::wall;
  std::array<double, 3> velocity{};  // wall velocity, or the mean inflow velocity
  InflowProfile profile = InflowProfile::uniform;
};

// Sides are numbered 2 d + (s > 0): xmin, xmax, ymin, ymax, zmin, zmax.
inline constexpr int side_of(int d, int s) { return 2 * d + (s > 0 ? 1 : 0); }
const char* side_name(int side);
BoundaryKind parse_boundary_kind(const std::string& text);
InflowProfile parse_inflow_profile(const std::string& text);

class Boundaries {
 public:
  // `share`: the ranks a piece of the grid sums its fluxes over (null: one process).
  Boundaries(const FvGrid& grid, const std::array<BoundarySpec, 6>& specs, const DomainShare* share = nullptr);

  BoundaryKind kind(int side) const { return specs_[side].kind; }
  // Velocity (3 components) on the face of cell c that lies on the side.
  const double* value(int side, const std::array<index_t, 3>& c) const {
    return values_[side].data() + 3 * face_index(side, c);
  }
  // Convective outflow for one step of dt from the cell velocities u (n per cell),
  // followed by the global mass correction. Does nothing without outflow sides.
  // (kernels.hpp's advance_outflow, side_flux and shift_side.)
  void advance_outflow(std::span<const double> u, double dt);
  // The same where the state lives (a resident step): the side values at
  // values[side] (3 per face), u and g's geometry on backend b. The inflow
  // rate and the outflow area are the host's: the inflow's values do not change.
  void advance_outflow(Backend b, const GridView& g, const double* u, double dt,
                       const std::array<double*, 6>& values) const;
  bool has_outflow() const { return has_outflow_; }
  // Net volume flux into the domain through inflow sides.
  double inflow_rate() const;
  // The boundary faces' velocities over pointers into this object, for the per-cell kernels.
  BoundaryView view() const;
  // Side `side`'s face velocities (3 per face; empty where the side has no faces).
  const std::vector<double>& side_values(int side) const { return values_[side]; }
  // The same to write into: a resident step's values brought back (output, checkpoints).
  std::vector<double>& side_values_to_write(int side) { return values_[side]; }

  void save(std::ostream& out) const;
  void load(std::istream& in);

 private:
  index_t face_index(int side, const std::array<index_t, 3>& c) const;
  double side_flux(int side) const;  // outward volume flux through this rank's faces
  double side_area(int side) const;  // of this rank's faces
  double own_inflow() const;         // inflow_rate through this rank's faces
  // The outflow sides' area and the inflow rate, over the ranks: the
  // condition's speed is their ratio, and the mass correction reads both.
  std::array<double, 2> outflow_area_and_inflow() const;

  const FvGrid& grid_;
  const DomainShare* share_;
  std::array<BoundarySpec, 6> specs_;
  std::array<std::vector<double>, 6> values_;  // 3 per boundary face
  bool has_outflow_ = false;                   // the case has an outflow side (on any rank)
};

}  // namespace tb::incompressible
