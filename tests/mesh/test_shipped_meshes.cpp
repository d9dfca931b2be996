// The committed coarse meshes (scripts/make-meshes.sh coarse): every format
// reads the same mesh, the meshes are valid, and the orderings do on them what
// they are for.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "graph_fixtures.hpp"
#include "mesh/cell_ordering.hpp"
#include "mesh/check.hpp"
#include "mesh/geometry.hpp"
#include "mesh/graph/line_ordering.hpp"
#include "mesh/graph/rcm.hpp"
#include "mesh/io/mesh_io.hpp"
#include "mesh/mesh_graph.hpp"
#include "mesh/partition.hpp"
#include "mesh/reorder.hpp"
#include "mesh_fixtures.hpp"

namespace tb {
namespace {

using testing::shipped_mesh;

index_t count_cells(const Mesh2D& m, index_t size) {
  index_t n = 0;
  for (index_t c = 0; c < m.num_cells(); ++c) n += m.cell_size(c) == size;
  return n;
}

index_t marker_faces(const Mesh2D& m, const std::string& name) {
  const index_t id = m.find_marker(name);
  index_t n = 0;
  for (const Face& f : m.faces) n += f.marker == id;
  return n;
}

// Same cells in the same order, whatever the node numbering: gmsh renumbers
// nodes when it converts a mesh.
void expect_same_cells(const Mesh2D& a, const Mesh2D& b) {
  ASSERT_EQ(a.num_cells(), b.num_cells());
  const MeshGeometry ga = compute_geometry(a), gb = compute_geometry(b);
  index_t differ = 0;
  for (index_t c = 0; c < a.num_cells(); ++c)
    differ += std::abs(ga.cell_centroid[c].x - gb.cell_centroid[c].x) > 1e-12 * (1 + std::abs(gb.cell_centroid[c].x)) ||
              std::abs(ga.cell_centroid[c].y - gb.cell_centroid[c].y) > 1e-12 * (1 + std::abs(gb.cell_centroid[c].y)) ||
              a.cell_size(c) != b.cell_size(c);
  EXPECT_EQ(differ, 0);
}

class ShippedMeshes : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    cylinder_ = new Mesh2D(read_mesh(shipped_mesh("cylinder_coarse.msh")));
    naca_ = new Mesh2D(read_mesh(shipped_mesh("naca0012_coarse.msh")));
  }
  static void TearDownTestSuite() {
    delete cylinder_;
    delete naca_;
  }
  static const Mesh2D* cylinder_;
  static const Mesh2D* naca_;
};
const Mesh2D* ShippedMeshes::cylinder_ = nullptr;
const Mesh2D* ShippedMeshes::naca_ = nullptr;

TEST_F(ShippedMeshes, CylinderIsAValidQuadAnnulus) {
  const Mesh2D& m = *cylinder_;
  EXPECT_EQ(count_cells(m, 3), 0);
  EXPECT_GT(count_cells(m, 4), 3000);
  EXPECT_EQ(marker_faces(m, "cylinder"), 64);
  EXPECT_EQ(marker_faces(m, "farfield"), 64);
  const MeshCheck check = check_mesh(m);
  EXPECT_TRUE(check.ok()) << (check.problems.empty() ? "" : check.problems[0]);
  // Area between two inscribed 64-gons with vertices on radii 0.5 and 50 (equal spacing up to round-off of gmsh's
  // sizes).
  const MeshGeometry g = compute_geometry(m);
  double total = 0.0;
  for (double a : g.cell_area) total += a;
  const double polygon = 32.0 * std::sin(2.0 * std::numbers::pi / 64.0) * (50.0 * 50.0 - 0.25);
  EXPECT_NEAR(total / polygon, 1.0, 1e-3);
  // Boundary closure: sum of outward normal x length over both circles vanishes.
  double sx = 0.0, sy = 0.0;
  for (index_t f = m.num_interior_faces; f < m.num_faces(); ++f)
    sx += g.face_normal[f].x * g.face_length[f], sy += g.face_normal[f].y * g.face_length[f];
  EXPECT_NEAR(std::hypot(sx, sy), 0.0, 1e-10);
  // Near-isotropic: the recipe's point.
  double worst = 0.0;
  for (index_t c = 0; c < m.num_cells(); ++c) worst = std::max(worst, aspect_ratio(m, c));
  EXPECT_LT(worst, 3.0);
}

