#include <algorithm>
#include <limits>
#include <ostream>
#include <vector>

#include "mesh/io/gmsh_reader.hpp"
#include "solvers/core/atomic_file.hpp"

namespace tb {
namespace {

// Physical tags: marker m is curve group m+1; the cells are surface group
// num_markers+1, named "fluid".
std::vector<std::vector<index_t>> boundary_faces_by_marker(const Mesh2D& mesh) {
  std::vector<std::vector<index_t>> faces(mesh.num_markers());
  for (index_t f = mesh.num_interior_faces; f < mesh.num_faces(); ++f)
    if (mesh.faces[f].marker >= 0) faces[mesh.faces[f].marker].push_back(f);
  return faces;
}

void write_physical_names(std::ostream& out, const Mesh2D& mesh) {
  out << "$PhysicalNames\n" << mesh.num_markers() + 1 << "\n";
  for (index_t m = 0; m < mesh.num_markers(); ++m) out << "1 " << m + 1 << " \"" << mesh.marker_names[m] << "\"\n";
  out << "2 " << mesh.num_markers() + 1 << " \"fluid\"\n$EndPhysicalNames\n";
}

int gmsh_type(const Mesh2D& mesh, index_t c) { return mesh.cell_size(c) == 3 ? 2 : 3; }

void write_v22(std::ostream& out, const Mesh2D& mesh) {
  out << "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n";
  write_physical_names(out, mesh);
  out << "$Nodes\n" << mesh.num_nodes() << "\n";
  for (index_t i = 0; i < mesh.num_nodes(); ++i)
    out << i + 1 << " " << mesh.nodes[i].x << " " << mesh.nodes[i].y << " 0\n";
  out << "$EndNodes\n";
  const auto by_marker = boundary_faces_by_marker(mesh);
  std::size_t count = mesh.num_cells();
  for (const auto& f : by_marker) count += f.size();
  out << "$Elements\n" << count << "\n";
  long long tag = 1;
  for (index_t m = 0; m < mesh.num_markers(); ++m)
    for (index_t f : by_marker[m])
      out << tag++ << " 1 2 " << m + 1 << " " << m + 1 << " " << mesh.faces[f].nodes[0] + 1 << " "
          << mesh.faces[f].nodes[1] + 1 << "\n";
  const index_t fluid = mesh.num_markers() + 1;
  for (index_t c = 0; c < mesh.num_cells(); ++c) {
    out << tag++ << " " << gmsh_type(mesh, c) << " 2 " << fluid << " " << fluid;
    for (index_t k = 0; k < mesh.cell_size(c); ++k) out << " " << mesh.cell_begin(c)[k] + 1;
    out << "\n";
  }
  out << "$EndElements\n";
}

// 4.1 wants every element on a geometric entity: one curve per marker, one
// surface for the cells, all nodes classified on the surface.
void write_v41(std::ostream& out, const Mesh2D& mesh) {
  out << "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n";
  write_physical_names(out, mesh);
  const auto by_marker = boundary_faces_by_marker(mesh);
  const index_t fluid = mesh.num_markers() + 1;
  double lo[2] = {std::numeric_limits<double>::max(), std::numeric_limits<double>::max()};
  double hi[2] = {std::numeric_limits<double>::lowest(), std::numeric_limits<double>::lowest()};
  for (const Vec2& p : mesh.nodes)
    lo[0] = std::min(lo[0], p.x), lo[1] = std::min(lo[1], p.y), hi[0] = std::max(hi[0], p.x),
    hi[1] = std::max(hi[1], p.y);
  out << "$Entities\n0 " << mesh.num_markers() << " 1 0\n";
  for (index_t m = 0; m < mesh.num_markers(); ++m)
    out << m + 1 << " " << lo[0] << " " << lo[1] << " 0 " << hi[0] << " " << hi[1] << " 0 1 " << m + 1 << " 0\n";
  out << "1 " << lo[0] << " " << lo[1] << " 0 " << hi[0] << " " << hi[1] << " 0 1 " << fluid << " 0\n$EndEntities\n";

  out << "$Nodes\n1 " << mesh.num_nodes() << " 1 " << mesh.num_nodes() << "\n2 1 0 " << mesh.num_nodes() << "\n";
  for (index_t i = 0; i < mesh.num_nodes(); ++i) out << i + 1 << "\n";
  for (index_t i = 0; i < mesh.num_nodes(); ++i) out << mesh.nodes[i].x << " " << mesh.nodes[i].y << " 0\n";
  out << "$EndNodes\n";

  // Cells go in runs of one type, in cell order, so a reordered mesh reads back in the same order.
  std::vector<std::pair<index_t, index_t>> runs;  // [first, last) cells of one type
  for (index_t c = 0; c < mesh.num_cells(); ++c)
    if (runs.empty() || mesh.cell_size(c) != mesh.cell_size(runs.back().first))
      runs.push_back({c, c + 1});
    else
      runs.back().second = c + 1;
  std::size_t count = mesh.num_cells(), blocks = runs.size();
  for (const auto& f : by_marker) count += f.size(), blocks += !f.empty();
  out << "$Elements\n" << blocks << " " << count << " 1 " << count << "\n";
  long long tag = 1;
  for (index_t m = 0; m < mesh.num_markers(); ++m) {
    if (by_marker[m].empty()) continue;
    out << "1 " << m + 1 << " 1 " << by_marker[m].size() << "\n";
    for (index_t f : by_marker[m])
      out << tag++ << " " << mesh.faces[f].nodes[0] + 1 << " " << mesh.faces[f].nodes[1] + 1 << "\n";
  }
  for (const auto& [first, last] : runs) {
    out << "2 1 " << gmsh_type(mesh, first) << " " << last - first << "\n";
    for (index_t c = first; c < last; ++c) {
      out << tag++;
      for (index_t k = 0; k < mesh.cell_size(c); ++k) out << " " << mesh.cell_begin(c)[k] + 1;
      out << "\n";
    }
  }
  out << "$EndElements\n";
}

}  // namespace

void write_gmsh(const std::string& path, const Mesh2D& mesh, GmshVersion version) {
  write_atomically(path, [&](std::ostream& out) {
    if (version == GmshVersion::V22)
      write_v22(out, mesh);
    else
      write_v41(out, mesh);
  });
}

}  // namespace tb
