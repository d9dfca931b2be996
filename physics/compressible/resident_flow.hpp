#pragma once
// A flow state resident on a backend: the mesh uploaded once, the states, the
// residual, the local time step's sums and the pseudo-time update kept there,
// each step of kernels.hpp run where the data lives; what comes back per call
// is a handful of scalars (squared residual sums, the relaxation's largest
// change, whether a trial state is admissible). States cross only through
// upload / download (start, output). What it covers: the residual of order 1
// or 2, inviscid or viscous (cell primitives, least-squares gradients, the
// limiter, inviscid and viscous face fluxes), the first-order Jacobian's values
// (thin-layer viscous blocks included), Eq. 2-4 of the pseudo-time step.
#include <vector>

#include "physics/compressible/euler_discretisation.hpp"
#include "physics/compressible/kernel_mesh.hpp"
#include "solvers/core/array.hpp"

namespace tb::compressible {

class ResidentFlow {
 public:
  // Uploads disc's kernel mesh and Jacobian face positions to `b`. Manufactured
  // boundaries are not resident: tb::Error.
  ResidentFlow(Backend b, const EulerDiscretisation& disc);

  Backend backend() const { return backend_; }
  void upload(const std::vector<State>& w);
  std::vector<State> download() const;

  // r = r(w) of order 1 or 2, as EulerDiscretisation::residual computes it;
  // the per-equation sums of r^2 over the cells.
  State residual(int order = 1);
  // Seed Eq. 4: shift_i = sum_f nu_f |f| / cfl, from the current state.
  void local_time_step(double cfl);
  // The first-order Jacobian's values diag(shift) + dr/dw at the current state
  // into `values` (on this backend, the pattern's size).
  void assemble_jacobian(double* values);
  // Seed Eq. 2: min(1, max_change / the largest relative change w + dw makes).
  double relaxation(const double* dw, double max_change) const;
  // w <- w + omega dw when every updated state is admissible (returns true);
  // otherwise w is kept and false returned.
  bool update(const double* dw, double omega);

  const double* residual_values() const { return r_.data(); }
  const double* shift() const { return shift_.data(); }

 private:
  Backend backend_;
  const EulerDiscretisation& disc_;
  MeshOnBackend mesh_;
  Array<index_t> face_blocks_, diagonal_;
  Array<double> w_, trial_, r_, face_, sums_, shift_;
  // The reconstruction: primitives, gradients and limiter values per cell,
  // ghost primitives per face (phi stays 1 without the limiter).
  Array<double> primitive_, grad_, phi_, ghost_;
};

}  // namespace tb::compressible
