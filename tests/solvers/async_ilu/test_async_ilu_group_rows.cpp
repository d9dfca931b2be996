// The group mapping of the asynchronous ILU's CUDA kernels (a group of lanes
// per block row, lane c computing component c: group_row_kernels.hpp), its
// arithmetic and synchronisation run on host threads (lane_group.hpp) against
// the sequential kernels::ref, bit for bit, for every block size 1..32 and
// both schedules; and the choice of mapping by block size.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kernel_runs.hpp"
#include "lane_group.hpp"
#include "solvers/core/error.hpp"

namespace tb::async_ilu {
namespace {

// Small grids for the large blocks: a lane a thread, a sync a barrier.
test::AsyncIluInputs inputs_for(index_t b) {
  return b <= 8 ? test::async_ilu_inputs(4, 3, 3, b, unsigned(100 + b)) : test::async_ilu_inputs(3, 2, 2, b, 7);
}

TEST(AsyncIluGroupRows, EqualRefBitwiseForEveryBlockSize) {
  for (index_t b = 1; b <= 32; ++b) {
    const test::AsyncIluInputs in = inputs_for(b);
    for (const Schedule schedule : {Schedule::synchronous, Schedule::asynchronous}) {
      const int sweeps = schedule == Schedule::synchronous ? 3 : 2;
      const test::Factors want = test::run_factor<test::RefKernels>(in, sweeps, schedule, {});
      const test::Factors got = test::run_factor<test::LaneGroupKernels>(in, sweeps, schedule, {});
      ASSERT_EQ(want.bad_row, -1) << "b = " << b;
      EXPECT_EQ(got.bad_row, -1) << "b = " << b;
      EXPECT_EQ(got.lu, want.lu) << "b = " << b;
      EXPECT_EQ(got.dinv, want.dinv) << "b = " << b;
      EXPECT_EQ(test::run_solve<test::LaneGroupKernels>(in, want, sweeps, schedule, {}),
                test::run_solve<test::RefKernels>(in, want, sweeps, schedule, {}))
          << "b = " << b;
    }
  }
}

// U_00 = A_00 (no products reach block row 0): a singular A_00 is reported at
// row 0, and its old inverse kept, as by ref.
TEST(AsyncIluGroupRows, ReportASingularDiagonalBlockAsRefDoes) {
  for (index_t b : {3, 12, 32}) {
    test::AsyncIluInputs in = inputs_for(b);
    const std::size_t nb = std::size_t(b) * std::size_t(b);
    double* a00 = in.a.values.data() + std::size_t(in.pattern.diag[0]) * nb;
    for (std::size_t e = 0; e < nb; ++e) a00[e] = 0.0;
    for (const Schedule schedule : {Schedule::synchronous, Schedule::asynchronous}) {
      const test::Factors want = test::run_factor<test::RefKernels>(in, 1, schedule, {});
      const test::Factors got = test::run_factor<test::LaneGroupKernels>(in, 1, schedule, {});
      ASSERT_EQ(want.bad_row, 0) << "b = " << b;
      EXPECT_EQ(got.bad_row, 0) << "b = " << b;
      EXPECT_EQ(got.lu, want.lu) << "b = " << b;
      EXPECT_EQ(got.dinv, want.dinv) << "b = " << b;
    }
  }
}

TEST(AsyncIluGroupRows, MappingByBlockSize) {
  for (index_t b = 1; b <= 8; ++b) EXPECT_EQ(resolve_gpu_rows(GpuRows::automatic, b), GpuRows::thread) << b;
  for (index_t b = 9; b <= 32; ++b) EXPECT_EQ(resolve_gpu_rows(GpuRows::automatic, b), GpuRows::group) << b;
  EXPECT_EQ(resolve_gpu_rows(GpuRows::group, 4), GpuRows::group);
  EXPECT_EQ(resolve_gpu_rows(GpuRows::thread, 8), GpuRows::thread);
  try {
    (void)resolve_gpu_rows(GpuRows::thread, 9);
    FAIL() << "gpu_rows=thread took a 9 x 9 block";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("gpu_rows=thread takes block sizes 1..8"), std::string::npos) << e.what();
  }
  try {
    (void)resolve_gpu_rows(GpuRows::automatic, 33);
    FAIL() << "a 33 x 33 block was taken";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("block sizes 1..32, not 33"), std::string::npos) << e.what();
  }
  const std::vector<std::pair<index_t, index_t>> widths = {{1, 1}, {2, 2}, {3, 4}, {5, 8}, {8, 8}, {9, 16}, {17, 32}};
  for (const auto& [b, w] : widths) EXPECT_EQ(group_width(b), w) << b;
}

}  // namespace
}  // namespace tb::async_ilu
