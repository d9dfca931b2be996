#include "mesh/mesh_graph.hpp"

#include <utility>
#include <vector>

#include "mesh/mesh2d.hpp"
#include "mesh/tetrahedral_mesh.hpp"

namespace tb {

Graph cell_graph(const Mesh2D& mesh) {
  std::vector<std::pair<index_t, index_t>> edges;
  edges.reserve(mesh.num_interior_faces);
  for (index_t f = 0; f < mesh.num_interior_faces; ++f) edges.push_back({mesh.faces[f].left, mesh.faces[f].right});
  return graph_from_edges(mesh.num_cells(), edges);
}

Graph node_graph(const TetrahedralMesh& mesh) {
  std::vector<std::pair<index_t, index_t>> edges;
  edges.reserve(6 * mesh.cells.size());
  for (const auto& t : mesh.cells)
    for (int a = 0; a < 4; ++a)
      for (int b = a + 1; b < 4; ++b) edges.push_back({t[a], t[b]});
  return graph_from_edges(mesh.num_nodes(), edges);
}

}  // namespace tb
