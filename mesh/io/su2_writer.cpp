#include <ostream>
#include <vector>

#include "mesh/io/su2_format.hpp"
#include "solvers/core/atomic_file.hpp"

namespace tb {

void write_su2(const std::string& path, const Mesh2D& mesh) {
  write_atomically(path, [&](std::ostream& out) {
    out << "%\n% Written by tb::write_su2\n%\nNDIME= 2\nNELEM= " << mesh.num_cells() << "\n";
    for (index_t c = 0; c < mesh.num_cells(); ++c) {
      out << (mesh.cell_size(c) == 3 ? 5 : 9);
      for (index_t k = 0; k < mesh.cell_size(c); ++k) out << " " << mesh.cell_begin(c)[k];
      out << " " << c << "\n";
    }
    out << "NPOIN= " << mesh.num_nodes() << "\n";
    for (index_t i = 0; i < mesh.num_nodes(); ++i) out << mesh.nodes[i].x << " " << mesh.nodes[i].y << " " << i << "\n";
    std::vector<std::vector<index_t>> by_marker(mesh.num_markers());
    for (index_t f = mesh.num_interior_faces; f < mesh.num_faces(); ++f)
      if (mesh.faces[f].marker >= 0) by_marker[mesh.faces[f].marker].push_back(f);
    out << "NMARK= " << mesh.num_markers() << "\n";
    for (index_t m = 0; m < mesh.num_markers(); ++m) {
      out << "MARKER_TAG= " << mesh.marker_names[m] << "\nMARKER_ELEMS= " << by_marker[m].size() << "\n";
      for (index_t f : by_marker[m]) out << "3 " << mesh.faces[f].nodes[0] << " " << mesh.faces[f].nodes[1] << "\n";
    }
  });
}

}  // namespace tb
