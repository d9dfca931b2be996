// Gmsh 2.2 and 4.1 ASCII readers and writers on hand-written files: counts,
// markers, round trips, and file:line errors for malformed input.
#include <gtest/gtest.h>

#include <filesystem>

#include "mesh/geometry.hpp"
#include "mesh/io/gmsh_reader.hpp"
#include "mesh/io/mesh_io.hpp"
#include "mesh_fixtures.hpp"
#include "sample_files.hpp"
#include "solvers/core/error.hpp"

namespace tb {
namespace {

using testing::kGmsh22;
using testing::kGmsh41;
using testing::replace;
using testing::TempFile;

TEST(GmshReader, Version22CountsAndMarkers) {
  TempFile f("three.msh", kGmsh22);
  const Mesh2D m = read_gmsh(f.path());
  EXPECT_EQ(m.num_nodes(), 6);
  EXPECT_EQ(m.num_cells(), 3);
  EXPECT_EQ(m.num_faces(), 8);
  ASSERT_EQ(m.num_markers(), 2);
  EXPECT_EQ(m.marker_names[0], "bottom wall");
  EXPECT_EQ(m.marker_names[1], "7");  // unnamed physical group: its number
  const MeshGeometry g = compute_geometry(m);
  EXPECT_DOUBLE_EQ(g.cell_area[0] + g.cell_area[1] + g.cell_area[2], 2.0);
  index_t bottom = 0;
  for (const Face& face : m.faces) bottom += face.marker == 0;
  EXPECT_EQ(bottom, 2);
}

TEST(GmshReader, Version41EntitiesGiveMarkers) {
  TempFile f("v41.msh", kGmsh41);
  const Mesh2D m = read_gmsh(f.path());
  EXPECT_EQ(m.num_cells(), 1);
  EXPECT_EQ(m.num_nodes(), 6);
  ASSERT_EQ(m.num_markers(), 2);
  EXPECT_EQ(m.marker_names[0], "bottom");
  EXPECT_EQ(m.marker_names[1], "curve2");  // curve 2 is in no physical group
  EXPECT_DOUBLE_EQ(compute_geometry(m).cell_area[0], 1.0);
}

void expect_parse_error(const std::string& text, long line, const std::string& what) {
  testing::expect_parse_error([](const std::string& path) { return read_gmsh(path); }, "bad.msh", text, line, what);
}

TEST(GmshReader, MalformedFilesNameTheLine) {
  expect_parse_error(replace(kGmsh22, "3 2 0 0\n", "3 2 0\n"), 13, "node (tag x y z): expected 4 values, found 3");
  expect_parse_error(replace(kGmsh22, "5 1 1 0", "5 1 1x 0"), 15, "'1x' is not a number");
  expect_parse_error(replace(kGmsh22, "10 2 2 9 1 2 6 5", "10 2 2 9 1 2 6 8"), 29,
                     "node 8, which $Nodes does not list");
  expect_parse_error(replace(kGmsh22, "9 2 2 9 1 2 3 6", "9 9 2 9 1 2 3 6 1 2 3"), 28, "high-order element");
  expect_parse_error(replace(kGmsh22, "9 2 2 9 1 2 3 6", "9 4 2 9 1 2 3 6 1"), 28, "3D element");
  expect_parse_error(replace(kGmsh22, "$Nodes\n6", "$Nodes\n7"), 17, "$Nodes ended after 6 of 7 nodes");
  expect_parse_error(replace(kGmsh22, "2.2 0 8", "2.2 1 8"), 2, "binary Gmsh files are not supported");
  expect_parse_error(replace(kGmsh22, "2.2 0 8", "4.0 0 8"), 3, "Gmsh format 4.0 is not supported");
  expect_parse_error(std::string(kGmsh22).substr(0, std::string(kGmsh22).find("8 3 2")), 26,
                     "unexpected end of file while reading $Elements");
  expect_parse_error("hello\n", 1, "not a Gmsh mesh");
  expect_parse_error(replace(kGmsh41, "2 1 0 4", "2 1 0 4 9"), 22,
                     "node block header (entityDim entityTag parametric numNodesInBlock): expected 4 values, found 5");
  expect_parse_error(replace(kGmsh41, "5 1 2 5 4", "5 1 2 5"), 41, "element of type 3: expected 5 values, found 4");
}

TEST(GmshReader, MissingFileIsAnError) {
  EXPECT_THROW(read_gmsh("/nonexistent/mesh.msh"), Error);
  EXPECT_THROW(read_mesh("mesh.obj"), Error);
}

void expect_same_mesh(const Mesh2D& a, const Mesh2D& b) {
  ASSERT_EQ(a.num_cells(), b.num_cells());
  EXPECT_EQ(a.num_nodes(), b.num_nodes());
  EXPECT_EQ(a.cell_nodes, b.cell_nodes);
  EXPECT_EQ(a.marker_names, b.marker_names);
  ASSERT_EQ(a.num_faces(), b.num_faces());
  for (index_t f = 0; f < a.num_faces(); ++f) {
    EXPECT_EQ(a.faces[f].left, b.faces[f].left);
    EXPECT_EQ(a.faces[f].marker, b.faces[f].marker);
  }
  for (index_t i = 0; i < a.num_nodes(); ++i) {
    EXPECT_EQ(a.nodes[i].x, b.nodes[i].x);
    EXPECT_EQ(a.nodes[i].y, b.nodes[i].y);
  }
}

TEST(GmshWriter, RoundTripsBothVersions) {
  Mesh2D m = testing::stretched_quad_mesh(5, 4, 0.01, 1.3);
  TempFile v22("out22.msh", ""), v41("out41.msh", "");
  write_gmsh(v22.path(), m, GmshVersion::V22);
  write_gmsh(v41.path(), m, GmshVersion::V41);
  expect_same_mesh(m, read_gmsh(v22.path()));
  expect_same_mesh(m, read_gmsh(v41.path()));
  for (const auto& e : std::filesystem::directory_iterator(v22.dir()))
    EXPECT_EQ(e.path().string().find(".tmp."), std::string::npos) << "temporary left behind: " << e.path();
}

TEST(GmshWriter, KeepsMixedCellOrder) {
  TempFile in("three.msh", kGmsh22), out("again.msh", "");
  const Mesh2D m = read_gmsh(in.path());
  write_mesh(out.path(), m);
  expect_same_mesh(m, read_mesh(out.path()));
}

}  // namespace
}  // namespace tb
