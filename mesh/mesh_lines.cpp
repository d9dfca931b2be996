#include "mesh/mesh_lines.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "mesh/mesh2d.hpp"
#include "solvers/core/error.hpp"

namespace tb {

std::vector<double> face_coupling_weights(const Mesh2D& mesh, const MeshGeometry& geom, const Graph& cells) {
  std::vector<double> weight(cells.col_idx.size(), 0.0);
  auto slot = [&](index_t v, index_t u) {
    return static_cast<std::size_t>(std::lower_bound(cells.begin(v), cells.end(v), u) - cells.col_idx.data());
  };
  for (index_t f = 0; f < mesh.num_interior_faces; ++f) {
    const Face& face = mesh.faces[f];
    const Vec2& l = geom.cell_centroid[face.left];
    const Vec2& r = geom.cell_centroid[face.right];
    const double d = std::hypot(r.x - l.x, r.y - l.y);
    const double w = d > 0.0 ? geom.face_length[f] / d : std::numeric_limits<double>::max();
    // Two cells sharing two faces (possible on coarse meshes) couple through both.
    weight[slot(face.left, face.right)] += w;
    weight[slot(face.right, face.left)] += w;
  }
  return weight;
}

Lines detect_mesh_lines(const Mesh2D& mesh, const MeshGeometry& geom, const Graph& cells, const LineOptions& opt) {
  std::vector<char> seed_marker(mesh.num_markers(), opt.seed_markers.empty() ? 1 : 0);
  for (const std::string& name : opt.seed_markers) {
    const index_t m = mesh.find_marker(name);
    if (m < 0) {
      std::string known;
      for (const std::string& k : mesh.marker_names) known += (known.empty() ? "" : ", ") + k;
      throw Error("no boundary marker named '" + name + "' (markers: " + known + ")");
    }
    seed_marker[m] = 1;
  }
  std::vector<index_t> seeds;
  for (index_t f = mesh.num_interior_faces; f < mesh.num_faces(); ++f)
    if (mesh.faces[f].marker >= 0 && seed_marker[mesh.faces[f].marker]) seeds.push_back(mesh.faces[f].left);
  return detect_lines(cells, face_coupling_weights(mesh, geom, cells), seeds, opt.threshold, opt.min_length);
}

}  // namespace tb
