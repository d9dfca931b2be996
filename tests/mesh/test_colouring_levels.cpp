// Greedy colouring with balancing, colour ordering, and level schedules.
#include <gtest/gtest.h>

#include <algorithm>

#include "graph_fixtures.hpp"
#include "mesh/graph/colouring.hpp"
#include "mesh/graph/level_schedule.hpp"

namespace tb {
namespace {

using testing::grid_graph;
using testing::scrambled;

TEST(Colouring, GridInNaturalOrderIsACheckerboard) {
  const Graph g = grid_graph(9, 7);
  const Colouring c = greedy_colouring(g);
  EXPECT_EQ(c.num_colours, 2);
  EXPECT_TRUE(is_valid_colouring(g, c));
  EXPECT_EQ(c.sizes(), (std::vector<index_t>{32, 31}));
}

TEST(Colouring, ScrambledGraphStaysValidAfterBalancing) {
  // Grid plus both diagonals (9-point stencil): needs 4 colours, greedy uses more on a random order.
  std::vector<std::pair<index_t, index_t>> edges;
  const index_t nx = 20, ny = 20;
  for (index_t j = 0; j < ny; ++j)
    for (index_t i = 0; i < nx; ++i)
      for (auto [di, dj] : {std::pair{1, 0}, {0, 1}, {1, 1}, {-1, 1}})
        if (i + di >= 0 && i + di < nx && j + dj < ny) edges.push_back({j * nx + i, (j + dj) * nx + i + di});
  const Graph g = permute(graph_from_edges(nx * ny, edges), scrambled(nx * ny));
  Colouring c = greedy_colouring(g);
  ASSERT_TRUE(is_valid_colouring(g, c));
  EXPECT_GE(c.num_colours, 4);
  const auto before = c.sizes();
  balance_colours(g, c);
  EXPECT_TRUE(is_valid_colouring(g, c));
  const auto after = c.sizes();
  EXPECT_EQ(after.size(), before.size());
  EXPECT_GT(*std::min_element(after.begin(), after.end()), *std::min_element(before.begin(), before.end()));
  EXPECT_LE(*std::max_element(after.begin(), after.end()), *std::max_element(before.begin(), before.end()));
}

TEST(Colouring, ColourOrderingIsColourMajorAndStable) {
  Colouring c;
  c.colour = {1, 0, 2, 0, 1};
  c.num_colours = 3;
  const Permutation p = colour_ordering(c);
  EXPECT_EQ(p.new_to_old, (std::vector<index_t>{1, 3, 0, 4, 2}));
}

TEST(Colouring, InvalidColouringsAreDetected) {
  const Graph g = grid_graph(3, 1);
  Colouring c;
  c.colour = {0, 0, 1};
  c.num_colours = 2;
  EXPECT_FALSE(is_valid_colouring(g, c));
}

TEST(LevelSchedule, GridWavefrontsAreAntiDiagonals) {
  const index_t nx = 6, ny = 4;
  const Graph g = grid_graph(nx, ny);
  const LevelSchedule s = lower_level_schedule(g);
  EXPECT_EQ(s.num_levels(), nx + ny - 1);
  for (index_t j = 0; j < ny; ++j)
    for (index_t i = 0; i < nx; ++i) EXPECT_EQ(s.level[j * nx + i], i + j);
  EXPECT_EQ(s.rows.size(), static_cast<std::size_t>(nx * ny));
  const LevelSchedule u = upper_level_schedule(g.size(), g.row_ptr.data(), g.col_idx.data());
  EXPECT_EQ(u.num_levels(), nx + ny - 1);
  EXPECT_EQ(u.level[0], nx + ny - 2);
}

TEST(LevelSchedule, DependenciesPrecedeInAnyOrder) {
  const Graph g = permute(grid_graph(15, 11), scrambled(165, 7));
  const LevelSchedule s = lower_level_schedule(g);
  for (index_t l = 0; l < s.num_levels(); ++l) {
    EXPECT_LT(s.level_ptr[l], s.level_ptr[l + 1]) << "empty level " << l;
    for (index_t k = s.level_ptr[l]; k < s.level_ptr[l + 1]; ++k) {
      const index_t row = s.rows[k];
      EXPECT_EQ(s.level[row], l);
      for (const index_t* u = g.begin(row); u != g.end(row); ++u)
        if (*u < row) {
          EXPECT_LT(s.level[*u], l);
        }
    }
  }
}

TEST(LevelSchedule, DiagonalAndChainPatterns) {
  const std::vector<index_t> diag_ptr{0, 1, 2, 3}, diag_col{0, 1, 2};
  EXPECT_EQ(lower_level_schedule(3, diag_ptr.data(), diag_col.data()).num_levels(), 1);
  const std::vector<index_t> chain_ptr{0, 1, 3, 5}, chain_col{0, 0, 1, 1, 2};
  EXPECT_EQ(lower_level_schedule(3, chain_ptr.data(), chain_col.data()).num_levels(), 3);
}

}  // namespace
}  // namespace tb
