#pragma once
// Pieces shared by the Gmsh 2.2 and 4.1 readers (internal to mesh/io). The
// readers parse the sections and hand nodes and elements to an ElementSink,
// which keeps what its mesh type holds: MeshBuilder a Mesh2D, TetrahedraBuilder
// a TetrahedralMesh.
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "mesh/io/text_reader.hpp"
#include "mesh/mesh2d.hpp"
#include "mesh/tetrahedral_mesh.hpp"

namespace tb::gmsh {

// Gmsh element type numbers (Gmsh reference manual, "MSH file format").
constexpr int kLine = 1;
constexpr int kTriangle = 2;
constexpr int kQuadrangle = 3;
constexpr int kTetrahedron = 4;
constexpr int kPoint = 15;
constexpr int kMaxElementNodes = 4;

// Nodes of a supported element type, or a ParseError naming the type.
int element_nodes(const TextReader& in, int type);

using PhysicalNames = std::map<std::pair<int, int>, std::string>;  // (dim, tag) -> name

class ElementSink {
 public:
  virtual ~ElementSink() = default;
  virtual void reserve_nodes(long long n) = 0;
  virtual void add_node(long long tag, double x, double y, double z) = 0;
  // `physical` 0 means the element lies in no physical group; `entity` then names the marker.
  virtual void add_element(int type, const long long* node_tags, int physical, int entity) = 0;
};

// Gmsh node tags to indices 0, 1, ... in the order the file lists the nodes.
class NodeNumbering {
 public:
  void reserve(const TextReader& in, long long n);
  // The new node's index; fails on a repeated tag or past 32-bit indices.
  index_t add(const TextReader& in, long long tag);
  // Fails on a tag $Nodes did not list.
  index_t operator()(const TextReader& in, long long tag) const;
  // Fails when an element lists one node twice.
  void to_indices(const TextReader& in, const long long* tags, int n, index_t* nodes) const;
  index_t size() const { return static_cast<index_t>(index_.size()); }

 private:
  std::unordered_map<long long, index_t> index_;
};

// Collects nodes, cells and marked edges under Gmsh's tags and makes a Mesh2D.
class MeshBuilder final : public ElementSink {
 public:
  explicit MeshBuilder(TextReader& in) : in_(in) {}
  void reserve_nodes(long long n) override;
  void add_node(long long tag, double x, double y, double z) override;
  void add_element(int type, const long long* node_tags, int physical, int entity) override;
  Mesh2D finish(const PhysicalNames& names);

 private:
  TextReader& in_;
  Mesh2D mesh_;
  NodeNumbering numbering_;
  std::map<std::pair<int, int>, index_t> marker_of_;  // (physical, entity if physical is 0) -> marker
  bool have_z_ = false;
  double z0_ = 0.0;
};

// Keeps the tetrahedra of a volume mesh; points, lines, triangles and
// quadrilaterals (its boundary and geometry) are skipped.
class TetrahedraBuilder final : public ElementSink {
 public:
  explicit TetrahedraBuilder(TextReader& in) : in_(in) {}
  void reserve_nodes(long long n) override;
  void add_node(long long tag, double x, double y, double z) override;
  void add_element(int type, const long long* node_tags, int physical, int entity) override;
  // Drops the nodes no tetrahedron uses (Gmsh saves those of every geometric entity).
  TetrahedralMesh finish();

 private:
  TextReader& in_;
  TetrahedralMesh mesh_;
  NodeNumbering numbering_;
};

PhysicalNames read_physical_names(TextReader& in);
// Skips a section this reader does not need, up to its $End line.
void skip_section(TextReader& in, const std::string& name);
// Fails unless the current line is `$End<name>`.
void expect_section_end(TextReader& in, const std::string& name);

// The sections after $MeshFormat, into `sink`; returns $PhysicalNames.
PhysicalNames read_gmsh2(TextReader& in, ElementSink& sink);
PhysicalNames read_gmsh4(TextReader& in, ElementSink& sink);

}  // namespace tb::gmsh
