#pragma once
// The immersed-boundary fractional step with its state resident on one backend
// (the device under --backend cuda): the velocity, the last advection terms,
// the pressure, the face velocities, the right-hand sides and the matrices'
// values (written once where the systems keep them, set_pattern /
// device_values, by the system_rows and ghost_rows kernels) stay there for the
// whole run, and the step runs the kernels of kernels.hpp on them, the same
// sequence as ImmersedFlow::step. Per step only scalars cross: the step's
// maxima, the solvers' reports, and what the caller reduces there (the largest
// velocity, the drag through SphereDrag::force on the backend). Fields come
// back to the ImmersedFlow it was made from only through to_host(), for
// output or a checkpoint; from_host() takes a loaded state to the backend.
//
// On the host backend (with systems whose storage is host memory) it is the
// twin the tests compare bit for bit with ImmersedFlow::step. A whole grid (a
// piece exchanges ghost planes on the host) and a body at rest (a moving body
// rebuilds its ghost cells and patterns on the host every step): resident().
#include "physics/immersed/fractional_step.hpp"
#include "physics/immersed/surface_force.hpp"
#include "solvers/core/array.hpp"

namespace tb::immersed {

class ResidentStep {
 public:
  // Whether `flow`'s step can run resident: a whole grid, a body at rest.
  static bool resident(const ImmersedFlow& flow);

  // Copies flow's grid, cell types, ghost rows and state to `backend`; flow's
  // systems must be declared (declare_systems) on `systems`, whose device
  // storage is read on `backend`. Writes both matrices there, once.
  ResidentStep(ImmersedFlow& flow, systems::LinearSystems& systems, Backend backend);
  ResidentStep(const ResidentStep&) = delete;
  ResidentStep& operator=(const ResidentStep&) = delete;

  StepReport step(systems::LinearSystems& systems);
  // The state into flow (velocity, advection terms, pressure, faces, time, steps).
  void to_host();
  // flow's state (after load or the initial condition) onto the backend.
  void from_host();
  // A copy of the state kept on the backend beside it, so that holding the
  // last accepted step moves nothing; restore_kept() puts it back.
  void keep();
  void restore_kept();
  bool has_kept() const { return kept_steps_ >= 0; }
  // max |u| over the components and max |p|, reduced where they are.
  double max_velocity() const;
  double max_pressure() const;
  // The force of the fields on a sphere, summed where they are.
  SurfaceForce force(SphereDrag& drag) const;

 private:
  GridView grid_view() const;
  cell::VelocityView velocity() { return {{u_[0].data(), u_[1].data(), u_[2].data()}}; }
  cell::ConstVelocityView const_velocity() const { return {{u_[0].data(), u_[1].data(), u_[2].data()}}; }
  FaceView face_view();
  ConstFaceView const_face_view() const;
  void write_matrix(systems::LinearSystems& systems, systems::SystemId id, const BsrMatrix& a, const BoxConditions& box,
                    BodyCondition body, double alpha, double beta);

  ImmersedFlow& flow_;
  Backend backend_;
  Array<double> axes_[3][3];  // per direction: nodes, widths, centres
  Array<CellType> types_;
  Array<char> cleared_;  // all zero: a body at rest clears no cells
  Array<index_t> ghost_cells_;
  Vector ghost_values_[3];
  Vector u_[3], u_old_[3], n_old_[3], p_, rhs_, faces_[3];
  Vector kept_u_[3], kept_n_old_[3], kept_p_, kept_faces_[3];  // allocated by the first keep()
  double kept_time_ = 0.0;
  long kept_steps_ = -1;
};

}  // namespace tb::immersed
