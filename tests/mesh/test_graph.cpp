// Graph construction, permutations, bandwidth/profile, RCM and one-way dissection.
#include <gtest/gtest.h>

#include <algorithm>

#include "graph_fixtures.hpp"
#include "mesh/graph/one_way_dissection.hpp"
#include "mesh/graph/rcm.hpp"
#include "solvers/core/error.hpp"

namespace tb {
namespace {

using testing::grid_graph;
using testing::scrambled;

TEST(Graph, FromEdgesIsSymmetricSortedWithoutDuplicates) {
  const Graph g = graph_from_edges(4, {{0, 1}, {1, 0}, {2, 1}, {3, 3}, {0, 1}, {1, 3}});
  EXPECT_EQ(g.row_ptr, (std::vector<index_t>{0, 1, 4, 5, 6}));
  EXPECT_EQ(g.col_idx, (std::vector<index_t>{1, 0, 2, 3, 1, 1}));
  EXPECT_EQ(g.num_edges(), 3);
  EXPECT_THROW(graph_from_edges(2, {{0, 2}}), Error);
}

TEST(Graph, FromPatternSymmetrisesAndDropsTheDiagonal) {
  // Lower-triangular pattern of a 3x3 matrix: rows {0}, {0,1}, {1,2}.
  const std::vector<index_t> row_ptr{0, 1, 3, 5}, col_idx{0, 0, 1, 1, 2};
  const Graph g = graph_from_pattern(3, row_ptr.data(), col_idx.data());
  EXPECT_EQ(g.row_ptr, (std::vector<index_t>{0, 1, 3, 4}));
  EXPECT_EQ(g.col_idx, (std::vector<index_t>{1, 0, 2, 1}));
}

TEST(Graph, PowerJoinsVerticesWithinThatManyEdges) {
  // The path 0 - 1 - 2 - 3 - 4 - 5.
  const Graph path = graph_from_edges(6, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}});
  const Graph two = graph_power(path, 2);
  EXPECT_EQ(std::vector<index_t>(two.begin(0), two.end(0)), (std::vector<index_t>{1, 2}));
  EXPECT_EQ(std::vector<index_t>(two.begin(2), two.end(2)), (std::vector<index_t>{0, 1, 3, 4}));
  EXPECT_EQ(graph_power(path, 1).col_idx, path.col_idx);
  EXPECT_EQ(graph_power(path, 5).num_edges(), 15);  // complete
  // A 4 x 4 grid: a corner reaches 2 + 3 + 4 vertices within 3 edges.
  EXPECT_EQ(graph_power(grid_graph(4, 4), 3).degree(0), 9);
  EXPECT_THROW(graph_power(path, 0), Error);
}

TEST(Permutation, ValidatesAndInverts) {
  const Permutation p = Permutation::from_new_to_old({2, 0, 1});
  EXPECT_EQ(p.old_to_new, (std::vector<index_t>{1, 2, 0}));
  EXPECT_THROW(Permutation::from_new_to_old({0, 0, 1}), Error);
  EXPECT_THROW(Permutation::from_new_to_old({0, 3, 1}), Error);
  const Permutation q = Permutation::from_new_to_old({1, 2, 0});
  EXPECT_EQ(compose(p, q).new_to_old, (std::vector<index_t>{0, 1, 2}));
  EXPECT_EQ(permute_values(std::vector<double>{10, 20, 30}, p), (std::vector<double>{30, 10, 20}));
}

TEST(BandProfile, KnownValues) {
  // Path 0-1-2-3 natural: bandwidth 1, profile 3; numbered 0,2,1,3 along the path: bandwidth 2.
  const Graph path = graph_from_edges(4, {{0, 1}, {1, 2}, {2, 3}});
  EXPECT_EQ(band_profile(path).bandwidth, 1);
  EXPECT_EQ(band_profile(path).profile, 3);
  const Permutation p = Permutation::from_new_to_old({0, 2, 1, 3});
  EXPECT_EQ(band_profile(path, p).bandwidth, 2);
  EXPECT_EQ(band_profile(path, p).profile, 1 + 2 + 1);
  // A 7x5 grid in natural order has bandwidth nx.
  EXPECT_EQ(band_profile(grid_graph(7, 5)).bandwidth, 7);
}

