#pragma once
// Work items of one CUDA launch that runs dependent stages in order: the
// hyperplanes of a wavefront sweep (FGBILU, seed 000) or the colours of a
// multicolour sweep (seed 002). Stage s holds positions stage_ptr[s] ..
// stage_ptr[s+1] - 1; the items are groups of `points` consecutive positions
// that never straddle two stages, numbered stage by stage. Group g of stage s
// covers stage_ptr[s] + (g - group_ptr[s]) * points up to that + points or the
// stage's end. A workgroup that holds group g waits only for groups numbered
// before it (after it, for a launch that walks the stages backwards), which is
// what makes the device-side ordering of cuda/stage_order.cuh end.
#include <cstddef>
#include <span>
#include <vector>

#include "array.hpp"
#include "host_device.hpp"
#include "types.hpp"

namespace tb {

struct StageGroups {
  index_t points = 1;
  std::vector<index_t> group_ptr;    // [stages + 1]: first group of each stage
  std::vector<index_t> group_stage;  // [groups]: the stage of each group
  index_t num_groups() const { return index_t(group_stage.size()); }
};

// Throws tb::Error when points is not positive or stage_ptr is not a
// non-decreasing offset array starting at 0. Empty stages get no group.
StageGroups make_stage_groups(std::span<const index_t> stage_ptr, index_t points);

// Counters sit one 128-byte line apart: the workgroups waiting on different
// stages then poll different lines (and L2 slices) instead of one.
inline constexpr index_t stage_counter_stride = 32;

// The plan and its counters on one backend, as the kernels take them:
// counter(0) hands out workgroup tickets, counter(1 + s) counts the finished
// groups of stage s. The launchers zero the counters before each launch.
struct StageGroupsView {
  const index_t* stage_ptr = nullptr;    // [stages + 1]
  const index_t* group_ptr = nullptr;    // [stages + 1]
  const index_t* group_stage = nullptr;  // [groups]
  index_t stages = 0, groups = 0, points = 1;
  index_t* counters = nullptr;  // [(1 + stages) * stage_counter_stride]
  TB_HOST_DEVICE index_t* counter(index_t k) const { return counters + std::size_t(k) * stage_counter_stride; }
};

// The stage a workgroup of `stage` must wait for: the nearest non-empty one
// before it (after it, backwards), or -1 when there is none. Empty stages
// count no groups; the stage returned waited for those before it in turn.
TB_HOST_DEVICE inline index_t stage_to_wait_for(const index_t* group_ptr, index_t stages, index_t stage,
                                                bool backwards) {
  const index_t step = backwards ? 1 : -1;
  index_t s = stage + step;
  while (s >= 0 && s < stages && group_ptr[s + 1] == group_ptr[s]) s += step;
  return s >= 0 && s < stages ? s : -1;
}

// Owns the device copy of a StageGroups plan; built once per pattern.
class StageSchedule {
 public:
  StageSchedule() = default;
  StageSchedule(Backend b, std::span<const index_t> stage_ptr, index_t points);
  StageGroupsView view() const;

 private:
  Array<index_t> stage_ptr_, group_ptr_, group_stage_;
  mutable Array<index_t> counters_;
  index_t points_ = 1;
};

}  // namespace tb
