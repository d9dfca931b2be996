#include "physics/compressible/kernel_mesh.hpp"

#include <cmath>
#include <span>

namespace tb::compressible {

namespace {
// Null for an empty array: the views tell "absent" by a null pointer.
template <class T>
const T* or_null(const std::vector<T>& v) {
  return v.empty() ? nullptr : v.data();
}
}  // namespace

MeshView KernelMesh::view() const {
  MeshView v{num_cells,       num_faces,     face_left.data(),     face_right.data(),
             normal.data(),   length.data(), midpoint.data(),      centroid.data(),
             distance.data(), kind.data(),   cell_face_ptr.data(), cell_faces.data()};
  v.stencil_ptr = or_null(stencil_ptr), v.stencil_cells = or_null(stencil_cells);
  v.stencil_weighted = or_null(stencil_weighted), v.ls_inverse = or_null(ls_inverse);
  v.ghost_offset = or_null(ghost_offset), v.ls_face_weight = or_null(ls_face_weight);
  v.limiter_eps2 = or_null(limiter_eps2);
  return v;
}

KernelMesh build_kernel_mesh(const Mesh2D& mesh, const MeshGeometry& geometry, const std::vector<double>& face_distance,
                             const std::vector<BoundaryKind>& kinds_by_marker, const LeastSquaresGradients* gradients,
                             double limiter_k) {
  KernelMesh k;
  k.num_cells = mesh.num_cells();
  k.num_faces = mesh.num_faces();
  const std::size_t nf = std::size_t(k.num_faces), nc = std::size_t(k.num_cells);
  k.face_left.resize(nf), k.face_right.resize(nf), k.normal.resize(2 * nf), k.midpoint.resize(2 * nf);
  k.kind.assign(nf, BoundaryKind::FarField);
  k.length = geometry.face_length;
  k.distance = face_distance;
  k.cell_face_ptr.assign(nc + 1, 0);
  for (std::size_t f = 0; f < nf; ++f) {
    const Face& face = mesh.faces[f];
    k.face_left[f] = face.left, k.face_right[f] = face.right;
    k.normal[2 * f] = geometry.face_normal[f].x, k.normal[2 * f + 1] = geometry.face_normal[f].y;
    k.midpoint[2 * f] = geometry.face_midpoint[f].x, k.midpoint[2 * f + 1] = geometry.face_midpoint[f].y;
    if (face.is_boundary() && face.marker >= 0) k.kind[f] = kinds_by_marker[std::size_t(face.marker)];
    ++k.cell_face_ptr[std::size_t(face.left) + 1];
    if (!face.is_boundary()) ++k.cell_face_ptr[std::size_t(face.right) + 1];
  }
  k.centroid.resize(2 * nc);
  for (std::size_t c = 0; c < nc; ++c)
    k.centroid[2 * c] = geometry.cell_centroid[c].x, k.centroid[2 * c + 1] = geometry.cell_centroid[c].y;
  for (std::size_t c = 0; c < nc; ++c) k.cell_face_ptr[c + 1] += k.cell_face_ptr[c];
  // Faces in ascending order per cell: the order the sequential face loop adds them.
  k.cell_faces.resize(std::size_t(k.cell_face_ptr[nc]));
  std::vector<index_t> next(k.cell_face_ptr.begin(), k.cell_face_ptr.end() - 1);
  for (std::size_t f = 0; f < nf; ++f) {
    const Face& face = mesh.faces[f];
    k.cell_faces[std::size_t(next[std::size_t(face.left)]++)] = index_t(f);
    if (!face.is_boundary()) k.cell_faces[std::size_t(next[std::size_t(face.right)]++)] = index_t(f);
  }
  k.limiter_eps2.resize(nc);
  for (std::size_t c = 0; c < nc; ++c) k.limiter_eps2[c] = std::pow(limiter_k * std::sqrt(geometry.cell_area[c]), 3);
  if (!gradients) return k;
  k.stencil_ptr = gradients->stencil_ptr();
  k.stencil_cells = gradients->stencil_cells();
  for (const Vec2& w : gradients->stencil_weighted()) k.stencil_weighted.insert(k.stencil_weighted.end(), {w.x, w.y});
  for (const auto& inv : gradients->inverse()) k.ls_inverse.insert(k.ls_inverse.end(), inv.begin(), inv.end());
  // 1 / |d|^2 per face, as the sequential loops computed it, once here.
  const auto weight = [](double dx, double dy) { return 1.0 / (dx * dx + dy * dy); };
  k.ls_face_weight.assign(nf, 0.0);
  for (std::size_t f = 0; f < std::size_t(mesh.num_interior_faces); ++f) {
    const std::size_t l = std::size_t(k.face_left[f]), r = std::size_t(k.face_right[f]);
    k.ls_face_weight[f] = weight(k.centroid[2 * r] - k.centroid[2 * l], k.centroid[2 * r + 1] - k.centroid[2 * l + 1]);
  }
  if (gradients->has_ghosts()) {
    k.ghost_offset.assign(2 * nf, 0.0);
    const std::size_t first = std::size_t(mesh.num_interior_faces);
    for (std::size_t b = 0; b < gradients->ghost_offsets().size(); ++b) {
      const Vec2 d = gradients->ghost_offsets()[b];
      k.ghost_offset[2 * (first + b)] = d.x, k.ghost_offset[2 * (first + b) + 1] = d.y;
      k.ls_face_weight[first + b] = weight(d.x, d.y);
    }
  }
  return k;
}

namespace {
template <class T>
Array<T> upload(Backend b, const std::vector<T>& v) {
  return Array<T>(b, std::span<const T>(v));
}
}  // namespace

MeshOnBackend::MeshOnBackend(Backend b, const KernelMesh& m)
    : num_cells_(m.num_cells),
      num_faces_(m.num_faces),
      face_left_(upload(b, m.face_left)),
      face_right_(upload(b, m.face_right)),
      cell_face_ptr_(upload(b, m.cell_face_ptr)),
      cell_faces_(upload(b, m.cell_faces)),
      stencil_ptr_(upload(b, m.stencil_ptr)),
      stencil_cells_(upload(b, m.stencil_cells)),
      normal_(upload(b, m.normal)),
      length_(upload(b, m.length)),
      midpoint_(upload(b, m.midpoint)),
      centroid_(upload(b, m.centroid)),
      distance_(upload(b, m.distance)),
      stencil_weighted_(upload(b, m.stencil_weighted)),
      ls_inverse_(upload(b, m.ls_inverse)),
      ghost_offset_(upload(b, m.ghost_offset)),
      ls_face_weight_(upload(b, m.ls_face_weight)),
      limiter_eps2_(upload(b, m.limiter_eps2)),
      kind_(upload(b, m.kind)) {}

MeshView MeshOnBackend::view() const {
  MeshView v{num_cells_,       num_faces_,     face_left_.data(),     face_right_.data(),
             normal_.data(),   length_.data(), midpoint_.data(),      centroid_.data(),
             distance_.data(), kind_.data(),   cell_face_ptr_.data(), cell_faces_.data()};
  // An empty Array's data() is null: absent stays absent.
  v.stencil_ptr = stencil_ptr_.data(), v.stencil_cells = stencil_cells_.data();
  v.stencil_weighted = stencil_weighted_.data(), v.ls_inverse = ls_inverse_.data();
  v.ghost_offset = ghost_offset_.data(), v.ls_face_weight = ls_face_weight_.data();
  v.limiter_eps2 = limiter_eps2_.data();
  return v;
}

}  // namespace tb::compressible
