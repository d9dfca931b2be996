#pragma once
// One time step of seed 004's fractional-step method (Eq. 2-4) on the
// immersed-boundary grid, velocities at cell centres and normal velocities on
// faces as Mittal et al. (2008) store them:
//   1. a moving body is placed at t^{n+1}; ghost cells, patterns and matrices
//      are rebuilt (symbolic) and freshly cleared cells filled from neighbours;
//   2. Eq. 5, one Crank-Nicolson system per velocity component (system
//      "advection_diffusion", one matrix, three right-hand sides): the
//      advection term explicit by Adams-Bashforth 2 on the face velocities,
//      diffusion half implicit; ghost rows hold u_G = 2 u_body - u_IP;
//   3. face velocities U* interpolated from u*;
//   4. Eq. 6, the Poisson system ("pressure") with the operator of Eq. 7,
//      rhs -(rho/dt) div U*, Neumann ghost rows p_G = p_IP;
//   5. Eq. 4, projection of faces and cells; the faces are divergence free.
// Box sides are inflow (u = the free stream; also the far field), wall (u = 0)
// or outflow (zero gradient, p = 0). Patterns are built per body position; the
// step refills values and reuses every buffer. The loops of steps 2-5 are the
// kernels of kernels.hpp, run here on the host; ResidentStep (resident_step.hpp)
// runs the same sequence with the state on a device.
//
// Decomposed (docs/distributed.md): the grid may be a rank's slab of z planes
// (CartesianGrid::piece) whose ghost planes `share` refreshes. The rank
// computes its owned cells (and the faces between them and the first ghost
// plane), solves its rows of each system with the other ranks, exchanges the
// ghost planes after each solve and after the projection, and reduces the
// step's maxima in one allreduce.
#include <iosfwd>
#include <memory>

#include "physics/domain_share.hpp"
#include "physics/immersed/face_field.hpp"
#include "physics/immersed/kernels.hpp"
#include "physics/immersed/moved_cells.hpp"
#include "physics/immersed/scalar_system.hpp"
#include "solvers/systems/linear_systems.hpp"

namespace tb::immersed {

struct FlowSettings {
  double nu = 0.01;  // kinematic viscosity
  double rho = 1.0;  // density
  double dt = 0.01;
  Vec3 free_stream{1.0, 0.0, 0.0};
  std::array<SideKind, 6> sides{SideKind::inflow, SideKind::outflow, SideKind::inflow,
                                SideKind::inflow, SideKind::inflow,  SideKind::inflow};
};

struct StepReport {
  double time = 0.0;
  double cfl = 0.0;              // max over fluid cells of sum_d |u_d| dt / Delta x_d
  double velocity_change = 0.0;  // max |u^{n+1} - u^n| / dt over fluid cells
  double divergence = 0.0;       // max |div U| over fluid cells after the projection
  std::vector<std::string> failed;
};

class ImmersedFlow {
 public:
  // share: the ranks over which `grid` (a piece) is split; null for the whole grid on one process.
  ImmersedFlow(CartesianGrid grid, std::unique_ptr<Body> body, const FlowSettings& settings,
               const DomainShare* share = nullptr);
  ImmersedFlow(const ImmersedFlow&) = delete;
  ImmersedFlow& operator=(const ImmersedFlow&) = delete;

  // Declares the two systems, "advection_diffusion" (one matrix, three
  // right-hand sides a step) then "pressure", keeping their handles.
  void declare_systems(systems::SystemRegistry& registry);
  StepReport step(systems::LinearSystems& systems);

  const CartesianGrid& grid() const { return grid_; }
  const Body& body() const { return *body_; }
  const GhostCells& cells() const { return ib_; }
  const FlowSettings& settings() const { return settings_; }
  std::span<const double> velocity(int d) const { return u_[d]; }
  std::span<const double> pressure() const { return p_; }
  const FaceField& faces() const { return faces_; }
  double time() const { return time_; }
  long steps() const { return steps_; }
  long cleared_cells() const { return cleared_; }           // freshly cleared cells at the last body move, all ranks'
  const MovedCells& moved_cells() const { return moved_; }  // this rank's cells the last body move changed
  const DomainShare* share() const { return share_; }

  void save(std::ostream& out) const;
  void load(std::istream& in);

 private:
  friend class ResidentStep;
  void place_body();
  void locate_body(const std::vector<CellType>& before);
  void fill_cleared();
  void predictor(systems::LinearSystems& systems, StepReport& r);
  void interpolate_faces();
  void set_ghost_values();
  cell::VelocityView velocity_view() { return {{u_[0].data(), u_[1].data(), u_[2].data()}}; }
  cell::ConstVelocityView const_velocity_view() const { return {{u_[0].data(), u_[1].data(), u_[2].data()}}; }
  void pressure_solve(systems::LinearSystems& systems, StepReport& r);
  void project(StepReport& r);
  double face_value(int d, int side) const;
  BoxConditions velocity_box() const;
  BoxConditions pressure_box() const;
  void exchange(std::vector<double>& field) const {
    if (share_) share_->exchange(field, 1);
  }
  // This rank's entries of a local field: the rows it solves for.
  std::span<double> owned(std::vector<double>& v) const {
    return std::span<double>(v).subspan(std::size_t(begin_), std::size_t(end_ - begin_));
  }

  CartesianGrid grid_;
  std::unique_ptr<Body> body_;
  FlowSettings settings_;
  systems::SystemId advection_diffusion_id_, pressure_id_;
  const DomainShare* share_;
  index_t begin_, end_;  // owned cells
  index_t faces_end_;    // the owned cells and the first plane above: their low faces are the owned cells' faces
  GhostCells ib_;
  SystemPattern pattern_;
  BsrMatrix ad_matrix_, p_matrix_;
  std::array<std::vector<double>, 3> u_, u_old_, n_old_;
  std::vector<double> p_, rhs_;
  // The kernels' views (kernels.hpp): the grid with the current cell types, the box sides.
  GridView view_;
  SidesView sides_;
  // The ghost rows' right-hand sides per velocity component, w_B u_B of each ghost cell.
  std::vector<index_t> ghost_cells_;
  std::array<std::vector<double>, 3> ghost_values_;
  std::vector<char> cleared_flag_;
  MovedCells moved_;
  FaceField faces_;
  double time_ = 0.0;
  long steps_ = 0;
  long cleared_ = 0;
};

// Trilinear interpolation of a cell field at x (clamped stencils extrapolate).
double interpolate_cells(const CartesianGrid& grid, std::span<const double> field, const Vec3& x);

}  // namespace tb::immersed
