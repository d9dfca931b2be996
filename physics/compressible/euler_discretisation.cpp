#include "physics/compressible/euler_discretisation.hpp"

#include <algorithm>

#include "physics/compressible/loop_bodies.hpp"
#include "solvers/core/error.hpp"

namespace tb::compressible {

namespace {

std::vector<BoundaryKind> checked_kinds(const Mesh2D& mesh, std::vector<BoundaryKind> kinds) {
  if (index_t(kinds.size()) != mesh.num_markers())
    throw Error("EulerDiscretisation: " + std::to_string(kinds.size()) + " boundary kinds for " +
                std::to_string(mesh.num_markers()) + " markers");
  return kinds;
}

}  // namespace

EulerDiscretisation::EulerDiscretisation(const Mesh2D& mesh, std::vector<BoundaryKind> kinds_by_marker,
                                         EulerSettings settings, const PieceNumbering* piece)
    : mesh_(mesh),
      kinds_(checked_kinds(mesh, std::move(kinds_by_marker))),
      settings_(settings),
      geometry_(compute_geometry(mesh)),
      gradients_(mesh, geometry_, ghost_offsets(), settings_.gradient_stencil),
      pattern_(build_jacobian_pattern(mesh, piece)),
      face_distance_(std::size_t(mesh.num_faces())) {
  for (index_t f = 0; f < mesh.num_faces(); ++f) {
    const Face& face = mesh.faces[std::size_t(f)];
    const Vec2 n = geometry_.face_normal[std::size_t(f)], a = geometry_.cell_centroid[std::size_t(face.left)];
    const Vec2 b =
        face.is_boundary() ? geometry_.face_midpoint[std::size_t(f)] : geometry_.cell_centroid[std::size_t(face.right)];
    const double dx = b.x - a.x, dy = b.y - a.y;
    // On a skewed face the normal projection can be tiny: a tenth of the distance bounds it.
    const double d = std::max(dx * n.x + dy * n.y, 0.1 * std::hypot(dx, dy));
    face_distance_[std::size_t(f)] = face.is_boundary() ? 2.0 * d : d;
  }
  kernel_mesh_ = build_kernel_mesh(mesh, geometry_, face_distance_, kinds_, &gradients_, settings_.limiter_k);
  scheme_ = {settings_.gas,       settings_.flux,    settings_.jacobian_scheme(), settings_.roe,
             settings_.wall_flux, settings_.viscous, settings_.free_stream,       settings_.wall_temperature};
  face_blocks_.reserve(4 * pattern_.faces.size());
  for (const FaceBlocks& b : pattern_.faces) face_blocks_.insert(face_blocks_.end(), {b.ll, b.lr, b.rl, b.rr});
  if (!settings_.gas.admissible(settings_.free_stream)) throw Error("the free-stream state is not admissible");
}

std::vector<Vec2> EulerDiscretisation::ghost_offsets() const {
  if (!settings_.boundary_ghost_gradients) return {};
  std::vector<Vec2> offsets;
  offsets.reserve(std::size_t(mesh_.num_faces() - mesh_.num_interior_faces));
  for (index_t f = mesh_.num_interior_faces; f < mesh_.num_faces(); ++f) {
    const Vec2 x = geometry_.cell_centroid[std::size_t(mesh_.faces[std::size_t(f)].left)];
    const Vec2 m = geometry_.face_midpoint[std::size_t(f)], n = geometry_.face_normal[std::size_t(f)];
    if (boundary_kind(f) == BoundaryKind::FarField) {
      offsets.push_back({m.x - x.x, m.y - x.y});
    } else {
      // The centroid mirrored in the wall's line.
      const double d = (m.x - x.x) * n.x + (m.y - x.y) * n.y;
      offsets.push_back({2.0 * d * n.x, 2.0 * d * n.y});
    }
  }
  return offsets;
}

void EulerDiscretisation::compute_gradients(const std::vector<State>& w) {
  // Per cell its primitives, per boundary face its ghost's, then per cell the
  // gradient (kernels.hpp): the sums of the sequential face loop, bit for bit.
  const MeshView m = kernel_mesh_.view();
  primitive_.resize(w.size());
  grad_.resize(w.size());
  kernels::cell_primitives(Backend::host, index_t(w.size()), settings_.gas, w.front().data(),
                           primitive_.front().data());
  const double* ghost = nullptr;
  if (gradients_.has_ghosts()) {
    ghost_primitive_.resize(std::size_t(mesh_.num_faces()));
    FlowView q;
    q.w = w.front().data();
    if (mms_) q.outside = mms_outside_.front().data();
    kernels::ghost_primitives(Backend::host, m, scheme_, q, ghost_primitive_.front().data());
    ghost = ghost_primitive_.front().data();
  }
  kernels::least_squares_gradients(Backend::host, m, primitive_.front().data(), ghost, grad_.front().data());
}

void EulerDiscretisation::reconstruct(const std::vector<State>& w) {
  compute_gradients(w);
  if (settings_.limiter) {
    phi_.resize(w.size());
    kernels::limiter_phi(Backend::host, kernel_mesh_.view(), primitive_.front().data(), grad_.front().data(),
                         phi_.front().data());
  } else {
    phi_.assign(w.size(), State{1.0, 1.0, 1.0, 1.0});
  }
}

State EulerDiscretisation::reconstructed(const std::vector<State>& w, index_t cell, const Vec2& at) const {
  // The face loops' reconstruction (loop_bodies.hpp): an overshoot to a
  // non-physical face state falls back to first order there.
  return bodies::reconstructed(kernel_mesh_.view(), scheme_, flow_view(w, 2), cell, at.x, at.y);
}

State EulerDiscretisation::face_state(const std::vector<State>& w, int order, index_t face) const {
  const index_t left = mesh_.faces[std::size_t(face)].left;
  return order == 2 ? reconstructed(w, left, geometry_.face_midpoint[std::size_t(face)]) : w[std::size_t(left)];
}

void EulerDiscretisation::residual(const std::vector<State>& w, int order, std::vector<State>& r) {
  if (order != 1 && order != 2) throw Error("residual: order " + std::to_string(order) + " (expected 1 or 2)");
  if (order == 2)
    reconstruct(w);
  else if (settings_.viscous.enabled())
    compute_gradients(w);
  // Each face's F |f| into its slot, then each cell sums its faces' slots in
  // face order: the sums of the sequential face loop, bit for bit (kernels.hpp).
  r.resize(w.size());
  face_values_.resize(std::max(face_values_.size(), std::size_t(num_vars) * std::size_t(mesh_.num_faces())));
  const MeshView m = kernel_mesh_.view();
  kernels::inviscid_face_fluxes(Backend::host, m, scheme_, flow_view(w, order), order, face_values_.data());
  kernels::gather_face_sums(Backend::host, m, FaceSign::out_of_left, num_vars, face_values_.data(),
                            doubles_of(r).data());
  if (settings_.viscous.enabled()) add_viscous_residual(w, r);
  if (mms_)
    for (std::size_t c = 0; c < r.size(); ++c)
      for (std::size_t k = 0; k < num_vars; ++k) r[c][k] -= mms_source_[c][k];
}

FlowView EulerDiscretisation::flow_view(const std::vector<State>& w, int order) const {
  FlowView q;
  q.w = w.empty() ? nullptr : w.front().data();
  if (order == 2) q.primitive = primitive_.front().data(), q.grad = grad_.front().data(), q.phi = phi_.front().data();
  if (mms_) q.outside = mms_outside_.front().data();
  return q;
}

double EulerDiscretisation::wall_pressure(const std::vector<State>& w, int order, index_t face) const {
  return bodies::wall_pressure(kernel_mesh_.view(), scheme_, flow_view(w, order), order, face);
}

State EulerDiscretisation::wall_forces(const std::vector<State>& w, int order, index_t owned) const {
  const MeshView m = kernel_mesh_.view();
  face_values_.resize(std::max(face_values_.size(), std::size_t(num_vars) * std::size_t(mesh_.num_faces())));
  kernels::wall_forces(Backend::host, m, scheme_, flow_view(w, order), order, owned, face_values_.data());
  return kernels::ordered_sums(Backend::host, m.num_faces, face_values_.data());
}

void EulerDiscretisation::set_manufactured(const ManufacturedSolution* mms) {
  mms_ = mms;
  if (!mms) return;
  mms_source_ = manufactured_sources(mesh_, *mms);
  mms_outside_.assign(std::size_t(mesh_.num_faces()), settings_.free_stream);
  mms_viscous_flux_.assign(std::size_t(mesh_.num_faces()), State{});
  for (index_t f = mesh_.num_interior_faces; f < mesh_.num_faces(); ++f) {
    const Vec2 x = geometry_.face_midpoint[std::size_t(f)];
    mms_outside_[std::size_t(f)] = mms->conserved(x);
    mms_viscous_flux_[std::size_t(f)] = mms->viscous_flux(x, geometry_.face_normal[std::size_t(f)]);
  }
}

void EulerDiscretisation::spectral_radius_sums(const std::vector<State>& w, std::vector<double>& sums) const {
  sums.resize(w.size());
  face_values_.resize(std::max(face_values_.size(), std::size_t(mesh_.num_faces())));
  const MeshView m = kernel_mesh_.view();
  kernels::spectral_radius_faces(Backend::host, m, scheme_, w.front().data(), face_values_.data());
  kernels::gather_face_sums(Backend::host, m, FaceSign::both, 1, face_values_.data(), sums.data());
}

void EulerDiscretisation::assemble_jacobian(const std::vector<State>& w, const std::vector<double>& shift, BsrMatrix& a,
                                            BsrMatrix* off_rank) const {
  if (!a.same_pattern(pattern_.matrix)) throw Error("assemble_jacobian: the matrix does not have the mesh's pattern");
  constexpr std::size_t block_entries = num_vars * num_vars;
  a.values.assign(a.col_idx.size() * block_entries, 0.0);  // allocates on the first call only
  if (off_rank) {
    if (!off_rank->same_pattern(pattern_.off_rank))
      throw Error("assemble_jacobian: the off-rank matrix does not have the piece's pattern");
    off_rank->values.assign(off_rank->col_idx.size() * block_entries, 0.0);
  } else if (pattern_.off_rank.nnz_blocks() > 0) {
    throw Error("assemble_jacobian: a piece with ghost columns needs its off-rank matrix");
  }
  // Each face's two blocks into its slots, then each row adds its faces' blocks
  // in face order, as the sequential face loop does (kernels.hpp).
  face_values_.resize(std::max(face_values_.size(), std::size_t(32) * std::size_t(mesh_.num_faces())));
  const MeshView m = kernel_mesh_.view();
  kernels::jacobian_face_blocks(Backend::host, m, scheme_, flow_view(w, 1), face_values_.data());
  kernels::gather_jacobian_rows(Backend::host, m, face_values_.data(),
                                {face_blocks_.data(), a.values.data(), off_rank ? off_rank->values.data() : nullptr});
  if (settings_.viscous.enabled()) add_viscous_jacobian(w, a, off_rank);
  kernels::add_diagonal_shift(Backend::host, index_t(w.size()), pattern_.diagonal.data(), shift.data(),
                              a.values.data());
}

}  // namespace tb::compressible
