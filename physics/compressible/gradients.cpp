#include "physics/compressible/gradients.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "mesh/mesh_graph.hpp"
#include "solvers/core/error.hpp"

namespace tb::compressible {

GradientStencil parse_gradient_stencil(const std::string& name) {
  if (name == "faces") return GradientStencil::Faces;
  if (name == "nodes") return GradientStencil::Nodes;
  if (name == "triangle_nodes") return GradientStencil::TriangleNodes;
  throw Error("'" + name + "': expected faces, nodes or triangle_nodes");
}

namespace {

// Per cell the cells its gradient reads, ascending (CSR in a Graph's layout;
// not symmetric for TriangleNodes: a quadrilateral beside a triangle's corner
// is read by the triangle, not the other way).
Graph stencil_lists(const Mesh2D& mesh, GradientStencil stencil) {
  if (stencil == GradientStencil::Faces) return cell_graph(mesh);
  Graph nodes = cell_graph_through_nodes(mesh);
  if (stencil == GradientStencil::Nodes) return nodes;
  const Graph faces = cell_graph(mesh);
  Graph lists;
  for (index_t c = 0; c < mesh.num_cells(); ++c) {
    const Graph& g = mesh.cell_type(c) == CellType::Triangle ? nodes : faces;
    lists.col_idx.insert(lists.col_idx.end(), g.begin(c), g.end(c));
    lists.row_ptr.push_back(index_t(lists.col_idx.size()));
  }
  return lists;
}

}  // namespace

Graph reconstruction_graph(const Mesh2D& mesh, GradientStencil stencil) {
  if (stencil != GradientStencil::TriangleNodes) return stencil_lists(mesh, stencil);
  const Graph lists = stencil_lists(mesh, stencil);
  std::vector<std::pair<index_t, index_t>> edges;
  for (index_t c = 0; c < lists.size(); ++c)
    for (const index_t* j = lists.begin(c); j != lists.end(c); ++j) edges.push_back({c, *j});
  return graph_from_edges(mesh.num_cells(), edges);
}

LeastSquaresGradients::LeastSquaresGradients(const Mesh2D& mesh, const MeshGeometry& geometry,
                                             std::vector<Vec2> ghost_offsets, GradientStencil stencil)
    : ghost_offsets_(std::move(ghost_offsets)), inverse_(std::size_t(mesh.num_cells())) {
  const index_t boundary_faces = mesh.num_faces() - mesh.num_interior_faces;
  if (!ghost_offsets_.empty() && index_t(ghost_offsets_.size()) != boundary_faces)
    throw Error("LeastSquaresGradients: " + std::to_string(ghost_offsets_.size()) + " ghost offsets for " +
                std::to_string(boundary_faces) + " boundary faces");
  std::vector<std::array<double, 3>> normal(std::size_t(mesh.num_cells()), {0.0, 0.0, 0.0});
  const auto add = [&](index_t c, double dx, double dy) {
    const double w2 = 1.0 / (dx * dx + dy * dy);
    auto& m = normal[std::size_t(c)];
    m[0] += w2 * dx * dx, m[1] += w2 * dx * dy, m[2] += w2 * dy * dy;
  };
  // TriangleNodes on a mesh without triangles is Faces: summed face by face, as
  // before the stencils, so that quadrilateral meshes keep their results bit for bit.
  bool triangles = false;
  for (index_t c = 0; c < mesh.num_cells() && !triangles; ++c) triangles = mesh.cell_type(c) == CellType::Triangle;
  if (stencil == GradientStencil::Faces || (stencil == GradientStencil::TriangleNodes && !triangles)) {
    for (index_t f = 0; f < mesh.num_interior_faces; ++f) {
      const Face& face = mesh.faces[std::size_t(f)];
      const Vec2 a = geometry.cell_centroid[std::size_t(face.left)],
                 b = geometry.cell_centroid[std::size_t(face.right)];
      add(face.left, b.x - a.x, b.y - a.y);
      add(face.right, b.x - a.x, b.y - a.y);
    }
  } else {
    Graph lists = stencil_lists(mesh, stencil);
    stencil_ptr_ = std::move(lists.row_ptr), stencil_cells_ = std::move(lists.col_idx);
    stencil_weighted_.resize(stencil_cells_.size());
    for (index_t c = 0; c < mesh.num_cells(); ++c)
      for (index_t k = stencil_ptr_[std::size_t(c)]; k < stencil_ptr_[std::size_t(c) + 1]; ++k) {
        const Vec2 a = geometry.cell_centroid[std::size_t(c)],
                   b = geometry.cell_centroid[std::size_t(stencil_cells_[std::size_t(k)])];
        const double dx = b.x - a.x, dy = b.y - a.y, w2 = 1.0 / (dx * dx + dy * dy);
        add(c, dx, dy);
        stencil_weighted_[std::size_t(k)] = {w2 * dx, w2 * dy};
      }
  }
  for (std::size_t b = 0; b < ghost_offsets_.size(); ++b)
    add(mesh.faces[std::size_t(mesh.num_interior_faces) + b].left, ghost_offsets_[b].x, ghost_offsets_[b].y);
  for (std::size_t c = 0; c < normal.size(); ++c) {
    const auto& m = normal[c];
    const double det = m[0] * m[2] - m[1] * m[1];
    // The weighted normal matrix is dimensionless (unit weighted directions), so
    // an absolute threshold separates "spans the plane" from "degenerate".
    inverse_[c] =
        det > 1e-10 ? std::array<double, 3>{m[2] / det, -m[1] / det, m[0] / det} : std::array<double, 3>{0.0, 0.0, 0.0};
  }
}

}  // namespace tb::compressible
