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
    case kTetrahedron:
      return 4;
    case kPoint:
      return 1;
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
      in.fail("element type " + std::to_string(type) +
              " is a 3D element other than a linear tetrahedron; the readers take triangles, quadrilaterals and "
              "tetrahedra");
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
              " is a high-order element; the readers take linear elements only (mesh with -order 1)");
    default:
      in.fail("unknown Gmsh element type " + std::to_string(type));
  }
}

PhysicalNames read_physical_names(TextReader& in) {
  PhysicalNames names;
  in.require_line("$PhysicalNames");
  in.expect_tokens(1, 1, "number of physical names");
  // The shortest entry: "1 1 a" and its newline.
  const long long n = in.count(0, "number of physical names");
  for (long long i = 0; i < n; ++i) {
    in.require_line("$PhysicalNames");
    in.expect_tokens(3, std::numeric_limits<std::size_t>::max(), "physical name (dim tag \"name\")");
    const int dim = in.to_int(in.tokens()[0], "physical dimension");
    const int tag = in.to_int(in.tokens()[1], "physical tag");
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

namespace {

// $MeshFormat, then the sections of its version into `sink`.
gmsh::PhysicalNames read_sections(TextReader& in, gmsh::ElementSink& sink) {
  if (!in.next_line() || in.tokens()[0] != "$MeshFormat")
    in.fail("not a Gmsh mesh: the file must start with $MeshFormat");
  in.require_line("$MeshFormat");
  in.expect_tokens(3, 3, "$MeshFormat (version file-type data-size)");
  const std::string version(in.tokens()[0]);
  if (in.tokens()[1] != "0") in.fail("binary Gmsh files are not supported: save as ASCII (gmsh ... -bin 0)");
  in.require_line("$EndMeshFormat");
  gmsh::expect_section_end(in, "MeshFormat");
  if (version.rfind("2.", 0) == 0) return gmsh::read_gmsh2(in, sink);
  if (version == "4.1") return gmsh::read_gmsh4(in, sink);
  in.fail("Gmsh format " + version + " is not supported: use 2.2 or 4.1 (gmsh ... -format msh22)");
}

}  // namespace

Mesh2D read_gmsh(const std::string& path) {
  TextReader in(path);
  gmsh::MeshBuilder builder(in);
  const gmsh::PhysicalNames names = read_sections(in, builder);
  return builder.finish(names);
}

TetrahedralMesh read_gmsh_tetrahedra(const std::string& path) {
  TextReader in(path);
  gmsh::TetrahedraBuilder builder(in);
  read_sections(in, builder);
  return builder.finish();
}

}  // namespace tb
