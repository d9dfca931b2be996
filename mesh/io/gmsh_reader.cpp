// Gmsh ASCII meshes, formats 2.2 and 4.1: the version line picks the reader.
#include "mesh/io/gmsh_reader.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "mesh/io/gmsh_format.hpp"
#include "solvers/core/error.hpp"

namespace tb {
namespace gmsh {

int element_nodes(const TextReader& in, int type) {
  switch (type) {
    case kLine:
      return 2;
    case kTriangle:
      return 3;
    case kQuadrangle:
      return 4;
    case kPoint:
      return 1;
    case 4:
    case 5:
    case 6:
    case 7:
    case 11:
    case 12:
    case 13:
    case 14:
    case 17:
    case 18:
    case 19:
      in.fail("element type " + std::to_string(type) + " is a 3D element; tb::Mesh2D holds 2D meshes only");
    case 8:
    case 9:
    case 10:
    case 16:
    case 20:
    case 21:
    case 22:
    case 23:
    case 24:
    case 25:
    case 26:
    case 27:
    case 28:
      in.fail("element type " + std::to_string(type) +
              " is a high-order element; tb::Mesh2D holds linear triangles and quadrilaterals (mesh with -order 1)");
    default:
      in.fail("unknown Gmsh element type " + std::to_string(type));
  }
}

void MeshBuilder::reserve_nodes(long long n) {
  if (n < 0) in_.fail("negative node count");
  const auto r = static_cast<std::size_t>(std::min<long long>(n, 1 << 22));
  mesh_.nodes.reserve(r);
  node_index_.reserve(r);
}

void MeshBuilder::add_node(long long tag, double x, double y, double z) {
  if (!have_z_) have_z_ = true, z0_ = z;
  // Tolerance relative to the coordinates: a plane mesh written with round-off in z is still planar.
  if (std::abs(z - z0_) > 1e-9 * (1.0 + std::abs(x) + std::abs(y)))
    in_.fail("node " + std::to_string(tag) + " has z = " + std::to_string(z) +
             " but the first node has z = " + std::to_string(z0_) + ": the mesh is not planar");
  if (mesh_.num_nodes() == std::numeric_limits<index_t>::max()) in_.fail("too many nodes for 32-bit indices");
  if (!node_index_.emplace(tag, mesh_.num_nodes()).second)
    in_.fail("node tag " + std::to_string(tag) + " appears twice");
  mesh_.nodes.push_back({x, y});
}

index_t MeshBuilder::node(long long tag) {
  auto it = node_index_.find(tag);
  if (it == node_index_.end())
    in_.fail("element refers to node " + std::to_string(tag) + ", which $Nodes does not list");
  return it->second;
}

void MeshBuilder::add_element(int type, const long long* node_tags, int physical, int entity) {
  if (type == kPoint) return;
  const int n = element_nodes(in_, type);
  index_t nodes[4];
  for (int k = 0; k < n; ++k) nodes[k] = node(node_tags[k]);
  if (type == kLine) {
    const auto key = std::make_pair(physical, physical == 0 ? entity : 0);
    auto it = marker_of_.emplace(key, static_cast<index_t>(marker_of_.size())).first;
    mesh_.boundary_edges.push_back({{nodes[0], nodes[1]}, it->second});
    return;
  }
  for (int k = 0; k < n; ++k)
    for (int l = 0; l < k; ++l)
      if (nodes[k] == nodes[l]) in_.fail("element lists node " + std::to_string(node_tags[k]) + " twice");
  mesh_.add_cell(nodes, n);
}

Mesh2D MeshBuilder::finish(const PhysicalNames& names) {
  mesh_.marker_names.assign(marker_of_.size(), "");
  for (const auto& [key, marker] : marker_of_) {
    const auto [physical, entity] = key;
    auto it = names.find({1, physical});
    mesh_.marker_names[marker] = physical == 0       ? "curve" + std::to_string(entity)
                                 : it != names.end() ? it->second
                                                     : std::to_string(physical);
  }
  if (mesh_.num_cells() == 0)
    in_.fail("the file holds no triangles or quadrilaterals (are the 2D elements outside every physical group?)");
  build_faces(mesh_);
  return std::move(mesh_);
}

PhysicalNames read_physical_names(TextReader& in) {
  PhysicalNames names;
  in.require_line("$PhysicalNames");
  in.expect_tokens(1, 1, "number of physical names");
  const long long n = in.integer(0, "number of physical names");
  for (long long i = 0; i < n; ++i) {
    in.require_line("$PhysicalNames");
    in.expect_tokens(3, std::numeric_limits<std::size_t>::max(), "physical name (dim tag \"name\")");
    const int dim = static_cast<int>(in.integer(0, "physical dimension"));
    const int tag = static_cast<int>(in.integer(1, "physical tag"));
    std::string_view raw = in.raw_line();
    const auto open = raw.find('"'), close = raw.rfind('"');
    std::string name = open != close && close != std::string_view::npos
                           ? std::string(raw.substr(open + 1, close - open - 1))
                           : std::string(in.tokens()[2]);
    names[{dim, tag}] = name;
  }
  in.require_line("$EndPhysicalNames");
  expect_section_end(in, "PhysicalNames");
  return names;
}

void skip_section(TextReader& in, const std::string& name) {
  const std::string end = "$End" + name;
  do in.require_line(end);
  while (in.tokens()[0] != end);
}

void expect_section_end(TextReader& in, const std::string& name) {
  if (in.tokens()[0] != "$End" + name)
    in.fail("expected $End" + name + ", found '" + std::string(in.tokens()[0]) + "' (does the count at the start of $" +
            name + " match the entries?)");
}

}  // namespace gmsh

Mesh2D read_gmsh(const std::string& path) {
  TextReader in(path);
  if (!in.next_line() || in.tokens()[0] != "$MeshFormat")
    in.fail("not a Gmsh mesh: the file must start with $MeshFormat");
  in.require_line("$MeshFormat");
  in.expect_tokens(3, 3, "$MeshFormat (version file-type data-size)");
  const std::string version(in.tokens()[0]);
  if (in.tokens()[1] != "0") in.fail("binary Gmsh files are not supported: save as ASCII (gmsh ... -bin 0)");
  in.require_line("$EndMeshFormat");
  gmsh::expect_section_end(in, "MeshFormat");
  if (version.rfind("2.", 0) == 0) return gmsh::read_gmsh2(in);
  if (version == "4.1") return gmsh::read_gmsh4(in);
  in.fail("Gmsh format " + version + " is not supported: use 2.2 or 4.1 (gmsh ... -format msh22)");
}

}  // namespace tb
