#include "physics/compressible/kernel_mesh.hpp"

#include <span>

namespace tb::compressible {

MeshView KernelMesh::view() const {
  return {num_cells,       num_faces,     face_left.data(),     face_right.data(),
          normal.data(),   length.data(), midpoint.data(),      centroid.data(),
          distance.data(), kind.data(),   cell_face_ptr.data(), cell_faces.data()};
}

KernelMesh build_kernel_mesh(const Mesh2D& mesh, const MeshGeometry& geometry, const std::vector<double>& face_distance,
                             const std::vector<BoundaryKind>& kinds_by_marker) {
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
      normal_(upload(b, m.normal)),
      length_(upload(b, m.length)),
      midpoint_(upload(b, m.midpoint)),
      centroid_(upload(b, m.centroid)),
      distance_(upload(b, m.distance)),
      kind_(upload(b, m.kind)) {}

MeshView MeshOnBackend::view() const {
  return {num_cells_,       num_faces_,     face_left_.data(),     face_right_.data(),
          normal_.data(),   length_.data(), midpoint_.data(),      centroid_.data(),
          distance_.data(), kind_.data(),   cell_face_ptr_.data(), cell_faces_.data()};
}

}  // namespace tb::compressible
