// The launch count on the device: cuda_error::check_launch counts each kernel
// launch once (axpby is one kernel, a dot product two: block sums, then their
// sum). Skips with the reason when no device is visible.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "solvers/core/array.hpp"
#include "solvers/core/backend.hpp"
#include "solvers/core/device_launches.hpp"
#include "solvers/core/kernels.hpp"

namespace tb {
namespace {

TEST(DeviceLaunchesGpu, AxpbyCountsOneLaunchAndDotTwo) {
  if (const std::string why = cuda_unavailable_reason(); !why.empty()) GTEST_SKIP() << why;
  const std::vector<double> h(100000, 1.0);
  Vector x(Backend::cuda, std::span<const double>(h)), y(Backend::cuda, std::span<const double>(h));
  long before = device_launches();
  kernels::axpby(2.0, x, 1.0, y);
  EXPECT_EQ(device_launches() - before, 1);
  before = device_launches();
  EXPECT_DOUBLE_EQ(kernels::dot(x, y), 300000.0);
  EXPECT_EQ(device_launches() - before, 2);
}

}  // namespace
}  // namespace tb
