// The Gmsh tetrahedra reader and the node graph of seed 002's test matrices:
// hand-written files in both formats, the shipped sphere against its exact
// volume, and file:line errors for what a 3D mesh can get wrong.
#include <gtest/gtest.h>

#include <cmath>

#include "mesh/io/gmsh_reader.hpp"
#include "mesh/mesh_graph.hpp"
#include "mesh_fixtures.hpp"
#include "sample_files.hpp"
#include "solvers/core/error.hpp"

namespace tb {
namespace {

using testing::kTetGmsh22;
using testing::kTetGmsh41;
using testing::replace;
using testing::TempFile;

double volume(const TetrahedralMesh& m, index_t c) {
  const auto& t = m.cells[std::size_t(c)];
  const Point3 a = m.nodes[std::size_t(t[0])];
  double e[3][3];
  for (int k = 0; k < 3; ++k) {
    const Point3 b = m.nodes[std::size_t(t[k + 1])];
    e[k][0] = b.x - a.x, e[k][1] = b.y - a.y, e[k][2] = b.z - a.z;
  }
  const double det = e[0][0] * (e[1][1] * e[2][2] - e[1][2] * e[2][1]) -
                     e[0][1] * (e[1][0] * e[2][2] - e[1][2] * e[2][0]) +
                     e[0][2] * (e[1][0] * e[2][1] - e[1][1] * e[2][0]);
  return std::abs(det) / 6.0;
}

void expect_two_tetrahedra(const TetrahedralMesh& m) {
  ASSERT_EQ(m.num_nodes(), 5);  // node 9 is in no tetrahedron
  ASSERT_EQ(m.num_cells(), 2);
  EXPECT_EQ(m.cells[0], (std::array<index_t, 4>{0, 1, 2, 3}));
  EXPECT_EQ(m.cells[1], (std::array<index_t, 4>{1, 2, 3, 4}));
  EXPECT_DOUBLE_EQ(m.nodes[4].z, 2.0 / 3.0);
  EXPECT_NEAR(volume(m, 0), 1.0 / 6.0, 1e-15);
  EXPECT_NEAR(volume(m, 1), 1.0 / 6.0, 1e-15);  // the mirror image
  const Graph g = node_graph(m);
  EXPECT_EQ(g.num_edges(), 9);  // 6 + 6, less the 3 edges of the shared face
  EXPECT_EQ(g.degree(0), 3);
  EXPECT_EQ(g.degree(1), 4);
  EXPECT_EQ(g.degree(4), 3);
  EXPECT_EQ(std::vector<index_t>(g.begin(4), g.end(4)), (std::vector<index_t>{1, 2, 3}));
}

TEST(GmshTetrahedra, Version22SkipsSurfacesAndUnusedNodes) {
  TempFile f("two.msh", kTetGmsh22);
  expect_two_tetrahedra(read_gmsh_tetrahedra(f.path()));
}

TEST(GmshTetrahedra, Version41SkipsSurfacesAndUnusedNodes) {
  TempFile f("two41.msh", kTetGmsh41);
  expect_two_tetrahedra(read_gmsh_tetrahedra(f.path()));
}

// inputs/meshes/tet_sphere_coarse.msh: Gmsh's unit sphere at h = 0.2. Its
// boundary nodes lie on the sphere, so the polyhedron is inscribed: its volume
// is below 4 pi / 3 by about the chordal error, a few per cent at this h.
TEST(GmshTetrahedra, ShippedSphereFillsTheBallAndHasFun3dLikeAdjacency) {
  const TetrahedralMesh m = read_gmsh_tetrahedra(std::string(TB_SOURCE_DIR) + "/inputs/meshes/tet_sphere_coarse.msh");
  EXPECT_EQ(m.num_nodes(), 663);
  double total = 0.0, radius = 0.0;
  for (index_t c = 0; c < m.num_cells(); ++c) total += volume(m, c);
  for (const Point3& p : m.nodes) radius = std::max(radius, std::sqrt(p.x * p.x + p.y * p.y + p.z * p.z));
  const double ball = 4.0 * std::acos(-1.0) / 3.0;
  EXPECT_LT(total, ball);
  EXPECT_GT(total, 0.95 * ball);
  EXPECT_NEAR(radius, 1.0, 1e-12);
  const Graph g = node_graph(m);
  const double mean_degree = 2.0 * g.num_edges() / m.num_nodes();
  // Unstructured tetrahedra average about 14 neighbours inside, fewer on the
  // boundary, which holds a large share of the nodes of so small a mesh.
  EXPECT_GT(mean_degree, 9.0);
  EXPECT_LT(mean_degree, 14.0);
}

void expect_parse_error(const std::string& text, long line, const std::string& what) {
  testing::expect_parse_error([](const std::string& path) { return read_gmsh_tetrahedra(path); }, "bad.msh", text, line,
                              what);
}

TEST(GmshTetrahedra, MalformedFilesNameTheLine) {
  expect_parse_error(replace(kTetGmsh22, "4 4 2 7 1 2 3 4 5", "4 5 2 7 1 2 3 4 5 1 2 3 9"), 18,
                     "3D element other than a linear tetrahedron");
  expect_parse_error(replace(kTetGmsh22, "4 4 2 7 1 2 3 4 5", "4 4 2 7 1 2 3 4 3"), 18, "element lists node 3 twice");
  expect_parse_error(replace(kTetGmsh22, "4 4 2 7 1 2 3 4 5", "4 4 2 7 1 2 3 4 6"), 18,
                     "node 6, which $Nodes does not list");
  expect_parse_error(replace(kTetGmsh22, "2 2 2 1 1 1 2 3", "2 2 2 1 1 1 2 7"), 16,
                     "node 7, which $Nodes does not list");
  expect_parse_error(replace(kTetGmsh41, "3 2 3 4 5", "3 2 3 4"), 27, "element of type 4: expected 5 values, found 4");
  expect_parse_error(testing::kGmsh22, 30, "no tetrahedra");
}

// A volume mesh stops the 2D reader at its first node off the plane; a
// tetrahedron among planar nodes is refused as well (test_gmsh_io.cpp).
TEST(GmshTetrahedra, TheTwoDimensionalReaderRefusesAVolumeMesh) {
  testing::expect_parse_error([](const std::string& path) { return read_gmsh(path); }, "two.msh", kTetGmsh22, 9,
                              "the mesh is not planar");
}

}  // namespace
}  // namespace tb
