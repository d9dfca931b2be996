// StageGroups (solvers/core/stage_groups.hpp): the work items of a launch that
// runs dependent stages in order. The device side waits for the nearest
// non-empty earlier stage, so empty stages must get no group and the groups
// must follow the stages in order.
#include <gtest/gtest.h>

#include <vector>

#include "solvers/core/error.hpp"
#include "solvers/core/stage_groups.hpp"

namespace tb {
namespace {

TEST(StageGroups, EmptyStagesGetNoGroupAndTheRestAreCut) {
  const std::vector<index_t> stage_ptr = {0, 5, 5, 12, 12, 12, 13};
  const StageGroups g = make_stage_groups(stage_ptr, 4);
  EXPECT_EQ(g.group_ptr, (std::vector<index_t>{0, 2, 2, 4, 4, 4, 5}));
  EXPECT_EQ(g.group_stage, (std::vector<index_t>{0, 0, 2, 2, 5}));
  EXPECT_EQ(g.num_groups(), 5);
}

// What the device waits for: the nearest non-empty stage on the side already done.
TEST(StageGroups, WaitSkipsEmptyStagesOnTheSideAlreadyDone) {
  const std::vector<index_t> stage_ptr = {0, 5, 5, 12, 12, 12, 13};
  const StageGroups g = make_stage_groups(stage_ptr, 4);
  const index_t stages = 6;
  EXPECT_EQ(stage_to_wait_for(g.group_ptr.data(), stages, 0, false), -1);
  EXPECT_EQ(stage_to_wait_for(g.group_ptr.data(), stages, 2, false), 0);
  EXPECT_EQ(stage_to_wait_for(g.group_ptr.data(), stages, 5, false), 2);
  EXPECT_EQ(stage_to_wait_for(g.group_ptr.data(), stages, 2, true), 5);
  EXPECT_EQ(stage_to_wait_for(g.group_ptr.data(), stages, 0, true), 2);
  EXPECT_EQ(stage_to_wait_for(g.group_ptr.data(), stages, 5, true), -1);
}

TEST(StageGroups, OneStageOfExactMultiple) {
  const StageGroups g = make_stage_groups(std::vector<index_t>{0, 256}, 128);
  EXPECT_EQ(g.group_ptr, (std::vector<index_t>{0, 2}));
  EXPECT_EQ(g.group_stage, (std::vector<index_t>{0, 0}));
}

TEST(StageGroups, BadOffsetsAndGroupSizesAreRefused) {
  EXPECT_THROW(make_stage_groups(std::vector<index_t>{}, 4), Error);
  EXPECT_THROW(make_stage_groups(std::vector<index_t>{1, 4}, 4), Error);
  EXPECT_THROW(make_stage_groups(std::vector<index_t>{0, 4, 3}, 4), Error);
  EXPECT_THROW(make_stage_groups(std::vector<index_t>{0, 4}, 0), Error);
}

TEST(StageGroups, HostScheduleViewMatchesThePlan) {
  const std::vector<index_t> stage_ptr = {0, 3, 3, 10};
  const StageSchedule s(Backend::host, stage_ptr, 4);
  const StageGroupsView v = s.view();
  EXPECT_EQ(v.stages, 3);
  EXPECT_EQ(v.groups, 3);
  EXPECT_EQ(v.points, 4);
  EXPECT_EQ(v.stage_ptr[3], 10);
  EXPECT_EQ(v.group_ptr[3], 3);
  EXPECT_EQ(v.group_stage[2], 2);
  // Counters a line apart, all of them inside the allocation (written here: zeroed by the launchers on a device).
  EXPECT_EQ(v.counter(1) - v.counter(0), stage_counter_stride);
  for (index_t k = 0; k <= v.stages; ++k) *v.counter(k) = k;
  EXPECT_EQ(*v.counter(v.stages), v.stages);
}

}  // namespace
}  // namespace tb
