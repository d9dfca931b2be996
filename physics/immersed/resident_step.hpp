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
// A moving body: each step the host still places it (ImmersedFlow's
// locate_body: cell types, ghost cells and their wall-fit stencils, the
// pattern; symbolic work over the body's band), and only what the move
// changed crosses: the moved cells (move_cells fills the freshly cleared ones
// from their neighbours on the backend and scatters the new types), the ghost
// rows, and the rows' layout where it changed (diagonal and neighbour
// positions, row offsets: the parts that differ from what the backend holds).
// The matrices are rewritten there, set_pattern (the systems copy a changed
// pattern to the device) and device_values. uploads() counts what the step
// sent; its arrays grow geometrically and are reused.
//
// On the host backend (with systems whose storage is host memory) it is the
// twin the tests compare bit for bit with ImmersedFlow::step. A whole grid (a
// piece exchanges ghost planes on the host): resident().
#include "physics/immersed/fractional_step.hpp"
#include "physics/immersed/surface_force.hpp"
#include "solvers/core/array.hpp"

namespace tb::immersed {

class ResidentStep {
 public:
  // Whether `flow`'s step can run resident: a whole grid.
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

  // What the last step sent to the backend besides the systems' own copies:
  // the body's band (moved cells, ghost rows and their stencils) and the rows'
  // layout (the parts of the row offsets, diagonal and neighbour positions
  // that changed). Counted here because copies within host memory (the host
  // backend) are not counted by transfers.
  struct Uploads {
    std::size_t band = 0, layout = 0;
  };
  Uploads uploads() const { return uploads_; }

 private:
  // A backend array refilled from the host: its capacity grows geometrically
  // (a steady run allocates nothing per step), and a host mirror of what it
  // holds lets send_changes copy only the span that differs.
  template <class T>
  struct Sent {
    Array<T> array;
    std::vector<T> mirror;
    T* data() { return array.data(); }
  };
  template <class T>
  void send(Sent<T>& to, std::span<const T> host, std::size_t& bytes, bool only_changes);
  cell::MovedCellsView moved_view();
  GridView grid_view() const;
  cell::VelocityView velocity() { return {{u_[0].data(), u_[1].data(), u_[2].data()}}; }
  cell::ConstVelocityView const_velocity() const { return {{u_[0].data(), u_[1].data(), u_[2].data()}}; }
  FaceView face_view();
  ConstFaceView const_face_view() const;
  // The body at flow_'s position on the backend: its types whole, its rows and matrices.
  void lay_out_body(systems::LinearSystems& systems);
  // The body moved (flow_.body_ at t^{n+1}): placed on the host, its changes sent and applied.
  void move_body(systems::LinearSystems& systems);
  void send_rows();
  void write_matrices(systems::LinearSystems& systems);
  void write_matrix(systems::LinearSystems& systems, systems::SystemId id, const BoxConditions& box, BodyCondition body,
                    double alpha, double beta, int slot);

  ImmersedFlow& flow_;
  Backend backend_;
  Array<double> axes_[3][3];  // per direction: nodes, widths, centres
  Array<CellType> types_;
  Array<char> cleared_;  // per cell: freshly cleared at this step's move
  Sent<index_t> moved_cells_;
  Sent<CellType> moved_types_;
  Sent<std::uint8_t> moved_fill_;
  Sent<double> moved_wall_;
  index_t moved_ = 0;  // moved cells of this step's move, flagged until the predictor has read them
  Sent<index_t> ghost_cells_;
  Sent<double> ghost_values_[3];
  Sent<index_t> row_ptr_, diagonal_, neighbour_;
  Sent<index_t> stencil_offsets_[2], stencil_at_[2];  // per system: the ghost rows' stencils
  Sent<double> stencil_weights_[2];
  bool stale_ = false;  // a moving body's rows not yet written for flow_'s position (after from_host, restore_kept)
  Uploads uploads_;
  Vector u_[3], u_old_[3], n_old_[3], p_, rhs_, faces_[3];
  Vector kept_u_[3], kept_n_old_[3], kept_p_, kept_faces_[3];  // allocated by the first keep()
  double kept_time_ = 0.0;
  long kept_steps_ = -1;
};

}  // namespace tb::immersed
