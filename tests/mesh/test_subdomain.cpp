// decompose (mesh/graph/subdomain.hpp): owned sets, ghost layers as BFS
// distance shells, and halo plans that fill every ghost, checked against a BFS
// written here and a simulated exchange.
#include <gtest/gtest.h>

#include <deque>
#include <string>

#include "graph_fixtures.hpp"
#include "halo_checks.hpp"
#include "mesh/graph/subdomain.hpp"
#include "mesh/io/mesh_io.hpp"
#include "mesh/mesh_graph.hpp"
#include "mesh/partition.hpp"
#include "mesh_fixtures.hpp"
#include "solvers/core/error.hpp"

namespace tb {
namespace {

using testing::grid_graph;

Graph path_graph(index_t n) {
  std::vector<std::pair<index_t, index_t>> edges;
  for (index_t v = 0; v + 1 < n; ++v) edges.push_back({v, v + 1});
  return graph_from_edges(n, edges);
}

// Graph distance of every vertex from the vertices of `part` (-1: unreachable).
std::vector<index_t> bfs_distance(const Graph& g, const std::vector<index_t>& owner, index_t part) {
  std::vector<index_t> d(g.size(), -1);
  std::deque<index_t> queue;
  for (index_t v = 0; v < g.size(); ++v)
    if (owner[v] == part) d[v] = 0, queue.push_back(v);
  while (!queue.empty()) {
    const index_t v = queue.front();
    queue.pop_front();
    for (index_t e = g.row_ptr[v]; e < g.row_ptr[v + 1]; ++e)
      if (d[g.col_idx[e]] < 0) d[g.col_idx[e]] = d[v] + 1, queue.push_back(g.col_idx[e]);
  }
  return d;
}

// Every property decompose promises, against the BFS above and the exchange.
void expect_decomposition(const Graph& g, const std::vector<index_t>& owner, int parts, int layers) {
  const std::vector<Subdomain> sub = decompose(g, owner, parts, layers);
  ASSERT_EQ(static_cast<int>(sub.size()), parts);
  std::vector<index_t> times_owned(g.size(), 0);
  for (int p = 0; p < parts; ++p) {
    const Subdomain& s = sub[p];
    SCOPED_TRACE("part " + std::to_string(p) + " of " + std::to_string(parts) + ", " + std::to_string(layers) +
                 " layers");
    EXPECT_EQ(s.rank, p);
    const std::vector<index_t> d = bfs_distance(g, owner, p);
    // Shell k (k = 0: the owned set) is exactly the vertices at distance k, ascending.
    ASSERT_EQ(static_cast<int>(s.layer_end.size()), layers);
    index_t begin = 0;
    for (int k = 0; k <= layers; ++k) {
      const index_t end = k == 0 ? s.owned : s.layer_end[k - 1];
      std::vector<index_t> expected;
      for (index_t v = 0; v < g.size(); ++v)
        if (d[v] == k) expected.push_back(v);
      EXPECT_EQ(std::vector<index_t>(s.global.begin() + begin, s.global.begin() + end), expected) << "shell " << k;
      begin = end;
    }
    EXPECT_EQ(begin, s.size());
    ASSERT_EQ(s.ghost_owner.size(), s.global.size() - s.owned);
    for (index_t l = 0; l < s.size(); ++l) {
      EXPECT_EQ(s.local_of(s.global[l]), l);
      if (l >= s.owned) {
        EXPECT_EQ(s.ghost_owner[l - s.owned], owner[s.global[l]]);
      }
    }
    for (index_t l = 0; l < s.owned; ++l) ++times_owned[s.global[l]];
    index_t held = 0;
    for (index_t v = 0; v < g.size(); ++v) held += s.local_of(v) >= 0;
    EXPECT_EQ(held, s.size());
  }
  EXPECT_EQ(times_owned, std::vector<index_t>(g.size(), 1));
  EXPECT_EQ(testing::wrong_ghosts_after_exchange(
                sub, [](const Subdomain& s) { return s.owned; }, [](const Subdomain& s) { return s.size(); },
                [](const Subdomain& s, index_t l) { return s.global[l]; }),
            0);
}

TEST(Decompose, PathIntoSlices) {
  const Graph g = path_graph(10);
  const std::vector<index_t> owner{0, 0, 0, 1, 1, 2, 2, 2, 2, 1};
  const std::vector<Subdomain> sub = decompose(g, owner, 3, 2);
  // Part 1 owns 3, 4 and 9: layer 1 is {2, 5, 8}, layer 2 is {1, 6, 7}.
  EXPECT_EQ(sub[1].global, (std::vector<index_t>{3, 4, 9, 2, 5, 8, 1, 6, 7}));
  EXPECT_EQ(sub[1].owned, 3);
  EXPECT_EQ(sub[1].layer_end, (std::vector<index_t>{6, 9}));
  EXPECT_EQ(sub[1].ghost_owner, (std::vector<int>{0, 2, 2, 0, 2, 2}));
  EXPECT_EQ(sub[1].halo.neighbours, (std::vector<int>{0, 2}));
  EXPECT_EQ(sub[1].halo.recv_items, (std::vector<index_t>{3, 6, 4, 5, 7, 8}));
  // Part 0 owns 0, 1, 2 and sends 2 then 1 (part 1's order) from locals 2, 1.
  EXPECT_EQ(sub[0].halo.neighbours, (std::vector<int>{1}));
  EXPECT_EQ(sub[0].halo.send_items, (std::vector<index_t>{2, 1}));
  EXPECT_EQ(sub[1].local_of(0), -1);
  EXPECT_EQ(sub[1].local_of(9), 2);
  for (int layers : {0, 1, 2, 3, 6}) expect_decomposition(g, owner, 3, layers);
}

TEST(Decompose, GridInBlocksAndScattered) {
  const Graph g = grid_graph(9, 7);
  std::vector<index_t> blocks(g.size()), scattered(g.size());
  for (index_t v = 0; v < g.size(); ++v) {
    blocks[v] = (v % 9) / 3 + 3 * ((v / 9) / 4);  // 3 x 2 blocks
    scattered[v] = (v * 7 + v / 5) % 4;
  }
  for (int layers : {1, 2, 3}) {
    expect_decomposition(g, blocks, 6, layers);
    expect_decomposition(g, scattered, 4, layers);
  }
}

TEST(Decompose, APartMayOwnNothing) {
  const Graph g = grid_graph(5, 4);
  std::vector<index_t> owner(g.size());
  for (index_t v = 0; v < g.size(); ++v) owner[v] = v % 5 < 2 ? 0 : 2;  // part 1 owns nothing
  const std::vector<Subdomain> sub = decompose(g, owner, 3, 2);
  EXPECT_EQ(sub[1].size(), 0);
  EXPECT_EQ(sub[1].layer_end, (std::vector<index_t>{0, 0}));
  EXPECT_EQ(sub[1].halo.neighbour_count(), 0);
  EXPECT_EQ(sub[0].halo.neighbours, (std::vector<int>{2}));
  expect_decomposition(g, owner, 3, 2);
  expect_decomposition(g, std::vector<index_t>(g.size(), 1), 2, 2);  // part 0 owns nothing, part 1 all
}

TEST(Decompose, MetisPartsOfAShippedMesh) {
  if (!metis_available()) GTEST_SKIP() << "built without METIS";
  const Graph g = cell_graph(read_mesh(testing::shipped_mesh("cylinder_coarse.msh")));
  for (int parts : {2, 5}) {
    const std::vector<index_t> owner = partition_graph(g, parts);
    expect_decomposition(g, owner, parts, 2);
  }
}

TEST(Decompose, RefusesBadInputNamingTheArgument) {
  const Graph g = path_graph(4);
  auto message = [&](std::vector<index_t> owner, int parts, int layers) {
    try {
      decompose(g, owner, parts, layers);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message({0, 1, 0}, 2, 1).find("owner has 3 entries for a graph of 4"), std::string::npos);
  EXPECT_NE(message({0, 1, 2, 0}, 2, 1).find("owner[2] = 2 is not in [0, 2)"), std::string::npos);
  EXPECT_NE(message({0, -1, 0, 0}, 2, 1).find("owner[1] = -1"), std::string::npos);
  EXPECT_NE(message({0, 1, 0, 0}, 2, -1).find("layers must be at least 0"), std::string::npos);
  EXPECT_NE(message({0, 0, 0, 0}, 0, 1).find("parts must be at least 1"), std::string::npos);
}

}  // namespace
}  // namespace tb