// The share of the cell centroids within [r_min, r_max) of the origin whose
// mirror images across both axes are centroids too, to 1e-7 (gmsh places the
// layer's nodes symmetrically to about 6e-9; cells are 0.05 wide there).
double mirrored_share(const MeshGeometry& g, double r_min, double r_max) {
  std::vector<Vec2> inside;
  for (const Vec2& c : g.cell_centroid)
    if (const double r = std::hypot(c.x, c.y); r >= r_min && r < r_max) inside.push_back(c);
  const auto has = [&](double x, double y) {
    return std::any_of(inside.begin(), inside.end(),
                       [&](const Vec2& c) { return std::abs(c.x - x) < 1e-7 && std::abs(c.y - y) < 1e-7; });
  };
  index_t mirrored = 0;
  for (const Vec2& c : inside) mirrored += has(c.x, -c.y) && has(-c.x, c.y);
  return inside.empty() ? 0.0 : double(mirrored) / double(inside.size());
}

// cylinder_layered.geo: the coarse cylinder's 64 wall faces and far field, with
// a structured O-grid layer to 3 radii (0.5 * (1 + 2 pi / 64)^12 = 1.54) whose
// cells mirror each other across both axes, and unstructured cells beyond,
// which do not (the lift of the inviscid cylinder is set by the cells next to
// the wall: docs/compressible.md).
TEST_F(ShippedMeshes, TheLayeredCylinderIsMirrorSymmetricNextToTheWall) {
  const Mesh2D m = read_mesh(shipped_mesh("cylinder_layered.msh"));
  EXPECT_EQ(count_cells(m, 3), 0);
  EXPECT_EQ(marker_faces(m, "cylinder"), 64);
  EXPECT_EQ(marker_faces(m, "farfield"), 64);
  const MeshCheck check = check_mesh(m);
  EXPECT_TRUE(check.ok()) << (check.problems.empty() ? "" : check.problems[0]);
  expect_same_cells(read_mesh(shipped_mesh("cylinder_layered.su2")), m);
  const MeshGeometry g = compute_geometry(m);
  EXPECT_EQ(mirrored_share(g, 0.0, 1.5), 1.0);
  EXPECT_LT(mirrored_share(g, 2.0, 50.0), 0.5);
  EXPECT_LT(mirrored_share(compute_geometry(*cylinder_), 0.0, 1.5), 0.5);  // cylinder.geo: unstructured to the wall
}

TEST_F(ShippedMeshes, FormatsAgree) {
  const Mesh2D su2 = read_mesh(shipped_mesh("cylinder_coarse.su2"));
  EXPECT_EQ(su2.num_cells(), cylinder_->num_cells());
  EXPECT_EQ(su2.num_faces(), cylinder_->num_faces());
  expect_same_cells(su2, *cylinder_);
  for (const char* name : {"naca0012_coarse.su2", "naca0012_coarse_v41.msh"}) {
    const Mesh2D other = read_mesh(shipped_mesh(name));
    EXPECT_EQ(other.num_cells(), naca_->num_cells()) << name;
    EXPECT_EQ(other.num_nodes(), naca_->num_nodes()) << name;
    EXPECT_EQ(marker_faces(other, "airfoil"), marker_faces(*naca_, "airfoil")) << name;
    EXPECT_EQ(marker_faces(other, "farfield"), marker_faces(*naca_, "farfield")) << name;
    EXPECT_TRUE(check_mesh(other).ok()) << name;
    expect_same_cells(other, *naca_);
  }
}

TEST_F(ShippedMeshes, NacaIsHybridWithAWideFarField) {
  const Mesh2D& m = *naca_;
  EXPECT_GT(count_cells(m, 4), 2000);
  EXPECT_GT(count_cells(m, 3), 4000);
  EXPECT_EQ(marker_faces(m, "airfoil"), 160);
  EXPECT_TRUE(check_mesh(m).ok());
  double r_max = 0.0;
  for (const Vec2& p : m.nodes) r_max = std::max(r_max, std::hypot(p.x - 0.5, p.y));
  EXPECT_GE(r_max, 50.0);
  // The first cells off the wall are 1e-3 chords tall: centroids about 5e-4 from it.
  const MeshGeometry g = compute_geometry(m);
  const std::vector<double> d = wall_distance(m, g.cell_centroid, {m.find_marker("airfoil")});
  EXPECT_NEAR(*std::min_element(d.begin(), d.end()), 5e-4, 2e-4);
}

