#pragma once
// The mesh as kernels.hpp's loops read it: flat arrays built once per mesh on
// the host (KernelMesh), and a copy of them on a backend (MeshOnBackend), the
// one upload a device run makes of its geometry.
#include <vector>

#include "mesh/geometry.hpp"
#include "physics/compressible/gradients.hpp"
#include "physics/compressible/kernels.hpp"
#include "solvers/core/array.hpp"

namespace tb::compressible {

struct KernelMesh {
  index_t num_cells = 0, num_faces = 0;
  std::vector<index_t> face_left, face_right;
  std::vector<double> normal, length, midpoint, centroid, distance;
  std::vector<BoundaryKind> kind;
  std::vector<index_t> cell_face_ptr, cell_faces;  // each cell's faces, ascending
  // The reconstruction's (MeshView): empty where absent.
  std::vector<index_t> stencil_ptr, stencil_cells;
  std::vector<double> stencil_weighted, ls_inverse, ghost_offset, ls_face_weight, limiter_eps2;

  MeshView view() const;
};

// `face_distance` per face (EulerDiscretisation::face_distance), `kinds_by_marker`
// per marker of the mesh; the least-squares stencils of `gradients` (null: no
// second-order reconstruction) and the limiter's eps^2 = (K h)^3, h = sqrt(cell
// area), K = limiter_k.
KernelMesh build_kernel_mesh(const Mesh2D& mesh, const MeshGeometry& geometry, const std::vector<double>& face_distance,
                             const std::vector<BoundaryKind>& kinds_by_marker,
                             const LeastSquaresGradients* gradients = nullptr, double limiter_k = 5.0);

// KernelMesh's arrays copied onto a backend once; view() points into them.
class MeshOnBackend {
 public:
  MeshOnBackend(Backend b, const KernelMesh& mesh);
  MeshView view() const;

 private:
  index_t num_cells_ = 0, num_faces_ = 0;
  Array<index_t> face_left_, face_right_, cell_face_ptr_, cell_faces_, stencil_ptr_, stencil_cells_;
  Array<double> normal_, length_, midpoint_, centroid_, distance_, stencil_weighted_, ls_inverse_, ghost_offset_,
      ls_face_weight_, limiter_eps2_;
  Array<BoundaryKind> kind_;
};

}  // namespace tb::compressible
