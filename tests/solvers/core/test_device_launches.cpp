// The launch count (solvers/core/device_launches.hpp): one per counted launch,
// none while launches are recorded into a graph, and none on the host.
#include <gtest/gtest.h>

#include <vector>

#include "solvers/core/array.hpp"
#include "solvers/core/device_launches.hpp"
#include "solvers/core/kernels.hpp"

namespace tb {
namespace {

TEST(DeviceLaunches, CountsEachLaunchAndNoneWhileRecording) {
  const long before = device_launches();
  count_device_launch();
  count_device_launch();
  EXPECT_EQ(device_launches() - before, 2);
  begin_recording_device_launches();
  count_device_launch();  // recorded into a graph, not issued
  EXPECT_EQ(device_launches() - before, 2);
  end_recording_device_launches();
  count_device_launch();  // the graph's replay
  EXPECT_EQ(device_launches() - before, 3);
}

TEST(DeviceLaunches, HostKernelsLaunchNothing) {
  const std::vector<double> h(1000, 1.0);
  Vector x(Backend::host, std::span<const double>(h)), y(Backend::host, std::span<const double>(h));
  const long before = device_launches();
  kernels::axpby(2.0, x, 1.0, y);
  EXPECT_DOUBLE_EQ(kernels::dot(x, y), 3000.0);
  EXPECT_EQ(device_launches(), before);
}

}  // namespace
}  // namespace tb