TEST_F(ShippedMeshes, LinesFillTheQuadBoundaryLayer) {
  const Mesh2D& m = *naca_;
  const Graph g = cell_graph(m);
  LineOptions opt;
  opt.seed_markers = {"airfoil"};
  const Lines lines = detect_mesh_lines(m, compute_geometry(m), g, opt);
  EXPECT_GE(lines.num_lines(), 150);  // about one per airfoil face
  index_t quads_in_lines = 0;
  for (index_t c : lines.cells) quads_in_lines += m.cell_size(c) == 4;
  EXPECT_GT(quads_in_lines, 0.95 * lines.num_line_cells());
  EXPECT_GT(lines.num_line_cells(), 0.6 * count_cells(m, 4));
  const Permutation p = order_cells(m, CellOrdering::Line1wd, opt);
  for (index_t l = 0; l < lines.num_lines(); ++l)
    for (index_t k = lines.line_ptr[l] + 1; k < lines.line_ptr[l + 1]; ++k)
      ASSERT_EQ(p.old_to_new[lines.cells[k]], p.old_to_new[lines.cells[k - 1]] + 1);
}

TEST_F(ShippedMeshes, RcmCutsBandwidthAgainstARandomOrder) {
  for (const Mesh2D* m : {cylinder_, naca_}) {
    const Graph g = cell_graph(*m);
    const Permutation random = testing::scrambled(g.size());
    const Graph shuffled = permute(g, random);
    const BandProfile before = band_profile(shuffled);
    const BandProfile after = band_profile(shuffled, rcm_ordering(shuffled));
    EXPECT_GT(before.bandwidth, g.size() / 2);
    EXPECT_LT(after.bandwidth, g.size() / 30);
    EXPECT_LT(after.profile * 15, before.profile);
  }
}

TEST_F(ShippedMeshes, ReorderedMeshIsTheSameMesh) {
  const Mesh2D& m = *naca_;
  const Permutation p = order_cells(m, CellOrdering::Rcm);
  const Mesh2D r = reorder_cells(m, p);
  EXPECT_TRUE(check_mesh(r).ok());
  EXPECT_EQ(r.num_faces(), m.num_faces());
  const MeshGeometry a = compute_geometry(m), b = compute_geometry(r);
  for (index_t i = 0; i < r.num_cells(); ++i) EXPECT_EQ(b.cell_area[i], a.cell_area[p.new_to_old[i]]);
  EXPECT_EQ(band_profile(cell_graph(r)).bandwidth, band_profile(cell_graph(m), p).bandwidth);
  EXPECT_EQ(marker_faces(r, "airfoil"), marker_faces(m, "airfoil"));
}

TEST_F(ShippedMeshes, MetisPartitionsAreBalanced) {
  if (!metis_available()) GTEST_SKIP() << "built without METIS";
  const Graph g = cell_graph(*naca_);
  for (index_t parts : {2, 4, 8, 16}) {
    const std::vector<index_t> part = partition_graph(g, parts);
    std::vector<index_t> size(parts, 0);
    for (index_t p : part) ++size[p];
    EXPECT_GT(*std::min_element(size.begin(), size.end()), 0);
    EXPECT_LE(*std::max_element(size.begin(), size.end()), 1.05 * g.size() / parts) << parts << " parts";
    const Permutation order = partition_ordering(part, parts);
    for (index_t i = 1; i < g.size(); ++i) EXPECT_LE(part[order.new_to_old[i - 1]], part[order.new_to_old[i]]);
  }
  EXPECT_EQ(partition_graph(g, 1), std::vector<index_t>(g.size(), 0));
}

// Weighted by their rows' work, parts of the hybrid NACA0012 mesh balance the
// matrix blocks that cells alone leave 8-24 % apart (quadrilaterals have four
// neighbours, triangles three).
TEST_F(ShippedMeshes, WorkWeightedPartitionsBalanceTheMatrixBlocks) {
  if (!metis_available()) GTEST_SKIP() << "built without METIS";
  const Graph g = cell_graph(*naca_);
  const std::vector<index_t> blocks = row_work_weights(g, 0);
  const auto largest_share = [&](const std::vector<index_t>& part, index_t parts) {
    std::vector<double> sum(std::size_t(parts), 0.0);
    for (index_t v = 0; v < g.size(); ++v) sum[std::size_t(part[v])] += double(blocks[std::size_t(v)]);
    double total = 0.0;
    for (double s : sum) total += s;
    return *std::max_element(sum.begin(), sum.end()) / (total / double(parts));
  };
  for (index_t parts : {2, 8, 16}) {
    EXPECT_GT(largest_share(partition_graph(g, parts), parts), 1.05) << parts << " parts by cells";
    EXPECT_LT(largest_share(partition_graph(g, parts, blocks), parts), 1.04) << parts << " parts by blocks";
  }
  EXPECT_EQ(row_work_weights(g, 2)[0], blocks[0] + 2);
  EXPECT_THROW(partition_graph(g, 4, std::vector<index_t>(3, 1)), Error);
  EXPECT_THROW(partition_graph(g, 4, std::vector<index_t>(std::size_t(g.size()), 0)), Error);
}

}  // namespace
}  // namespace tb
