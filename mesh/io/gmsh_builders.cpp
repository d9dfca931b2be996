// What the Gmsh readers hand over, kept as a Mesh2D or a TetrahedralMesh.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "mesh/io/gmsh_format.hpp"

namespace tb::gmsh {

void NodeNumbering::reserve(const TextReader& in, long long n) {
  if (n < 0) in.fail("negative node count");
  index_.reserve(static_cast<std::size_t>(std::min<long long>(n, 1 << 22)));
}

index_t NodeNumbering::add(const TextReader& in, long long tag) {
  if (tag < 1) in.fail("node tag " + std::to_string(tag) + ": Gmsh tags start at 1");
  if (size() == std::numeric_limits<index_t>::max()) in.fail("too many nodes for 32-bit indices");
  const auto [it, fresh] = index_.emplace(tag, size());
  if (!fresh) in.fail("node tag " + std::to_string(tag) + " appears twice");
  return it->second;
}

index_t NodeNumbering::operator()(const TextReader& in, long long tag) const {
  auto it = index_.find(tag);
  if (it == index_.end()) in.fail("element refers to node " + std::to_string(tag) + ", which $Nodes does not list");
  return it->second;
}

void NodeNumbering::to_indices(const TextReader& in, const long long* tags, int n, index_t* nodes) const {
  for (int k = 0; k < n; ++k) {
    nodes[k] = (*this)(in, tags[k]);
    for (int l = 0; l < k; ++l)
      if (nodes[k] == nodes[l]) in.fail("element lists node " + std::to_string(tags[k]) + " twice");
  }
}

void MeshBuilder::reserve_nodes(long long n) {
  numbering_.reserve(in_, n);
  mesh_.nodes.reserve(static_cast<std::size_t>(std::min<long long>(n, 1 << 22)));
}

void MeshBuilder::add_node(long long tag, double x, double y, double z) {
  if (!have_z_) have_z_ = true, z0_ = z;
  // Tolerance relative to the coordinates: a plane mesh written with round-off in z is still planar.
  if (std::abs(z - z0_) > 1e-9 * (1.0 + std::abs(x) + std::abs(y)))
    in_.fail("node " + std::to_string(tag) + " has z = " + std::to_string(z) +
             " but the first node has z = " + std::to_string(z0_) + ": the mesh is not planar");
  numbering_.add(in_, tag);
  mesh_.nodes.push_back({x, y});
}

void MeshBuilder::add_element(int type, const long long* node_tags, int physical, int entity) {
  if (type == kPoint) return;
  if (type == kTetrahedron) in_.fail("element type 4 (tetrahedron) is a 3D element; tb::Mesh2D holds 2D meshes only");
  const int n = element_nodes(in_, type);
  index_t nodes[kMaxElementNodes];
  if (type == kLine) {
    for (int k = 0; k < n; ++k) nodes[k] = numbering_(in_, node_tags[k]);
    const auto key = std::make_pair(physical, physical == 0 ? entity : 0);
    auto it = marker_of_.emplace(key, static_cast<index_t>(marker_of_.size())).first;
    mesh_.boundary_edges.push_back({{nodes[0], nodes[1]}, it->second});
    return;
  }
  numbering_.to_indices(in_, node_tags, n, nodes);
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

void TetrahedraBuilder::reserve_nodes(long long n) {
  numbering_.reserve(in_, n);
  mesh_.nodes.reserve(static_cast<std::size_t>(std::min<long long>(n, 1 << 22)));
}

void TetrahedraBuilder::add_node(long long tag, double x, double y, double z) {
  numbering_.add(in_, tag);
  mesh_.nodes.push_back({x, y, z});
}

void TetrahedraBuilder::add_element(int type, const long long* node_tags, int, int) {
  const int n = element_nodes(in_, type);
  if (type != kTetrahedron) {
    // Boundary and geometry elements still must name listed nodes.
    for (int k = 0; k < n; ++k) numbering_(in_, node_tags[k]);
    return;
  }
  std::array<index_t, 4> cell;
  numbering_.to_indices(in_, node_tags, n, cell.data());
  mesh_.cells.push_back(cell);
}

TetrahedralMesh TetrahedraBuilder::finish() {
  if (mesh_.cells.empty())
    in_.fail(
        "the file holds no tetrahedra (mesh the volume with gmsh -3; are the tetrahedra outside every physical "
        "group?)");
  std::vector<char> in_a_cell(mesh_.nodes.size(), 0);
  for (const auto& cell : mesh_.cells)
    for (index_t v : cell) in_a_cell[std::size_t(v)] = 1;
  std::vector<index_t> renumber(mesh_.nodes.size(), -1);
  index_t used = 0;
  for (std::size_t v = 0; v < renumber.size(); ++v)
    if (in_a_cell[v]) mesh_.nodes[std::size_t(used)] = mesh_.nodes[v], renumber[v] = used++;
  mesh_.nodes.resize(std::size_t(used));
  for (auto& cell : mesh_.cells)
    for (index_t& v : cell) v = renumber[std::size_t(v)];
  return std::move(mesh_);
}

}  // namespace tb::gmsh
