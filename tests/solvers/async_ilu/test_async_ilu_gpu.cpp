// The CUDA kernels of the asynchronous ILU(0) against the host: the
// synchronous schedule bitwise (kernels.cu is built without FMA contraction),
// the asynchronous one by reaching the exact factors with enough sweeps; the
// refresh from values on the device (factor_in_place) likewise, with nothing
// but the singular-pivot flag crossing.
// Skips with the reason when no device is visible.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "solvers/async_ilu/async_ilu.hpp"
#include "solvers/core/array.hpp"
#include "solvers/core/backend.hpp"
#include "solvers/core/transfers.hpp"
#include "solvers/factory/registry.hpp"
#include "solvers/matrix/generate.hpp"
#include "solvers/precond/bilu0.hpp"
#include "solvers/precond/kernels.hpp"

namespace tb {
namespace {

using async_ilu::AsyncIlu;
using async_ilu::Options;
using async_ilu::Schedule;

BsrMatrix system(index_t b) {
  Stencil7Params p;
  p.nx = 9, p.ny = 7, p.nz = 5, p.block_size = b, p.seed = 5;
  return generate_stencil7(p);
}

Options opts(bool block, int build, int apply, Schedule s) {
  Options o;
  o.block = block;
  o.build_sweeps = build;
  o.apply_sweeps = apply;
  o.schedule = s;
  return o;
}

std::vector<double> apply_on(const AsyncIlu& ilu, const std::vector<double>& r) {
  Vector rd(ilu.backend(), std::span<const double>(r));
  Vector zd(ilu.backend(), r.size());
  ilu.apply(rd.data(), zd.data());
  return zd.to_host();
}

class CudaSync : public ::testing::TestWithParam<std::pair<bool, index_t>> {};

TEST_P(CudaSync, BitwiseEqualToHost) {
  if (const std::string why = cuda_unavailable_reason(); !why.empty()) GTEST_SKIP() << why;
  const auto [block, b] = GetParam();
  const BsrMatrix a = system(b);
  std::mt19937_64 g(3);
  std::uniform_real_distribution<double> d(-1, 1);
  std::vector<double> r(std::size_t(a.rows()));
  for (double& v : r) v = d(g);
  for (int sweeps : {1, 2, 5}) {
    AsyncIlu host(opts(block, sweeps, sweeps, Schedule::synchronous));
    AsyncIlu gpu(opts(block, sweeps, sweeps, Schedule::synchronous));
    host.setup(a, Backend::host);
    gpu.setup(a, Backend::cuda);
    EXPECT_EQ(gpu.lu_values(), host.lu_values()) << "sweeps " << sweeps;
    EXPECT_EQ(gpu.dinv_values(), host.dinv_values()) << "sweeps " << sweeps;
    EXPECT_EQ(apply_on(gpu, r), apply_on(host, r)) << "sweeps " << sweeps;
  }
}

INSTANTIATE_TEST_SUITE_P(Sizes, CudaSync,
                         ::testing::Values(std::pair{true, index_t(1)}, std::pair{true, index_t(4)},
                                           std::pair{true, index_t(5)}, std::pair{false, index_t(4)}));

// The largest difference of ilu's factors from BILU(0) of a, relative to the
// largest entry of BILU(0).
double relative_error_against_bilu0(const AsyncIlu& ilu, const BsrMatrix& a) {
  Bilu0Factors exact = bilu0_symbolic(a);
  precond::kernels::ref::bilu0_factor(a, exact);
  const std::vector<double> lu = ilu.lu_values();
  const std::vector<double> dinv = ilu.dinv_values();
  const std::vector<index_t> diag = a.diagonal_positions();
  const index_t nb = a.block_entries();
  double worst = 0.0, scale = 0.0;
  for (index_t i = 0; i < a.block_rows; ++i)
    for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k)
      for (index_t e = 0; e < nb; ++e) {
        const double x = exact.block(k)[e];
        const double mine = k == diag[std::size_t(i)] ? dinv[std::size_t(i * nb + e)] : lu[std::size_t(k * nb + e)];
        worst = std::max(worst, std::abs(mine - x));
        scale = std::max(scale, std::abs(x));
      }
  return worst / scale;
}

TEST(CudaAsync, EnoughSweepsReachTheExactFactors) {
  if (const std::string why = cuda_unavailable_reason(); !why.empty()) GTEST_SKIP() << why;
  const BsrMatrix a = system(4);
  AsyncIlu gpu(opts(true, 60, 3, Schedule::asynchronous));
  gpu.setup(a, Backend::cuda);
  EXPECT_LT(relative_error_against_bilu0(gpu, a), 1e-12);
}

BsrMatrix other_values(index_t b) {
  Stencil7Params p;
  p.nx = 9, p.ny = 7, p.nz = 5, p.block_size = b, p.seed = 8;
  return generate_stencil7(p);
}

// The refresh from values on the device (factor_in_place, a system assembled
// there): of the host and device, only the singular-pivot flag crosses, read
// back once; the synchronous schedule gives the host's refresh of the same
// values bit for bit (a thread per block row for b = 4, a group of lanes for
// b = 12).
TEST(CudaInPlace, SynchronousRefreshGivesTheHostsBitsAndMovesOnlyTheFlag) {
  if (const std::string why = cuda_unavailable_reason(); !why.empty()) GTEST_SKIP() << why;
  for (index_t b : {4, 12}) {
    const BsrMatrix first = system(b), second = other_values(b);
    std::vector<double> r(std::size_t(first.rows()));
    for (std::size_t k = 0; k < r.size(); ++k) r[k] = std::sin(double(k));
    AsyncIlu host(opts(true, 2, 3, Schedule::synchronous)), gpu(opts(true, 2, 3, Schedule::synchronous));
    host.setup(first, Backend::host);
    gpu.setup(first, Backend::cuda);
    ASSERT_TRUE(gpu.factors_in_place());
    host.factor(second);
    const Vector on_device(Backend::cuda, std::span<const double>(second.values));
    const transfers::Totals before = transfers::totals();
    gpu.factor_in_place(on_device.data());
    const transfers::Totals moved = transfers::since(before);
    EXPECT_EQ(moved.to_device.bytes, 0u) << "b = " << b;
    EXPECT_EQ(moved.to_host.bytes, sizeof(index_t)) << "b = " << b << ": the flag alone";
    EXPECT_EQ(gpu.lu_values(), host.lu_values()) << "b = " << b;
    EXPECT_EQ(gpu.dinv_values(), host.dinv_values()) << "b = " << b;
    EXPECT_EQ(apply_on(gpu, r), apply_on(host, r)) << "b = " << b;
  }
}

// The asynchronous schedule races on the device by design: with enough
// sweeps the refresh in place reaches the host's exact factors of the new
// values; and the solver (FGMRES(30) + one build and three apply
// sweeps), refreshed in place, solves the new system with only the flag
// crossing in the refresh.
TEST(CudaInPlace, AsynchronousRefreshReachesTheHostsFactorsOfTheNewValues) {
  if (const std::string why = cuda_unavailable_reason(); !why.empty()) GTEST_SKIP() << why;
  const BsrMatrix first = system(4), second = other_values(4);
  const Vector values(Backend::cuda, std::span<const double>(second.values));
  AsyncIlu gpu(opts(true, 60, 3, Schedule::asynchronous));
  gpu.setup(first, Backend::cuda);
  gpu.factor_in_place(values.data());
  EXPECT_LT(relative_error_against_bilu0(gpu, second), 1e-12);
  EXPECT_GT(relative_error_against_bilu0(gpu, first), 1e-6);  // not the set-up's values

  const std::string spec =
      "fgmres(restart=30,rtol=1e-8,maxit=200,backend=cuda)+async_bilu(build_sweeps=1,apply_sweeps=3)";
  auto solver = make_solver(spec);
  ASSERT_TRUE(solver->updates_in_place());
  solver->setup(first);
  const Array<index_t> row_ptr(Backend::cuda, std::span<const index_t>(second.row_ptr));
  const Array<index_t> col_idx(Backend::cuda, std::span<const index_t>(second.col_idx));
  const BsrView on_device{second.block_size, second.block_rows, second.block_cols,
                          row_ptr.data(),    col_idx.data(),    values.data()};
  const transfers::Totals before = transfers::totals();
  solver->update(on_device);
  const transfers::Totals moved = transfers::since(before);
  EXPECT_EQ(moved.to_device.bytes, 0u);
  EXPECT_LE(moved.to_host.bytes, sizeof(index_t));
  const std::vector<double> b(std::size_t(second.rows()), 1.0);
  std::vector<double> x(b.size(), 0.0);
  const SolveStats st = solver->solve(b, x);
  ASSERT_TRUE(st.converged()) << st.line();
  EXPECT_LT(residual_norm(second, x, b), 1e-7 * std::sqrt(double(b.size())));
}

}  // namespace
}  // namespace tb
