// The launch count on the device: cuda_error::check_launch counts each kernel
// launch once. axpby is one kernel; a dot product is one too, its block sums
// combined by the last block to finish (cuda_reduction::store_and_combine), so
// each of several dot products in a row must be right (the last block hands
// the ticket back); axpys_from adds four columns a launch. Skips with the
// reason when no device is visible.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../../common/bits.hpp"
#include "solvers/core/array.hpp"
#include "solvers/core/backend.hpp"
#include "solvers/core/device_launches.hpp"
#include "solvers/core/kernels.hpp"

namespace tb {
namespace {

TEST(DeviceLaunchesGpu, AxpbyAndEachDotCountOneLaunch) {
  if (const std::string why = cuda_unavailable_reason(); !why.empty()) GTEST_SKIP() << why;
  const std::vector<double> h(100000, 1.0);
  Vector x(Backend::cuda, std::span<const double>(h)), y(Backend::cuda, std::span<const double>(h));
  long before = device_launches();
  kernels::axpby(2.0, x, 1.0, y);
  EXPECT_EQ(device_launches() - before, 1);
  // 391 blocks, then 1024 blocks (grid-stride), then one: exact sums of integers.
  for (const std::size_t n : {std::size_t(100000), std::size_t(1000003), std::size_t(7)}) {
    std::vector<double> a(n), b(n);
    double want = 0.0;
    for (std::size_t i = 0; i < n; ++i) a[i] = double(i % 13), b[i] = double(i % 7) - 3.0, want += a[i] * b[i];
    const Vector da(Backend::cuda, std::span<const double>(a)), db(Backend::cuda, std::span<const double>(b));
    before = device_launches();
    EXPECT_EQ(kernels::dot(da, db), want) << n;
    EXPECT_EQ(device_launches() - before, 1) << n;
  }
}

TEST(DeviceLaunchesGpu, AxpysFromAddsFourColumnsALaunchWithTheBitsOfOneAxpyEach) {
  if (const std::string why = cuda_unavailable_reason(); !why.empty()) GTEST_SKIP() << why;
  const std::size_t n = 5000;
  const int k = 6;
  std::vector<Vector> columns;
  std::vector<const Vector*> pointers;
  std::vector<double> alpha(k);
  for (int c = 0; c < k; ++c) {
    std::vector<double> h(n);
    for (std::size_t i = 0; i < n; ++i) h[i] = 1.0 / double(i + c + 1);
    columns.emplace_back(Backend::cuda, std::span<const double>(h));
    alpha[c] = 0.1 * double(c) - 0.27;
  }
  for (const auto& c : columns) pointers.push_back(&c);
  const Vector scalars(Backend::cuda, std::span<const double>(alpha));
  std::vector<double> start(n, 0.5);
  Vector one_by_one(Backend::cuda, std::span<const double>(start)),
      fused(Backend::cuda, std::span<const double>(start));
  for (int c = 0; c < k; ++c) kernels::axpy_from(scalars.data() + c, columns[c], one_by_one);
  const long before = device_launches();
  kernels::axpys_from(scalars.data(), pointers.data(), k, fused);
  EXPECT_EQ(device_launches() - before, 2);  // columns 0-3, then 4-5
  test::expect_bitwise(fused.to_host(), one_by_one.to_host(), "axpys_from against axpy_from");
}

}  // namespace
}  // namespace tb
