// The laminar viscous terms of EulerDiscretisation (seed 001 §2) through the
// loops of kernels.hpp (bodies in loop_bodies.hpp): face gradients by the
// modified average of the cell gradients, the thin-layer stress and heat flux at
// no-slip walls, and the thin-layer first-order Jacobian.
#include <algorithm>

#include "physics/compressible/euler_discretisation.hpp"
#include "physics/compressible/loop_bodies.hpp"

namespace tb::compressible {

State EulerDiscretisation::wall_ghost(BoundaryKind kind, const State& inner) const {
  return bodies::wall_ghost(scheme_, kind, inner);
}

Block EulerDiscretisation::wall_ghost_jacobian(BoundaryKind kind, const State& inner) const {
  return bodies::wall_ghost_jacobian(scheme_, kind, inner);
}

State EulerDiscretisation::wall_viscous_flux(const std::vector<State>& w, index_t face) const {
  return bodies::wall_viscous_flux(kernel_mesh_.view(), scheme_, w.front().data(), face);
}

Block EulerDiscretisation::wall_viscous_jacobian(const std::vector<State>& w, index_t face) const {
  return bodies::wall_viscous_jacobian(kernel_mesh_.view(), scheme_, w.front().data(), face);
}

void EulerDiscretisation::add_viscous_residual(const std::vector<State>& w, std::vector<State>& r) const {
  // Each face's -F_v . n |f| into its slot, then each cell adds its faces'
  // slots onto its inviscid sum in face order, as the sequential face loop did.
  FlowView q;
  q.w = w.front().data(), q.primitive = primitive_.front().data(), q.grad = grad_.front().data();
  if (mms_) q.outside_viscous = mms_viscous_flux_.front().data();
  face_values_.resize(std::max(face_values_.size(), std::size_t(num_vars) * std::size_t(mesh_.num_faces())));
  const MeshView m = kernel_mesh_.view();
  kernels::viscous_face_fluxes(Backend::host, m, scheme_, q, face_values_.data());
  kernels::add_face_sums(Backend::host, m, FaceSign::out_of_left, num_vars, face_values_.data(), doubles_of(r).data());
}

void EulerDiscretisation::add_viscous_jacobian(const std::vector<State>& w, BsrMatrix& a, BsrMatrix* off_rank) const {
  // The negated thin-layer blocks into each face's slots, then each row adds
  // its faces' blocks in face order onto the inviscid ones (kernels.hpp).
  face_values_.resize(std::max(face_values_.size(), std::size_t(32) * std::size_t(mesh_.num_faces())));
  const MeshView m = kernel_mesh_.view();
  kernels::viscous_jacobian_face_blocks(Backend::host, m, scheme_, w.front().data(), face_values_.data());
  kernels::gather_jacobian_rows(Backend::host, m, face_values_.data(),
                                {face_blocks_.data(), a.values.data(), off_rank ? off_rank->values.data() : nullptr});
}

}  // namespace tb::compressible
