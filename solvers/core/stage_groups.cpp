#include "stage_groups.hpp"

#include <string>

#include "error.hpp"

namespace tb {

StageGroups make_stage_groups(std::span<const index_t> stage_ptr, index_t points) {
  if (points < 1) throw Error("stage groups: need at least one point per group, got " + std::to_string(points));
  if (stage_ptr.empty() || stage_ptr[0] != 0)
    throw Error("stage groups: the stage offsets must start at 0 (one entry more than stages)");
  StageGroups g;
  g.points = points;
  g.group_ptr.assign(1, 0);
  for (std::size_t s = 0; s + 1 < stage_ptr.size(); ++s) {
    const index_t size = stage_ptr[s + 1] - stage_ptr[s];
    if (size < 0) throw Error("stage groups: stage " + std::to_string(s) + " ends before it begins");
    const index_t groups = (size + points - 1) / points;
    g.group_stage.insert(g.group_stage.end(), std::size_t(groups), index_t(s));
    g.group_ptr.push_back(g.group_ptr.back() + groups);
  }
  return g;
}

StageSchedule::StageSchedule(Backend b, std::span<const index_t> stage_ptr, index_t points) {
  const StageGroups g = make_stage_groups(stage_ptr, points);
  stage_ptr_ = Array<index_t>(b, stage_ptr);
  group_ptr_ = Array<index_t>(b, std::span<const index_t>(g.group_ptr));
  group_stage_ = Array<index_t>(b, std::span<const index_t>(g.group_stage));
  counters_ = Array<index_t>(b, stage_ptr.size() * stage_counter_stride);
  points_ = points;
}

StageGroupsView StageSchedule::view() const {
  return {stage_ptr_.data(),
          group_ptr_.data(),
          group_stage_.data(),
          index_t(stage_ptr_.size()) - 1,
          index_t(group_stage_.size()),
          points_,
          counters_.data()};
}

}  // namespace tb
