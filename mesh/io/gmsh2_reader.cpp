// Gmsh ASCII format 2.2: $Nodes "tag x y z", $Elements "tag type ntags tags... nodes...",
// the first tag being the physical group and the second the elementary entity.
#include <limits>
#include <string>

#include "mesh/io/gmsh_format.hpp"

namespace tb::gmsh {
namespace {

// The shortest node line, "1 0 0 0" and its newline: what a node count may reserve.
constexpr std::size_t kMinNodeLine = 8;

void read_nodes(TextReader& in, ElementSink& sink) {
  in.require_line("$Nodes");
  in.expect_tokens(1, 1, "number of nodes");
  const long long n = in.count(0, "number of nodes");
  sink.reserve_nodes(in.affordable(n, kMinNodeLine));
  for (long long i = 0; i < n; ++i) {
    in.require_line("$Nodes");
    if (in.tokens()[0][0] == '$')
      in.fail("$Nodes ended after " + std::to_string(i) + " of " + std::to_string(n) + " nodes");
    in.expect_tokens(4, 4, "node (tag x y z)");
    sink.add_node(in.integer(0, "node tag"), in.real(1, "x"), in.real(2, "y"), in.real(3, "z"));
  }
  in.require_line("$EndNodes");
  expect_section_end(in, "Nodes");
}

void read_elements(TextReader& in, ElementSink& sink) {
  in.require_line("$Elements");
  in.expect_tokens(1, 1, "number of elements");
  const long long n = in.count(0, "number of elements");
  long long nodes[kMaxElementNodes];
  for (long long i = 0; i < n; ++i) {
    in.require_line("$Elements");
    if (in.tokens()[0][0] == '$')
      in.fail("$Elements ended after " + std::to_string(i) + " of " + std::to_string(n) + " elements");
    in.expect_tokens(3, std::numeric_limits<std::size_t>::max(), "element (tag type ntags ...)");
    const int type = in.to_int(in.tokens()[1], "element type");
    const long long ntags = in.integer(2, "number of tags");
    if (ntags < 0 || ntags > 64) in.fail("number of tags " + std::to_string(ntags) + " is out of range");
    const int nn = element_nodes(in, type);
    in.expect_tokens(3 + ntags + nn, 3 + ntags + nn, "element of type " + std::to_string(type));
    const int physical = ntags > 0 ? in.to_int(in.tokens()[3], "physical tag") : 0;
    const int entity = ntags > 1 ? in.to_int(in.tokens()[4], "elementary tag") : 0;
    for (int k = 0; k < nn; ++k) nodes[k] = in.integer(3 + ntags + k, "node tag");
    sink.add_element(type, nodes, physical, entity);
  }
  in.require_line("$EndElements");
  expect_section_end(in, "Elements");
}

}  // namespace

PhysicalNames read_gmsh2(TextReader& in, ElementSink& sink) {
  PhysicalNames names;
  bool have_nodes = false, have_elements = false;
  while (in.next_line()) {
    const std::string section(in.tokens()[0]);
    if (section == "$PhysicalNames") {
      names = read_physical_names(in);
    } else if (section == "$Nodes") {
      read_nodes(in, sink);
      have_nodes = true;
    } else if (section == "$Elements") {
      if (!have_nodes) in.fail("$Elements before $Nodes");
      read_elements(in, sink);
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
