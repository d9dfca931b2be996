// The CUDA kernels of the asynchronous ILU(0) against the host: the
// synchronous schedule bitwise (kernels.cu is built without FMA contraction),
// the asynchronous one by reaching the exact factors with enough sweeps.
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

TEST(CudaAsync, EnoughSweepsReachTheExactFactors) {
  if (const std::string why = cuda_unavailable_reason(); !why.empty()) GTEST_SKIP() << why;
  const BsrMatrix a = system(4);
  AsyncIlu gpu(opts(true, 60, 3, Schedule::asynchronous));
  gpu.setup(a, Backend::cuda);
  Bilu0Factors exact = bilu0_symbolic(a);
  precond::kernels::ref::bilu0_factor(a, exact);
  const std::vector<double> lu = gpu.lu_values();
  const std::vector<double> dinv = gpu.dinv_values();
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
  EXPECT_LT(worst, 1e-12 * scale);
}

}  // namespace
}  // namespace tb
