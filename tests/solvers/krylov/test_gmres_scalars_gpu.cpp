// GMRES with its scalars on the device against the same solve with them on
// the host, both with device vectors and block Jacobi (bilu0 has no device
// backend): the dot products are the same kernels'
// bits, the scalar steps run on the device's sqrt and hypot, so the iterates
// agree to rounding and the stops to an iteration; what comes back per solve
// is ||r0||, a few check records and the history instead of every dot
// product. Skipped, with the reason, where no GPU is visible.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "../../common/systems.hpp"
#include "solvers/core/transfers.hpp"
#include "solvers/factory/registry.hpp"

namespace tb {
namespace {

class GmresScalarsGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    if (cuda_device_count() == 0) GTEST_SKIP() << cuda_unavailable_reason() << ": GMRES's device scalars were not run";
  }
};

struct DeviceSolve {
  SolveStats stats;
  std::vector<double> x;
  std::uint64_t bytes_to_host = 0;
};

DeviceSolve solve_on_device(const std::string& spec, const BsrMatrix& a) {
  auto solver = make_solver(spec);
  solver->setup(a);
  const auto b = test::sine_rhs(std::size_t(a.rows()));
  DeviceSolve out;
  out.x.assign(b.size(), 0.0);
  const transfers::Totals before = transfers::totals();
  out.stats = solver->solve(b, out.x);
  // Less x's copy back, the same for both.
  out.bytes_to_host = transfers::since(before).to_host.bytes - b.size() * sizeof(double);
  return out;
}

TEST_F(GmresScalarsGpu, TheDeviceStepsAsTheHostAndReadsAFractionOfIt) {
  Stencil7Params p;
  p.nx = 16, p.ny = 12, p.nz = 10, p.block_size = 4, p.seed = 5;
  const BsrMatrix a = generate_stencil7(p);
  // With each method, how many times fewer bytes the device scalars read: a
  // solve's fixed part (||r0||, the last record) weighs most in the short one.
  const std::vector<std::pair<std::string, int>> methods = {{"gmres(rtol=1e-8,restart=30", 5},
                                                            {"fgmres(rtol=1e-8,restart=10", 3},
                                                            {"fgmres(rtol=1e-1,restart=30,maxit=10", 2},
                                                            {"gmres(rtol=1e-8,restart=20,orthog=mgs", 5}};
  for (const auto& [method, fewer] : methods) {
    SCOPED_TRACE(method);
    const DeviceSolve host = solve_on_device(method + ",scalars=host,backend=cuda)+block_jacobi", a);
    const DeviceSolve device = solve_on_device(method + ",backend=cuda)+block_jacobi", a);
    ASSERT_TRUE(host.stats.reason == StopReason::converged_rtol || host.stats.reason == StopReason::max_iterations)
        << host.stats.line();
    EXPECT_EQ(device.stats.reason, host.stats.reason) << device.stats.line();
    EXPECT_NEAR(device.stats.iterations, host.stats.iterations, 1);
    EXPECT_LE(test::max_abs_diff(device.x, host.x), 1e-6 * test::max_abs(host.x));
    EXPECT_LT(std::uint64_t(fewer) * device.bytes_to_host, host.bytes_to_host);
    std::printf(
        "[ reads ] %s: %d iterations, %llu bytes to the host with the scalars on the device, %llu on the host\n",
        method.c_str(), device.stats.iterations, static_cast<unsigned long long>(device.bytes_to_host),
        static_cast<unsigned long long>(host.bytes_to_host));
  }
}

}  // namespace
}  // namespace tb
