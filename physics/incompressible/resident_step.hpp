#pragma once
// The fractional step with its state resident on one backend (the device
// under --backend cuda): the velocity, pressure, face velocities, the
// matrices' values (written where the systems keep them, set_pattern /
// device_values), the right-hand sides and the solutions stay there for the
// whole run, and the step runs the kernels of kernels.hpp on them, the same
// sequence of steps as FractionalStep::step. The linear systems read the
// values in place (SystemSet, LinearSolver::update from a view), the pressure
// matrix is written once (its values do not change), and the step's maxima
// and residual norm are reduced where the state is. Fields come back to the
// FractionalStep it was made from only through to_host(), for output or a
// checkpoint; from_host() takes a loaded state to the backend.
//
// On the host backend (with systems whose storage is host memory) it is the
// twin the tests compare bit for bit with FractionalStep::step. A convective
// outflow's face values live on the backend with the state, its mass
// correction reduced there. On a slab of a decomposed grid the ghost planes
// are refreshed where the state lives (DomainShare::exchange_on), the solves
// take the owned cells' part, the norms and maxima are reduced over the ranks,
// and the momentum's blocks in ghost columns, assembled there, go to the host's
// off-rank matrix, which the distributed solver reads.
#include "physics/incompressible/fractional_step.hpp"
#include "solvers/core/array.hpp"

namespace tb::incompressible {

class ResidentStep {
 public:
  // Copies flow's grid, boundaries, stencil positions and state to `backend`;
  // flow's systems must be declared (declare_systems) on `systems`, whose
  // device storage is read on `backend`. Writes the pressure matrix there.
  ResidentStep(FractionalStep& flow, systems::LinearSystems& systems, Backend backend);
  ResidentStep(const ResidentStep&) = delete;
  ResidentStep& operator=(const ResidentStep&) = delete;

  StepReport step(systems::LinearSystems& systems);
  // The state into flow (velocity, pressure, faces, divergence, time, steps).
  void to_host();
  // flow's state (after load or an initial condition) onto the backend.
  void from_host();
  // A copy of the state (velocity, pressure, faces, divergence, time, steps,
  // the outflow sides' values) kept on the backend beside it, so that holding
  // the last accepted step moves nothing; restore_kept() puts it back. The
  // other sides' values do not change.
  void keep();
  void restore_kept();
  bool has_kept() const { return kept_steps_ >= 0; }
  // max |u| and max |p| over the cells, reduced where they are.
  double max_velocity() const;
  double max_pressure() const;
  // The velocity where it lives (dim per cell), for reductions run there.
  const double* velocity() const { return u_.data(); }
  Backend backend() const { return backend_; }

 private:
  GridView grid_view() const;
  BoundaryView boundary_view() const;
  FaceView face_view();
  void pressure_solve(systems::LinearSystems& systems, StepReport& r);
  void momentum_solve(systems::LinearSystems& systems, StepReport& r);
  // A piece's x (the owned cells' part) into phi_, then phi_'s ghosts.
  void settle_phi(const Vector& x);
  void exchange(Vector& v, index_t width);
  bool outflow(int side) const;
  bool piece() const { return share_ != nullptr; }

  FractionalStep& flow_;
  const DomainShare* share_;  // null: the whole grid
  Backend backend_;
  GridView host_grid_;
  Array<double> geometry_[3][5];  // per axis: nodes, widths, centres, spacing, weight
  Array<double> sides_[6];        // the boundary faces' velocities
  Array<index_t> momentum_position_, poisson_position_;
  Vector u_, u_old_, p_, grad_p_, rhs_m_, du_, rhs_p_, phi_, div_;
  Vector b_div_, delta_;  // the projection's right-hand side before A p^n, and a correction (owned cells)
  // A piece's: the solves' owned parts, and the blocks in ghost columns.
  Vector momentum_b_, momentum_x_, pressure_b_, pressure_x_;
  Vector faces_[3];
  Vector kept_u_, kept_p_, kept_div_, kept_faces_[3], kept_sides_[6];  // allocated by the first keep()
  double kept_time_ = 0.0;
  long kept_steps_ = -1;
};

}  // namespace tb::incompressible
