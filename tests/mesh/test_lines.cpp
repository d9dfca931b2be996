// Line detection on a stretched boundary-layer mesh and line-X orderings.
#include <gtest/gtest.h>

#include "mesh/cell_ordering.hpp"
#include "mesh/graph/line_ordering.hpp"
#include "mesh/mesh_graph.hpp"
#include "mesh_fixtures.hpp"
#include "solvers/core/error.hpp"

namespace tb {
namespace {

// 8 columns of 28 rows; rows 1e-3 tall at the wall growing by 1.2, cells 1/8
// wide: aspect ratio 125 at the wall, about 1 near row 23, the strongest
// coupling vertical below it.
constexpr index_t kNx = 8, kNy = 28;

Mesh2D boundary_layer() { return testing::stretched_quad_mesh(kNx, kNy, 1e-3, 1.2); }

Lines wall_lines(const Mesh2D& m, double threshold = 4.0) {
  LineOptions opt;
  opt.threshold = threshold;
  opt.seed_markers = {"wall"};
  return detect_mesh_lines(m, compute_geometry(m), cell_graph(m), opt);
}

TEST(LineDetection, FindsTheWallNormalColumns) {
  const Mesh2D m = boundary_layer();
  const Graph g = cell_graph(m);
  const Lines lines = wall_lines(m);
  ASSERT_EQ(lines.num_lines(), kNx);
  const std::vector<double> a = anisotropy(g, face_coupling_weights(m, compute_geometry(m), g));
  for (index_t l = 0; l < lines.num_lines(); ++l) {
    const index_t first = lines.line_ptr[l], length = lines.line_ptr[l + 1] - first;
    const index_t column = lines.cells[first] % kNx;
    // Anisotropy (dx/dy)^2 falls to 4 where dy = dx/2 = 1e-3 * 1.2^j: j = 22.7.
    EXPECT_GE(length, 20);
    EXPECT_LE(length, 24);
    for (index_t k = 0; k < length; ++k) {
      const index_t cell = lines.cells[first + k];
      EXPECT_EQ(cell, k * kNx + column) << "line " << l << " leaves its column";
      EXPECT_GE(a[cell], 4.0);
      EXPECT_EQ(lines.line_of[cell], l);
    }
    EXPECT_EQ(lines.line_of[length * kNx + column], -1);
  }
}

TEST(LineDetection, ThresholdShortensLines) {
  const Mesh2D m = boundary_layer();
  const Lines loose = wall_lines(m, 4.0), strict = wall_lines(m, 100.0);
  EXPECT_EQ(strict.num_lines(), kNx);
  EXPECT_LT(strict.num_line_cells(), loose.num_line_cells());
  EXPECT_EQ(wall_lines(m, 1e6).num_lines(), 0);
  EXPECT_THROW(wall_lines(m, 0.5), Error);
  LineOptions bad;
  bad.seed_markers = {"no-such-marker"};
  EXPECT_THROW(detect_mesh_lines(m, compute_geometry(m), cell_graph(m), bad), Error);
}

TEST(LineDetection, IsotropicMeshHasNoLines) {
  const Mesh2D m = testing::uniform_quad_mesh(10, 10);
  EXPECT_EQ(detect_mesh_lines(m, compute_geometry(m), cell_graph(m), {}).num_lines(), 0);
}

// Every line's cells occupy consecutive new positions, in line order.
void expect_lines_contiguous(const Lines& lines, const Permutation& p) {
  for (index_t l = 0; l < lines.num_lines(); ++l)
    for (index_t k = lines.line_ptr[l] + 1; k < lines.line_ptr[l + 1]; ++k)
      EXPECT_EQ(p.old_to_new[lines.cells[k]], p.old_to_new[lines.cells[k - 1]] + 1) << "line " << l;
}

TEST(LineOrdering, ContractedGraphFollowsFigure2) {
  const Mesh2D m = boundary_layer();
  const Graph g = cell_graph(m);
  const Lines lines = wall_lines(m);
  const ContractedGraph c = contract_lines(g, lines);
  const index_t free_cells = m.num_cells() - lines.num_line_cells();
  EXPECT_EQ(c.graph.size(), lines.num_lines() + free_cells);
  // Vertex 0 is the line of column 0: it touches the line of column 1 and the
  // free cell above its top; nothing else.
  const index_t top = lines.line_ptr[1] - lines.line_ptr[0];
  ASSERT_EQ(c.members[c.member_ptr[0]], 0);
  EXPECT_EQ(c.graph.degree(0), 2);
  std::vector<index_t> touched;
  for (const index_t* u = c.graph.begin(0); u != c.graph.end(0); ++u) touched.push_back(c.members[c.member_ptr[*u]]);
  std::sort(touched.begin(), touched.end());
  EXPECT_EQ(touched, (std::vector<index_t>{1, top * kNx}));
}

TEST(LineOrdering, LinesStayContiguousUnderEveryCoarseOrder) {
  const Mesh2D m = boundary_layer();
  const Graph g = cell_graph(m);
  const Lines lines = wall_lines(m);
  for (LineCoarseOrder coarse : {LineCoarseOrder::Natural, LineCoarseOrder::Rcm, LineCoarseOrder::OneWayDissection}) {
    const Permutation p = line_ordering(g, lines, coarse);
    ASSERT_TRUE(is_permutation(p.new_to_old));
    expect_lines_contiguous(lines, p);
    expect_lines_contiguous(permute_lines(lines, p), Permutation::identity(p.size()));
  }
}

TEST(CellOrdering, NamesParseAndEveryOrderingIsAPermutation) {
  const Mesh2D m = boundary_layer();
  for (const char* name : {"natural", "rcm", "1wd", "line", "line-rcm", "line-1wd", "colour", "color"}) {
    const Permutation p = order_cells(m, parse_cell_ordering(name));
    EXPECT_TRUE(is_permutation(p.new_to_old)) << name;
    EXPECT_EQ(p.size(), m.num_cells());
  }
  try {
    parse_cell_ordering("nested-dissection");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("allowed: natural, rcm, 1wd, line, line-rcm, line-1wd, colour"),
              std::string::npos);
  }
}

}  // namespace
}  // namespace tb
