#pragma once
// A flow state resident on a backend: the mesh uploaded once, the states, the
// residual, the local time step's sums and the pseudo-time update kept there,
// each step of kernels.hpp run where the data lives; what comes back per call
// is a handful of scalars (squared residual sums, the relaxation's largest
// change, whether a trial state is admissible, the wall forces' sums). States
// cross only through upload / download (start, output). What it covers: the
// residual of order 1 or 2, inviscid or viscous (cell primitives, least-squares
// gradients, the limiter, inviscid and viscous face fluxes) of its state or of
// any other on the backend, the first-order Jacobian's values (thin-layer
// viscous blocks included), Eq. 2-4 of the pseudo-time step, the wall forces.
// PseudoTimeSolver::reside steps on it; MatrixFreeSystem's resident product
// evaluates its perturbed residuals with it. On a piece of a decomposed mesh
// it holds the piece's cells, its own first (`owned`): the sums, the maxima,
// the update and the forces cover those, the ghosts keep their states until
// the caller refreshes them (DomainShare::exchange_on), and the Jacobian's
// blocks in ghost columns go to a separate array (the systems' off-rank values).
#include <utility>
#include <vector>

#include "physics/compressible/euler_discretisation.hpp"
#include "physics/compressible/kernel_mesh.hpp"
#include "solvers/core/array.hpp"

namespace tb::compressible {

class ResidentFlow {
 public:
  // Uploads disc's kernel mesh and Jacobian face positions to `b`; owned: the
  // piece's own cells, the first ones (-1: all). Manufactured boundaries are
  // not resident: tb::Error.
  ResidentFlow(Backend b, const EulerDiscretisation& disc, index_t owned = -1);

  Backend backend() const { return backend_; }
  index_t num_cells() const { return disc_.num_cells(); }
  index_t owned() const { return owned_; }
  void upload(const std::vector<State>& w);
  std::vector<State> download() const;
  // The residual of the last residual() call, brought to the host (output).
  std::vector<State> download_residual() const;

  // r = r(w) of order 1 or 2, as EulerDiscretisation::residual computes it;
  // the per-equation sums of r^2 over the owned cells.
  State residual(int order = 1) { return residual_of(w_.data(), order, r_.data()); }
  // The same for any state w on this backend into r (4 per cell): the
  // matrix-free product's perturbed residual, a trial's residual.
  State residual_of(const double* w, int order, double* r);
  // residual_of without the sums: nothing read back (the matrix-free product's).
  void residual_into(const double* w, int order, double* r);
  // Per equation, the sums of w^2 over the owned cells of the current state.
  State state_squared_sums() const;
  // Seed Eq. 4 in two parts: sum_f nu_f |f| per cell of the state w (the
  // current one by default), then shift_i = that sum / cfl.
  void spectral_radius_sums(const double* w = nullptr);
  void set_shift(double cfl);
  void local_time_step(double cfl) { spectral_radius_sums(), set_shift(cfl); }
  // The first-order Jacobian's values diag(shift) + dr/dw at the state w (the
  // current one by default) into `values` (on this backend, the pattern's
  // size; overwritten), a piece's blocks in ghost columns into `off_rank`
  // (JacobianPattern::off_rank's size; null where there are none).
  void assemble_jacobian(double* values, double* off_rank, const double* w = nullptr);
  // Seed Eq. 2's largest relative change w + dw makes on the owned cells.
  double max_relative_change(const double* dw) const;
  // trial = w + omega dw on the owned cells, the ghosts' states as they are;
  // whether every owned trial state is admissible. The state is unchanged
  // until accept_trial().
  bool make_trial(const double* dw, double omega);
  void accept_trial() { std::swap(w_, trial_); }
  // make_trial, then accept_trial when admissible.
  bool update(const double* dw, double omega);
  // The wall faces' pressure (x, y) and viscous (x, y) forces on the body,
  // summed in face order as EulerDiscretisation::wall_forces sums them.
  State wall_forces(int order);

  const double* state() const { return w_.data(); }
  double* state() { return w_.data(); }
  const double* trial() const { return trial_.data(); }
  double* trial() { return trial_.data(); }
  const double* residual_values() const { return r_.data(); }
  double* residual_values() { return r_.data(); }
  const double* shift() const { return shift_.data(); }
  // The state and the residual as arrays of the backend (copies kept beside them).
  const Vector& state_array() const { return w_; }
  Vector& state_array() { return w_; }
  const Vector& residual_array() const { return r_; }
  Vector& residual_array() { return r_; }

 private:
  // q.w's primitives, ghost primitives and least-squares gradients into q.
  void gradients_of(FlowView& q);

  Backend backend_;
  const EulerDiscretisation& disc_;
  index_t owned_;
  MeshOnBackend mesh_;
  Array<index_t> face_blocks_, diagonal_;
  Array<double> w_, trial_, r_, face_, sums_, shift_;
  // The reconstruction: primitives, gradients and limiter values per cell,
  // ghost primitives per face (phi stays 1 without the limiter).
  Array<double> primitive_, grad_, phi_, ghost_;
  std::size_t values_ = 0, off_rank_values_ = 0;  // the Jacobian's value counts
};

}  // namespace tb::compressible
