// GMRES with its scalars on the device against the same solve with them on
// the host, both with device vectors and block Jacobi (bilu0 has no device
// backend): the dot products are the same kernels'
// bits, the scalar steps run on the device's sqrt and hypot, so the iterates
// agree to rounding and the stops to an iteration; what comes back per solve
// is ||r0||, a few check records and the history instead of every dot
// product. Skipped, with the reason, where no GPU is visible.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "../../common/bits.hpp"
#include "../../common/systems.hpp"
#include "solvers/core/device_launches.hpp"
#include "solvers/core/kernels.hpp"
#include "solvers/core/transfers.hpp"
#include "solvers/factory/registry.hpp"
#include "solvers/krylov/kernels.hpp"

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

// A scalar step that reads a reduction runs in the reduction's launch (the
// dot products' last block), on the device's dot products (kernels::
// multi_dot_to, launched on their own, gives the same bits): a projection onto
// 6 vectors takes two launches (4 + 2 vectors) and adds exactly those sums to
// H, a column's close one launch, its norm the device's dot, the rest of the
// step (rotations by the device's hypot) the host's to rounding; the last
// update of classical Gram-Schmidt shares the close's launch.
TEST_F(GmresScalarsGpu, AStepAfterAReductionRunsInTheReductionsLaunch) {
  namespace gs = gmres_scalars;
  const int m = 8, maxit = 20, j = 5, it = 7;
  const std::size_t n = 3000;
  std::vector<double> init(gs::size(m, maxit));
  for (std::size_t i = 0; i < init.size(); ++i) init[i] = 0.25 + 1.0 / double(i + 3);
  const std::size_t slot0 = init.size() - gs::Slot::count;
  init[slot0 + gs::stop] = -1.0, init[slot0 + gs::best] = 1e300, init[slot0 + gs::best_it] = 0.0;
  std::vector<Vector> basis;
  std::vector<const Vector*> basis_ptr;
  std::vector<const double*> basis_data;
  for (int c = 0; c <= j + 1; ++c) {
    std::vector<double> h(n);
    for (std::size_t i = 0; i < n; ++i) h[i] = std::sin(double(i * std::size_t(c + 2)) * 0.01) / double(c + 1);
    basis.emplace_back(Backend::cuda, std::span<const double>(h));
  }
  for (int c = 0; c <= j; ++c) basis_ptr.push_back(&basis[c]), basis_data.push_back(basis[c].data());
  const Vector& w = basis[j + 1];
  StopFactors f;
  f.rtol = 1e-8, f.maxit = 100;

  // The same dot products launched on their own.
  Vector dots(Backend::cuda, std::size_t(j) + 2);
  kernels::multi_dot_to(basis_ptr.data(), j + 1, w, dots.data());
  kernels::dot_to(w, w, dots.data() + j + 1);
  const std::vector<double> d = dots.to_host();
  std::vector<double> want = init;
  const gs::View hv = gs::view_of(want.data(), m, maxit);
  for (int i = 0; i <= j; ++i) hv.coef[i] = d[std::size_t(i)];
  gs::add_projection(hv, j, false);

  Vector fused(Backend::cuda, std::span<const double>(init));
  const gs::View dv = gs::view_of(fused.data(), m, maxit);
  long before = device_launches();
  gs::kernels::add_projection(Backend::cuda, dv, basis_data.data(), w, j, false);
  EXPECT_EQ(device_launches() - before, 2);
  test::expect_bitwise(fused.to_host(), want, "the scalars after add_projection");

  hv.slot[gs::norm_sq] = d[std::size_t(j) + 1];
  gs::close_column(hv, j, it, f);
  before = device_launches();
  gs::kernels::close_column(Backend::cuda, dv, w, j, it, f);
  EXPECT_EQ(device_launches() - before, 1);
  const std::vector<double> got = fused.to_host();
  EXPECT_EQ(got[slot0 + gs::norm_sq], want[slot0 + gs::norm_sq]);
  EXPECT_EQ(got[slot0 + gs::new_norm], want[slot0 + gs::new_norm]);  // sqrt: correctly rounded on both
  for (std::size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-14 * std::abs(want[i])) << i;

  // Classical Gram-Schmidt's last update and the close: w as kernels::
  // multi_axpy_from leaves it and its norm as dot_to sums it, in two launches
  // (the first four vectors, then the last two with the norm and the step).
  Vector after(Backend::cuda, std::span<const double>(init)), apart(Backend::cuda, std::span<const double>(init));
  const gs::View av = gs::view_of(after.data(), m, maxit), pv = gs::view_of(apart.data(), m, maxit);
  Vector w_fused(Backend::cuda, std::span<const double>(w.to_host()));
  Vector w_apart(Backend::cuda, std::span<const double>(w.to_host()));
  before = device_launches();
  gs::kernels::close_column_after_projection(Backend::cuda, av, basis_data.data(), w_fused, j, it, f);
  EXPECT_EQ(device_launches() - before, 2);
  kernels::multi_axpy_from(pv.coef, basis_ptr.data(), j + 1, w_apart);
  kernels::dot_to(w_apart, w_apart, pv.slot + gs::norm_sq);
  test::expect_bitwise(w_fused.to_host(), w_apart.to_host(), "w after the update");
  EXPECT_EQ(after.to_host()[slot0 + gs::norm_sq], apart.to_host()[slot0 + gs::norm_sq]);
}

}  // namespace
}  // namespace tb
