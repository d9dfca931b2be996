#include "mesh/reorder.hpp"

#include <string>

#include "solvers/core/error.hpp"

namespace tb {

Mesh2D reorder_cells(const Mesh2D& mesh, const Permutation& p) {
  TB_REQUIRE(p.size() == mesh.num_cells(), "an ordering of " + std::to_string(p.size()) + " items for a mesh of " +
                                               std::to_string(mesh.num_cells()) + " cells");
  Mesh2D out;
  out.nodes = mesh.nodes;
  out.boundary_edges = mesh.boundary_edges;
  out.marker_names = mesh.marker_names;
  out.cell_nodes.reserve(mesh.cell_nodes.size());
  for (index_t old : p.new_to_old) out.add_cell(mesh.cell_begin(old), mesh.cell_size(old));
  build_faces(out);
  return out;
}

}  // namespace tb
