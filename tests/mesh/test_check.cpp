// Consistency checks: each broken mesh is reported with the problem it has.
#include <gtest/gtest.h>

#include "mesh/check.hpp"
#include "mesh_fixtures.hpp"
#include "solvers/core/error.hpp"

namespace tb {
namespace {

bool mentions(const std::vector<std::string>& list, const std::string& text) {
  for (const auto& s : list)
    if (s.find(text) != std::string::npos) return true;
  return false;
}

Mesh2D two_triangles() {
  Mesh2D m;
  m.nodes = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  m.add_cell({0, 1, 2});
  m.add_cell({0, 2, 3});
  const index_t wall = m.marker_index("wall");
  m.boundary_edges = {{{0, 1}, wall}, {{1, 2}, wall}, {{2, 3}, wall}, {{3, 0}, wall}};
  return m;
}

TEST(MeshCheck, CleanMeshPasses) {
  Mesh2D m = two_triangles();
  build_faces(m);
  const MeshCheck c = check_mesh(m);
  EXPECT_TRUE(c.ok());
  EXPECT_TRUE(c.notes.empty());
  EXPECT_NO_THROW(require_valid_mesh(m, "two triangles"));
}

TEST(MeshCheck, DuplicateAndUnusedNodes) {
  Mesh2D m = two_triangles();
  m.nodes.push_back({1.0, 0.0});  // a copy of node 1 that no cell uses
  build_faces(m);
  const MeshCheck c = check_mesh(m);
  EXPECT_TRUE(mentions(c.problems, "1 pairs of duplicate nodes (first: nodes 1 and 4)"));
  EXPECT_TRUE(mentions(c.notes, "1 nodes belong to no cell"));
  try {
    require_valid_mesh(m, "dup.msh");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("dup.msh: the mesh fails its consistency checks"), std::string::npos);
  }
}

TEST(MeshCheck, DanglingBoundaryFacesAndEdges) {
  Mesh2D m = two_triangles();
  m.boundary_edges.pop_back();                                   // face 3-0 loses its marker
  m.boundary_edges.push_back({{0, 2}, m.marker_index("wall")});  // the diagonal is no boundary face
  build_faces(m);
  const MeshCheck c = check_mesh(m);
  EXPECT_TRUE(mentions(c.problems, "1 boundary faces carry no marker"));
  EXPECT_TRUE(mentions(c.problems, "1 marker edges are not boundary faces"));
}

TEST(MeshCheck, DegenerateAndOverlappingCells) {
  Mesh2D flat;
  flat.nodes = {{0, 0}, {1, 0}, {2, 0}};
  flat.add_cell({0, 1, 2});
  build_faces(flat);
  EXPECT_TRUE(mentions(check_mesh(flat).problems, "1 cells with zero or negative area"));

  Mesh2D folded;  // the second triangle lies on the same side of edge 0-1 as the first
  folded.nodes = {{0, 0}, {1, 0}, {0, 1}, {0.3, 0.3}};
  folded.add_cell({0, 1, 2});
  folded.add_cell({0, 1, 3});
  build_faces(folded);
  EXPECT_TRUE(mentions(check_mesh(folded).problems, "interior faces run the same way in both cells"));
}

TEST(MeshCheck, NonManifoldEdgeThrows) {
  Mesh2D m;
  m.nodes = {{0, 0}, {1, 0}, {0.5, 1}, {0.5, -1}, {0.5, 2}};
  m.add_cell({0, 1, 2});
  m.add_cell({0, 3, 1});
  m.add_cell({0, 1, 4});
  try {
    build_faces(m);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("edge (0, 1) is shared by 3 cells"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tb