TEST(Rcm, ScrambledPathGetsBandwidthOne) {
  std::vector<std::pair<index_t, index_t>> edges;
  for (index_t i = 0; i + 1 < 200; ++i) edges.push_back({i, i + 1});
  const Graph g = permute(graph_from_edges(200, edges), scrambled(200));
  ASSERT_GT(band_profile(g).bandwidth, 100);
  const Permutation p = rcm_ordering(g);
  EXPECT_EQ(band_profile(g, p).bandwidth, 1);
  EXPECT_EQ(band_profile(g, p).profile, 199);
}

TEST(Rcm, ScrambledGridGetsGridBandwidth) {
  // Levels from a corner are anti-diagonals of at most 12 cells: bandwidth <= 2*12.
  const Graph g = permute(grid_graph(30, 12), scrambled(360));
  const BandProfile before = band_profile(g);
  const Permutation p = rcm_ordering(g);
  const BandProfile after = band_profile(g, p);
  EXPECT_GT(before.bandwidth, 300);
  EXPECT_LE(after.bandwidth, 24);
  EXPECT_LT(after.profile * 10, before.profile);
}

TEST(Rcm, HandlesDisconnectedAndEmptyGraphs) {
  const Graph g = graph_from_edges(6, {{0, 3}, {3, 5}, {1, 4}});  // 2 is isolated
  const Permutation p = rcm_ordering(g);
  EXPECT_TRUE(is_permutation(p.new_to_old));
  EXPECT_EQ(band_profile(g, p).bandwidth, 1);
  EXPECT_EQ(rcm_ordering(Graph{}).size(), 0);
}

// The defining property of one-way dissection: once the separator blocks are
// removed, the other blocks share no edge, and every block is contiguous.
void expect_one_way_dissection(const Graph& g, const OneWayDissection& d, index_t min_blocks) {
  ASSERT_TRUE(is_permutation(d.permutation.new_to_old));
  ASSERT_EQ(d.block_ptr.back(), g.size());
  const index_t blocks = static_cast<index_t>(d.block_ptr.size()) - 1;
  std::vector<index_t> block_of(g.size());
  for (index_t b = 0; b < blocks; ++b)
    for (index_t i = d.block_ptr[b]; i < d.block_ptr[b + 1]; ++i) block_of[d.permutation.new_to_old[i]] = b;
  index_t independent = 0;
  for (index_t b = 0; b < blocks; ++b) independent += !d.separator_block[b];
  EXPECT_GE(independent, min_blocks);
  for (index_t v = 0; v < g.size(); ++v)
    for (const index_t* u = g.begin(v); u != g.end(v); ++u)
      if (!d.separator_block[block_of[v]] && !d.separator_block[block_of[*u]]) {
        EXPECT_EQ(block_of[v], block_of[*u]) << "blocks " << block_of[v] << " and " << block_of[*u] << " touch";
      }
}

TEST(OneWayDissection, LongGridSplitsIntoIndependentBlocks) {
  // 100x5 grid: 104 levels of width <= 5 from a corner, w = 500/104, so a
  // separator every 1 + sqrt((3w+13)/2) = 4.7 levels: about 21 separators.
  const Graph g = permute(grid_graph(100, 5), scrambled(500));
  const OneWayDissection d = one_way_dissection(g);
  expect_one_way_dissection(g, d, 18);
  // Separators come last: the last block is the separator of the only component.
  EXPECT_TRUE(d.separator_block.back());
  EXPECT_FALSE(d.separator_block.front());
}

TEST(OneWayDissection, DisconnectedGraphAndShallowComponents) {
  std::vector<std::pair<index_t, index_t>> edges{{0, 1}};  // a 2-vertex component: all separator
  const Graph grid = grid_graph(40, 4);
  for (index_t v = 0; v < grid.size(); ++v)
    for (const index_t* u = grid.begin(v); u != grid.end(v); ++u) edges.push_back({v + 2, *u + 2});
  const Graph g = graph_from_edges(grid.size() + 3, edges);  // and one isolated vertex
  expect_one_way_dissection(g, one_way_dissection(g), 5);
}

}  // namespace
}  // namespace tb
