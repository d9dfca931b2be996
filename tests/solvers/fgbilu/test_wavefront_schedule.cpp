// The wavefront schedule (seed 000, Algorithm 1): every cell exactly once,
// every lower neighbour in an earlier hyperplane, N_p as counted by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "solvers/core/error.hpp"
#include "solvers/core/stage_groups.hpp"
#include "solvers/matrix/wavefront_schedule.hpp"

namespace tb::fgbilu {
namespace {

class Schedule : public ::testing::TestWithParam<GridShape> {};

TEST_P(Schedule, EveryCellOnceAndDependenciesEarlier) {
  const GridShape g = GetParam();
  const WavefrontSchedule s = make_wavefront_schedule(g);
  ASSERT_EQ(s.num_planes(), g.ni + g.nj + g.nk - 2);
  std::vector<int> seen(g.cells(), 0);
  for (index_t p = 0; p < s.num_planes(); ++p)
    for (index_t q = s.plane_ptr[p]; q < s.plane_ptr[p + 1]; ++q) {
      const auto [i, j, k] = s.ijk[q];
      EXPECT_EQ(i + j + k, p);
      EXPECT_EQ(s.natural[q], g.natural(i, j, k));
      EXPECT_EQ(s.position[s.natural[q]], q);
      ++seen[s.natural[q]];
      for (int d = 0; d < num_neighbours; ++d) {
        const index_t nq = s.neighbour[std::size_t(d) * g.cells() + q];
        if (nq < 0) continue;
        const auto [ni, nj, nk] = s.ijk[nq];
        EXPECT_EQ(std::abs(ni - i) + std::abs(nj - j) + std::abs(nk - k), 1);
        // Lower neighbours (d < 3) lie in plane p - 1, upper ones in p + 1.
        EXPECT_EQ(ni + nj + nk, d < 3 ? p - 1 : p + 1);
      }
    }
  for (index_t c = 0; c < g.cells(); ++c) EXPECT_EQ(seen[c], 1) << "cell " << c;
}

INSTANTIATE_TEST_SUITE_P(Shapes, Schedule,
                         ::testing::Values(GridShape{1, 1, 1}, GridShape{1, 1, 7}, GridShape{6, 1, 1},
                                           GridShape{10, 5, 5}, GridShape{3, 4, 2}));

// Seed 000, Fig. 5: in a 10 x 5 x 5 block, N_5 = 6 and N_12 = 25 (1-based p = i + j + k).
TEST(Schedule, PlaneSizesOfFigure5) {
  const WavefrontSchedule s = make_wavefront_schedule({10, 5, 5});
  EXPECT_EQ(s.plane_size(5 - 3), 6);
  EXPECT_EQ(s.plane_size(12 - 3), 25);
  EXPECT_EQ(s.plane_size(0), 1);
  EXPECT_EQ(s.plane_size(s.num_planes() - 1), 1);
  EXPECT_EQ(s.max_plane_size(), 25);
}

// The sequential baseline's storage: natural order, the same neighbours.
TEST(Schedule, NaturalOrderStoresCellsByNaturalIndex) {
  const GridShape g{4, 3, 2};
  const WavefrontSchedule w = make_wavefront_schedule(g);
  const WavefrontSchedule s = make_wavefront_schedule(g, CellOrder::natural);
  for (index_t c = 0; c < g.cells(); ++c) {
    EXPECT_EQ(s.natural[c], c);
    EXPECT_EQ(s.position[c], c);
    EXPECT_EQ(s.ijk[c], w.ijk[w.position[c]]);
    for (int d = 0; d < num_neighbours; ++d) {
      const index_t nw = w.neighbour[std::size_t(d) * g.cells() + w.position[c]];
      const index_t ns = s.neighbour[std::size_t(d) * g.cells() + c];
      EXPECT_EQ(ns, nw < 0 ? -1 : w.natural[nw]);
    }
  }
}

TEST(Schedule, RefusesEmptyGrid) { EXPECT_THROW(make_wavefront_schedule({0, 3, 3}), Error); }

// The single-launch CL sweeps take the hyperplanes as stages
// (solvers/core/stage_groups.hpp) and read a group's positions by its formula:
// every position once, no group across two planes, planes in order.
TEST(PlaneGroups, CoverEachPlaneInOrderWithoutStraddling) {
  for (const GridShape g : {GridShape{10, 5, 5}, GridShape{1, 1, 7}, GridShape{6, 1, 1}, GridShape{9, 8, 7}})
    for (const index_t points : {1, 3, 7, 100}) {
      const WavefrontSchedule s = make_wavefront_schedule(g);
      const StageGroups pg = make_stage_groups(s.plane_ptr, points);
      ASSERT_EQ(index_t(pg.group_ptr.size()), s.num_planes() + 1);
      std::vector<int> seen(g.cells(), 0);
      index_t expected_groups = 0;
      for (index_t p = 0; p < s.num_planes(); ++p) {
        expected_groups += (s.plane_size(p) + points - 1) / points;
        EXPECT_EQ(pg.group_ptr[p + 1], expected_groups);
      }
      ASSERT_EQ(pg.num_groups(), expected_groups);
      for (index_t grp = 0; grp < pg.num_groups(); ++grp) {
        const index_t p = pg.group_stage[grp];
        if (grp > 0) {
          EXPECT_GE(p, pg.group_stage[grp - 1]);
        }
        ASSERT_GE(grp, pg.group_ptr[p]);
        ASSERT_LT(grp, pg.group_ptr[p + 1]);
        const index_t begin = s.plane_ptr[p] + (grp - pg.group_ptr[p]) * points;
        const index_t end = std::min(begin + points, s.plane_ptr[p + 1]);
        ASSERT_LT(begin, end) << "empty group " << grp;
        for (index_t q = begin; q < end; ++q) ++seen[q];
      }
      for (index_t q = 0; q < g.cells(); ++q) EXPECT_EQ(seen[q], 1) << "position " << q << ", points " << points;
    }
  // Fig. 5's plane N_12 = 25 cells in groups of 7: four groups, the last of 4 cells.
  const StageGroups fig5 = make_stage_groups(make_wavefront_schedule({10, 5, 5}).plane_ptr, 7);
  EXPECT_EQ(fig5.group_ptr[12 - 3 + 1] - fig5.group_ptr[12 - 3], 4);
}

// Natural order has no hyperplanes, so there is nothing to group.
TEST(PlaneGroups, NaturalOrderIsRefused) {
  EXPECT_THROW(make_stage_groups(make_wavefront_schedule({3, 3, 3}, CellOrder::natural).plane_ptr, 4), Error);
}

}  // namespace
}  // namespace tb::fgbilu
