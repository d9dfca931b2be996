#pragma once
// The CUDA group mapping of the asynchronous ILU (group_row_kernels.hpp) run
// on the host: the lanes of one group are threads that meet at a
// std::barrier wherever a warp's lanes meet at __syncwarp, and one group
// sweeps every block row in natural order (the backward sweep in reverse),
// all its lanes done with a row before the next (factor_row and upper_row end
// with a sync of their own; on a GPU each row is another group's), so the
// result must equal kernels::ref bit for bit. It tests the split of the
// arithmetic over lanes and the places the lanes synchronise, not the launch
// geometry of the CUDA kernels (test_async_ilu_kernels_gpu.cpp does, on a GPU).
#include <algorithm>
#include <barrier>
#include <thread>
#include <utility>
#include <vector>

#include "solvers/async_ilu/group_row_kernels.hpp"
#include "solvers/async_ilu/kernels.hpp"
#include "solvers/core/block_size_dispatch.hpp"

namespace tb::test {

// The group interface of group_row_kernels.hpp over host threads.
class LaneGroup {
 public:
  LaneGroup(index_t lane, std::barrier<>& meet, std::vector<char>& votes) : lane_(lane), meet_(meet), votes_(votes) {}
  index_t lane() const { return lane_; }
  void sync() const { meet_.arrive_and_wait(); }
  bool all(bool p) const {
    votes_[std::size_t(lane_)] = p ? 1 : 0;
    sync();
    const bool every = std::all_of(votes_.begin(), votes_.end(), [](char v) { return v != 0; });
    sync();  // every vote read before the next one is cast
    return every;
  }

 private:
  index_t lane_;
  std::barrier<>& meet_;
  std::vector<char>& votes_;
};

// Runs body(group) on group_width(n) threads, one a lane.
template <class Body>
void run_lanes(index_t n, Body body) {
  const index_t width = async_ilu::group_width(n);
  std::barrier<> meet(width);
  std::vector<char> votes(std::size_t(width), 0);
  std::vector<std::thread> lanes;
  for (index_t l = 0; l < width; ++l)
    lanes.emplace_back([&, l] {
      const LaneGroup g(l, meet, votes);
      body(g);
    });
  for (std::thread& t : lanes) t.join();
}

// K of kernel_runs.hpp: the group bodies on host lanes, with the sweeps'
// buffers handled as kernels::ref handles them.
struct LaneGroupKernels {
  static constexpr Backend backend = Backend::host;

  static index_t factor_sweeps(const async_ilu::FactorView& f, async_ilu::FactorState s, int sweeps,
                               async_ilu::Schedule schedule, const async_ilu::SweepSplit&) {
    const bool sync = schedule == async_ilu::Schedule::synchronous;
    const index_t n = f.block_size;
    std::vector<double> scratch(std::size_t(async_ilu::group_scratch(n)));
    index_t bad = -1;
    with_block_size_up_to<32>(n, [&]<int N>() {
      run_lanes(n, [&](const LaneGroup& g) {
        async_ilu::FactorState mine = s;
        for (int sweep = 0; sweep < sweeps; ++sweep) {
          double* dst = sync ? mine.lu_next : mine.lu;
          double* dst_dinv = sync ? mine.dinv_next : mine.dinv;
          for (index_t i = 0; i < f.block_rows; ++i)
            if (!async_ilu::group::factor_row<N>(f, i, mine.lu, mine.dinv, dst, dst_dinv, scratch.data(), g) &&
                g.lane() == 0 && bad < 0)
              bad = i;
          if (sync) std::swap(mine.lu, mine.lu_next), std::swap(mine.dinv, mine.dinv_next);
        }
      });
    });
    if (sync && sweeps % 2 == 1) copy_back(f, s);
    return bad;
  }

  static void triangular_sweeps(const async_ilu::FactorView& f, const async_ilu::ApplyState& s, const double* r,
                                double* z, int sweeps, async_ilu::Schedule schedule, const async_ilu::SweepSplit&) {
    const bool sync = schedule == async_ilu::Schedule::synchronous;
    const index_t n = f.block_size;
    const std::size_t len = std::size_t(f.block_rows) * std::size_t(n);
    std::fill(s.y, s.y + len, 0.0);
    std::fill(z, z + len, 0.0);
    if (sync) std::fill(s.work, s.work + len, 0.0);
    std::vector<double> scratch(static_cast<std::size_t>(n));
    double* ybuf[2] = {s.y, sync ? s.work : s.y};
    double* zbuf[2] = {z, sync ? s.work : z};
    with_block_size_up_to<32>(n, [&]<int N>() {
      run_lanes(n, [&](const LaneGroup& g) {
        for (int sweep = 0; sweep < sweeps; ++sweep)
          for (index_t i = 0; i < f.block_rows; ++i) {
            async_ilu::group::lower_row<N>(f, s.lu, i, r, ybuf[sweep % 2], ybuf[(sweep + 1) % 2], g);
            g.sync();  // the next row after this one, as in natural order (on a GPU: another group)
          }
      });
      if (sync && sweeps % 2 == 1) std::copy(s.work, s.work + len, s.y);
      if (sync) std::fill(s.work, s.work + len, 0.0);
      run_lanes(n, [&](const LaneGroup& g) {
        for (int sweep = 0; sweep < sweeps; ++sweep)
          for (index_t i = f.block_rows - 1; i >= 0; --i)
            async_ilu::group::upper_row<N>(f, s.lu, s.dinv, i, s.y, zbuf[sweep % 2], zbuf[(sweep + 1) % 2],
                                           scratch.data(), g);
      });
    });
    if (sync && sweeps % 2 == 1) std::copy(s.work, s.work + len, z);
  }

 private:
  // An odd number of Jacobi sweeps leaves the result in the second buffers;
  // both pairs end holding it, as after kernels::ref.
  static void copy_back(const async_ilu::FactorView& f, async_ilu::FactorState s) {
    const std::size_t nb = std::size_t(f.block_size) * std::size_t(f.block_size);
    std::copy(s.lu_next, s.lu_next + std::size_t(f.blocks) * nb, s.lu);
    std::copy(s.dinv_next, s.dinv_next + std::size_t(f.block_rows) * nb, s.dinv);
  }
};

}  // namespace tb::test
