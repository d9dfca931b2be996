// Mesh2D topology and geometry on a hand-made mesh whose numbers are known:
// [0,2]x[0,1] as one unit quadrilateral and two triangles (one given clockwise).
#include <gtest/gtest.h>

#include <cmath>

#include "mesh/check.hpp"
#include "mesh/geometry.hpp"
#include "mesh/mesh_graph.hpp"
#include "mesh_fixtures.hpp"
#include "solvers/core/error.hpp"

namespace tb {
namespace {

//  3 ---- 4 ---- 5
//  | quad | t2 / |
//  |  0   |  / t1|
//  0 ---- 1 ---- 2
Mesh2D three_cell_mesh() {
  Mesh2D m;
  m.nodes = {{0, 0}, {1, 0}, {2, 0}, {0, 1}, {1, 1}, {2, 1}};
  m.add_cell({0, 1, 4, 3});
  m.add_cell({1, 2, 5});
  m.add_cell({1, 4, 5});  // clockwise on purpose
  const index_t bottom = m.marker_index("bottom"), right = m.marker_index("right"), top = m.marker_index("top"),
                left = m.marker_index("left");
  m.boundary_edges = {{{0, 1}, bottom}, {{1, 2}, bottom}, {{2, 5}, right},
                      {{5, 4}, top},    {{4, 3}, top},    {{3, 0}, left}};
  build_faces(m);
  return m;
}

index_t find_face(const Mesh2D& m, index_t a, index_t b) {
  for (index_t f = 0; f < m.num_faces(); ++f) {
    const auto& n = m.faces[f].nodes;
    if ((n[0] == a && n[1] == b) || (n[0] == b && n[1] == a)) return f;
  }
  return -1;
}

TEST(Mesh2D, CountsFacesAndFlipsClockwiseCells) {
  const Mesh2D m = three_cell_mesh();
  EXPECT_EQ(m.num_cells(), 3);
  EXPECT_EQ(m.num_faces(), 8);
  EXPECT_EQ(m.num_interior_faces, 2);
  EXPECT_EQ(m.flipped_cells, 1);
  EXPECT_EQ(m.cell_type(0), CellType::Quadrilateral);
  EXPECT_EQ(m.cell_type(2), CellType::Triangle);
  EXPECT_GT(signed_area(m, 2), 0.0);
  for (index_t f = 0; f < m.num_interior_faces; ++f) EXPECT_FALSE(m.faces[f].is_boundary());
  for (index_t f = m.num_interior_faces; f < m.num_faces(); ++f) EXPECT_TRUE(m.faces[f].is_boundary());
}

TEST(Mesh2D, ExactAreasCentroidsNormals) {
  const Mesh2D m = three_cell_mesh();
  const MeshGeometry g = compute_geometry(m);
  EXPECT_DOUBLE_EQ(g.cell_area[0], 1.0);
  EXPECT_DOUBLE_EQ(g.cell_area[1], 0.5);
  EXPECT_DOUBLE_EQ(g.cell_area[2], 0.5);
  EXPECT_DOUBLE_EQ(g.cell_centroid[0].x, 0.5);
  EXPECT_DOUBLE_EQ(g.cell_centroid[0].y, 0.5);
  EXPECT_DOUBLE_EQ(g.cell_centroid[1].x, 5.0 / 3.0);
  EXPECT_DOUBLE_EQ(g.cell_centroid[1].y, 1.0 / 3.0);

  // Quad | t2 across x = 1: unit normal +x from the quad (left) to t2 (right).
  const index_t f14 = find_face(m, 1, 4);
  ASSERT_GE(f14, 0);
  EXPECT_EQ(m.faces[f14].left, 0);
  EXPECT_EQ(m.faces[f14].right, 2);
  EXPECT_DOUBLE_EQ(g.face_normal[f14].x, 1.0);
  EXPECT_DOUBLE_EQ(g.face_normal[f14].y, 0.0);
  EXPECT_DOUBLE_EQ(g.face_length[f14], 1.0);

  // The diagonal: length sqrt(2), normal from t1 towards t2, i.e. (-1, 1)/sqrt(2).
  const index_t f15 = find_face(m, 1, 5);
  EXPECT_EQ(m.faces[f15].left, 1);
  EXPECT_EQ(m.faces[f15].right, 2);
  EXPECT_DOUBLE_EQ(g.face_length[f15], std::sqrt(2.0));
  EXPECT_NEAR(g.face_normal[f15].x, -1.0 / std::sqrt(2.0), 1e-15);
  EXPECT_NEAR(g.face_normal[f15].y, 1.0 / std::sqrt(2.0), 1e-15);

  // Boundary normals point out of the domain.
  const index_t bottom = find_face(m, 1, 2);
  EXPECT_DOUBLE_EQ(g.face_normal[bottom].y, -1.0);
  const index_t top = find_face(m, 3, 4);
  EXPECT_DOUBLE_EQ(g.face_normal[top].y, 1.0);
  EXPECT_EQ(m.marker_names[m.faces[top].marker], "top");
}

TEST(Mesh2D, CellsAndDomainAreClosed) {
  const Mesh2D m = three_cell_mesh();
  const MeshGeometry g = compute_geometry(m);
  std::vector<Vec2> sum(m.num_cells());
  Vec2 boundary{0, 0};
  for (index_t f = 0; f < m.num_faces(); ++f) {
    const Face& face = m.faces[f];
    const double sx = g.face_normal[f].x * g.face_length[f], sy = g.face_normal[f].y * g.face_length[f];
    sum[face.left].x += sx, sum[face.left].y += sy;
    if (face.is_boundary())
      boundary.x += sx, boundary.y += sy;
    else
      sum[face.right].x -= sx, sum[face.right].y -= sy;
  }
  for (const Vec2& s : sum) EXPECT_NEAR(std::hypot(s.x, s.y), 0.0, 1e-15);
  EXPECT_NEAR(std::hypot(boundary.x, boundary.y), 0.0, 1e-15);
  EXPECT_TRUE(check_mesh(m).ok());
}

TEST(Mesh2D, BoundaryFacesGroupedByMarker) {
  const Mesh2D m = three_cell_mesh();
  std::vector<index_t> per_marker(m.num_markers(), 0);
  index_t previous = -1;
  for (index_t f = m.num_interior_faces; f < m.num_faces(); ++f) {
    EXPECT_GE(m.faces[f].marker, previous);
    previous = m.faces[f].marker;
    ++per_marker[m.faces[f].marker];
  }
  EXPECT_EQ(per_marker, (std::vector<index_t>{2, 1, 2, 1}));
}

TEST(Mesh2D, AspectRatioAndWallDistance) {
  const Mesh2D m = testing::stretched_quad_mesh(4, 3, 0.05, 2.0);  // rows 0.05, 0.1, 0.2 tall; cells 0.25 wide
  const MeshGeometry g = compute_geometry(m);
  EXPECT_NEAR(aspect_ratio(m, 0), 0.25 / 0.05, 1e-12);
  EXPECT_NEAR(aspect_ratio(m, 8), 0.25 / 0.2, 1e-12);  // longest edge along x now
  const auto walls = guess_wall_markers(m);
  ASSERT_EQ(walls.size(), 1u);
  const std::vector<double> d = wall_distance(m, g.cell_centroid, walls);
  EXPECT_NEAR(d[0], 0.025, 1e-15);
  EXPECT_NEAR(d[5], 0.05 + 0.05, 1e-15);
  EXPECT_NEAR(d[11], 0.15 + 0.1, 1e-15);
  Mesh2D equilateral;
  equilateral.nodes = {{0, 0}, {1, 0}, {0.5, std::sqrt(3.0) / 2}};
  equilateral.add_cell({0, 1, 2});
  build_faces(equilateral);
  EXPECT_NEAR(aspect_ratio(equilateral, 0), 1.0, 1e-12);
}

// The quadrilateral and t1 share node 1 and no face: adjacent through nodes only.
TEST(Mesh2D, CellGraphThroughNodesAddsCellsThatShareOnlyACorner) {
  const Mesh2D m = three_cell_mesh();
  const Graph faces = cell_graph(m), nodes = cell_graph_through_nodes(m);
  EXPECT_EQ(faces.num_edges(), 2);
  ASSERT_EQ(nodes.num_edges(), 3);
  EXPECT_EQ(std::vector<index_t>(nodes.begin(0), nodes.end(0)), (std::vector<index_t>{1, 2}));
  EXPECT_EQ(std::vector<index_t>(nodes.begin(1), nodes.end(1)), (std::vector<index_t>{0, 2}));
  EXPECT_EQ(std::vector<index_t>(faces.begin(0), faces.end(0)), (std::vector<index_t>{2}));
}

TEST(Mesh2D, BadCellsThrow) {
  Mesh2D m;
  m.nodes = {{0, 0}, {1, 0}, {0, 1}};
  m.add_cell({0, 1, 7});
  EXPECT_THROW(build_faces(m), Error);
  Mesh2D r;
  r.nodes = {{0, 0}, {1, 0}, {0, 1}};
  r.add_cell({0, 1, 1});
  EXPECT_THROW(build_faces(r), Error);
  EXPECT_THROW(r.add_cell({0, 1}), Error);
}

}  // namespace
}  // namespace tb
