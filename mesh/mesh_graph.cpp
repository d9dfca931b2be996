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

Graph cell_graph_through_nodes(const Mesh2D& mesh) {
  // The cells around each node (CSR), then every pair of them.
  std::vector<index_t> ptr(std::size_t(mesh.num_nodes()) + 1, 0), cells(mesh.cell_nodes.size());
  for (index_t n : mesh.cell_nodes) ++ptr[std::size_t(n) + 1];
  for (std::size_t n = 0; n + 1 < ptr.size(); ++n) ptr[n + 1] += ptr[n];
  std::vector<index_t> next(ptr.begin(), ptr.end() - 1);
  for (index_t c = 0; c < mesh.num_cells(); ++c)
    for (const index_t* n = mesh.cell_begin(c); n != mesh.cell_begin(c) + mesh.cell_size(c); ++n)
      cells[std::size_t(next[std::size_t(*n)]++)] = c;
  std::vector<std::pair<index_t, index_t>> edges;
  for (std::size_t n = 0; n + 1 < ptr.size(); ++n)
    for (index_t a = ptr[n]; a < ptr[n + 1]; ++a)
      for (index_t b = a + 1; b < ptr[n + 1]; ++b) edges.push_back({cells[std::size_t(a)], cells[std::size_t(b)]});
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
