#pragma once
// Pieces shared by the Gmsh 2.2 and 4.1 readers (internal to mesh/io).
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "mesh/io/text_reader.hpp"
#include "mesh/mesh2d.hpp"

namespace tb::gmsh {

// Gmsh element type numbers (Gmsh reference manual, "MSH file format").
constexpr int kLine = 1;
constexpr int kTriangle = 2;
constexpr int kQuadrangle = 3;
constexpr int kPoint = 15;

// Nodes of a supported element type, or a ParseError naming the type.
int element_nodes(const TextReader& in, int type);

using PhysicalNames = std::map<std::pair<int, int>, std::string>;  // (dim, tag) -> name

// Collects nodes, cells and marked edges under Gmsh's tags and makes a Mesh2D.
class MeshBuilder {
 public:
  explicit MeshBuilder(TextReader& in) : in_(in) {}
  void reserve_nodes(long long n);
  void add_node(long long tag, double x, double y, double z);
  // `physical` 0 means the element lies in no physical group; `entity` then names the marker.
  void add_element(int type, const long long* node_tags, int physical, int entity);
  Mesh2D finish(const PhysicalNames& names);

 private:
  index_t node(long long tag);
  TextReader& in_;
  Mesh2D mesh_;
  std::unordered_map<long long, index_t> node_index_;
  std::map<std::pair<int, int>, index_t> marker_of_;  // (physical, entity if physical is 0) -> marker
  bool have_z_ = false;
  double z0_ = 0.0;
};

PhysicalNames read_physical_names(TextReader& in);
// Skips a section this reader does not need, up to its $End line.
void skip_section(TextReader& in, const std::string& name);
// Fails unless the current line is `$End<name>`.
void expect_section_end(TextReader& in, const std::string& name);

Mesh2D read_gmsh2(TextReader& in);
Mesh2D read_gmsh4(TextReader& in);

}  // namespace tb::gmsh
