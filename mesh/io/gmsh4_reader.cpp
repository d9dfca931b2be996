// Gmsh ASCII format 4.1: nodes and elements come in blocks per geometric entity,
// and the physical groups of each entity are listed in $Entities.
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "mesh/io/gmsh_format.hpp"

namespace tb::gmsh {
namespace {

constexpr std::size_t kAny = std::numeric_limits<std::size_t>::max();
// The fewest bytes of a node: its tag line "1" and its coordinates "0 0 0",
// each with its newline; what a node count may reserve.
constexpr std::size_t kMinNode = 8;

// Curve tag -> its first physical tag (0: in no group). Points, surfaces and
// volumes carry nothing a 2D mesh's boundary markers need.
std::map<int, int> read_entities(TextReader& in) {
  in.require_line("$Entities");
  in.expect_tokens(4, 4, "entity counts (points curves surfaces volumes)");
  long long count[4];
  for (int d = 0; d < 4; ++d) count[d] = in.count(std::size_t(d), "number of entities");
  std::map<int, int> curve_physical;
  for (int d = 0; d < 4; ++d)
    for (long long i = 0; i < count[d]; ++i) {
      in.require_line("$Entities");
      if (d != 1) continue;
      // curveTag minX minY minZ maxX maxY maxZ numPhysicalTags physicalTag... numBoundingPoints pointTag...
      in.expect_tokens(9, kAny, "curve entity");
      const long long nphys = in.integer(7, "number of physical tags");
      if (nphys < 0 || 8 + static_cast<std::size_t>(nphys) >= in.tokens().size())
        in.fail("curve entity: " + std::to_string(nphys) + " physical tags do not fit on the line");
      curve_physical[in.to_int(in.tokens()[0], "curve tag")] =
          nphys > 0 ? in.to_int(in.tokens()[8], "physical tag") : 0;
    }
  in.require_line("$EndEntities");
  expect_section_end(in, "Entities");
  return curve_physical;
}

void read_nodes(TextReader& in, ElementSink& sink) {
  in.require_line("$Nodes");
  in.expect_tokens(4, 4, "$Nodes header (numEntityBlocks numNodes minNodeTag maxNodeTag)");
  const long long blocks = in.count(0, "number of node blocks");
  const long long declared = in.count(1, "number of nodes");
  sink.reserve_nodes(in.affordable(declared, kMinNode));
  long long listed = 0;
  std::vector<long long> tags;
  for (long long b = 0; b < blocks; ++b) {
    in.require_line("$Nodes");
    in.expect_tokens(4, 4, "node block header (entityDim entityTag parametric numNodesInBlock)");
    const int dim = in.to_int(in.tokens()[0], "entity dimension");
    if (dim < 0 || dim > 3) in.fail("entity dimension " + std::to_string(dim) + " is not 0, 1, 2 or 3");
    const int parametric = in.to_int(in.tokens()[2], "parametric flag");
    if (parametric != 0 && parametric != 1) in.fail("parametric flag " + std::to_string(parametric) + " is not 0 or 1");
    const long long n = in.count(3, "number of nodes in block");
    listed += n;
    if (listed > declared)
      in.fail("the node blocks hold more than the " + std::to_string(declared) + " nodes the $Nodes header declares");
    const std::size_t values = 3 + (parametric ? static_cast<std::size_t>(dim) : 0);
    tags.clear();
    for (long long i = 0; i < n; ++i) {
      in.require_line("$Nodes");
      in.expect_tokens(1, 1, "node tag");
      tags.push_back(in.integer(0, "node tag"));
    }
    for (long long i = 0; i < n; ++i) {
      in.require_line("$Nodes");
      in.expect_tokens(values, values, "node coordinates");
      sink.add_node(tags[i], in.real(0, "x"), in.real(1, "y"), in.real(2, "z"));
    }
  }
  in.require_line("$EndNodes");
  expect_section_end(in, "Nodes");
}

void read_elements(TextReader& in, ElementSink& sink, const std::map<int, int>& curve_physical) {
  in.require_line("$Elements");
  in.expect_tokens(4, 4, "$Elements header (numEntityBlocks numElements minElementTag maxElementTag)");
  const long long blocks = in.count(0, "number of element blocks");
  const long long declared = in.count(1, "number of elements");
  long long listed = 0;
  long long nodes[kMaxElementNodes];
  for (long long b = 0; b < blocks; ++b) {
    in.require_line("$Elements");
    in.expect_tokens(4, 4, "element block header (entityDim entityTag elementType numElementsInBlock)");
    const int entity = in.to_int(in.tokens()[1], "entity tag");
    const int type = in.to_int(in.tokens()[2], "element type");
    const long long n = in.count(3, "number of elements in block");
    listed += n;
    if (listed > declared)
      in.fail("the element blocks hold more than the " + std::to_string(declared) +
              " elements the $Elements header declares");
    const int nn = element_nodes(in, type);
    int physical = 0;
    if (type == kLine) {
      auto it = curve_physical.find(entity);
      physical = it == curve_physical.end() ? 0 : it->second;
    }
    for (long long i = 0; i < n; ++i) {
      in.require_line("$Elements");
      in.expect_tokens(1 + nn, 1 + nn, "element of type " + std::to_string(type));
      for (int k = 0; k < nn; ++k) nodes[k] = in.integer(1 + k, "node tag");
      sink.add_element(type, nodes, physical, entity);
    }
  }
  in.require_line("$EndElements");
  expect_section_end(in, "Elements");
}

}  // namespace

PhysicalNames read_gmsh4(TextReader& in, ElementSink& sink) {
  PhysicalNames names;
  std::map<int, int> curve_physical;
  bool have_nodes = false, have_elements = false;
  while (in.next_line()) {
    const std::string section(in.tokens()[0]);
    if (section == "$PhysicalNames") {
      names = read_physical_names(in);
    } else if (section == "$Entities") {
      curve_physical = read_entities(in);
    } else if (section == "$Nodes") {
      read_nodes(in, sink);
      have_nodes = true;
    } else if (section == "$Elements") {
      if (!have_nodes) in.fail("$Elements before $Nodes");
      read_elements(in, sink, curve_physical);
      have_elements = true;
    } else if (section[0] == '$') {
      skip_section(in, section.substr(1));
    } else {
      in.fail("expected a section such as $Nodes, found '" + section + "'");
    }
  }
  if (!have_elements) in.fail("the file has no $Elements section");
  return names;
}

}  // namespace tb::gmsh
