// SU2 native format: hand-written files, optional trailing indices, markers by
// name or number, file:line errors, round trip through the writer.
#include <gtest/gtest.h>

#include "mesh/geometry.hpp"
#include "mesh/io/mesh_io.hpp"
#include "mesh/io/su2_format.hpp"
#include "mesh_fixtures.hpp"
#include "sample_files.hpp"
#include "solvers/core/error.hpp"

namespace tb {
namespace {

using testing::kSu2;
using testing::replace;
using testing::TempFile;

TEST(Su2Reader, CountsAndMarkers) {
  TempFile f("three.su2", kSu2);
  const Mesh2D m = read_su2(f.path());
  EXPECT_EQ(m.num_nodes(), 6);
  EXPECT_EQ(m.num_cells(), 3);
  EXPECT_EQ(m.num_faces(), 8);
  EXPECT_EQ(m.num_interior_faces, 2);
  EXPECT_EQ(m.marker_names, (std::vector<std::string>{"airfoil", "12"}));
  EXPECT_EQ(m.unmatched_edges, 0);
  const MeshGeometry g = compute_geometry(m);
  EXPECT_DOUBLE_EQ(g.cell_area[0], 1.0);
  EXPECT_DOUBLE_EQ(g.cell_area[2], 0.5);
}

void expect_parse_error(const std::string& text, long line, const std::string& what) {
  testing::expect_parse_error([](const std::string& path) { return read_su2(path); }, "bad.su2", text, line, what);
}

TEST(Su2Reader, MalformedFilesNameTheLine) {
  expect_parse_error(replace(kSu2, "NDIME= 2", "NDIME= 3"), 2, "tb::Mesh2D holds 2D meshes only");
  expect_parse_error(replace(kSu2, "5 1 2 5\n", "5 1 2\n"), 12, "element of type 5: expected 4 to 5 values, found 3");
  expect_parse_error(replace(kSu2, "5 1 2 5\n", "10 1 2 5 3\n"), 12, "3D element");
  expect_parse_error(replace(kSu2, "5 1 5 4 2", "5 1 5 9 2"), 13, "node index 9 is not below NPOIN= 6");
  expect_parse_error(replace(kSu2, "1 1 4", "1 one 4"), 8, "'one' is not a number");
  expect_parse_error(replace(kSu2, "MARKER_ELEMS=4", "MARKER_ELEMS=5"), 24, "unexpected end of file");
  expect_parse_error(replace(kSu2, "3 5 4", "5 5 4 3"), 22, "marker element of type 5");
  expect_parse_error(replace(kSu2, "NMARK= 2", "NMARKS= 2"), 14, "unknown keyword 'NMARKS'");
  expect_parse_error(replace(kSu2, "NPOIN= 6", "NPOIN= -6"), 3, "NPOIN must not be negative");
  expect_parse_error(replace(kSu2, "2 1 5", "2 nan 5"), 9, "'nan' is not a finite number");
}

TEST(Su2Writer, RoundTrip) {
  const Mesh2D m = testing::stretched_quad_mesh(3, 5, 0.02, 1.5);
  TempFile f("round.su2", "");
  write_mesh(f.path(), m);
  const Mesh2D back = read_mesh(f.path());
  EXPECT_EQ(back.cell_nodes, m.cell_nodes);
  EXPECT_EQ(back.marker_names, m.marker_names);
  ASSERT_EQ(back.num_faces(), m.num_faces());
  for (index_t f2 = 0; f2 < m.num_faces(); ++f2) EXPECT_EQ(back.faces[f2].marker, m.faces[f2].marker);
  for (index_t i = 0; i < m.num_nodes(); ++i) EXPECT_EQ(back.nodes[i].y, m.nodes[i].y);
}

}  // namespace
}  // namespace tb
