// FGBILU on the GPU: the ACC-style and CL-style CUDA kernels against the host
// sequential variant (same factors, same M^{-1}, same residual), the Table 1
// check through the registry with backend=cuda, and the singular-block error.
// Skips with the reason when no device is visible.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "../../common/random.hpp"
#include "solvers/core/array.hpp"
#include "solvers/core/backend.hpp"
#include "solvers/core/error.hpp"
#include "solvers/factory/registry.hpp"
#include "solvers/fgbilu/fgbilu.hpp"
#include "solvers/matrix/generate.hpp"

namespace tb::fgbilu {
namespace {

struct Case {
  index_t nx, ny, nz, n;
};

BsrMatrix generated(const Case& c, unsigned seed = 5) {
  Stencil7Params p;
  p.nx = c.nx, p.ny = c.ny, p.nz = c.nz, p.block_size = c.n, p.seed = seed;
  return generate_stencil7(p);
}

double rel_diff(const std::vector<double>& a, const std::vector<double>& b) {
  double d = 0.0, m = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    d = std::max(d, std::abs(a[i] - b[i]));
    m = std::max(m, std::abs(b[i]));
  }
  return d / m;
}

// Every CUDA configuration: acc, cl with a launch per plane, cl with a launch per sweep.
std::vector<std::pair<Variant, Launch>> gpu_configurations() {
  return {{Variant::acc, Launch::plane}, {Variant::cl, Launch::plane}, {Variant::cl, Launch::sweep}};
}

class GpuVariants : public ::testing::TestWithParam<Case> {
 protected:
  void SetUp() override {
    if (const std::string why = cuda_unavailable_reason(); !why.empty()) GTEST_SKIP() << why;
  }
};

TEST_P(GpuVariants, FactorsSolveAndResidualMatchTheHost) {
  const BsrMatrix a = generated(GetParam());
  Factorization host(Variant::seq, Backend::host);
  host.setup(a);
  const std::vector<double> rhs = test::random_vector(std::size_t(a.rows()), 13);
  std::vector<double> want(rhs.size()), want_r(rhs.size());
  host.solve(rhs.data(), want.data());
  const std::vector<double> x_any = test::random_vector(std::size_t(a.rows()), 29);
  host.residual(rhs.data(), x_any.data(), want_r.data());
  for (const auto& [v, launch] : gpu_configurations()) {
    const std::string name = std::string(to_string(v)) + "/" + std::string(to_string(launch));
    Factorization f(v, Backend::cuda, launch);
    f.setup(a);
    EXPECT_LE(rel_diff(f.inverted_diagonal(), host.inverted_diagonal()), 1e-12) << name;
    Vector r(Backend::cuda, std::span<const double>(rhs)), z(Backend::cuda, rhs.size()), res(Backend::cuda, rhs.size());
    f.solve(r.data(), z.data());
    EXPECT_LE(rel_diff(z.to_host(), want), 1e-12) << name;
    // A random x, not the solve's output: on 1xJx1-like grids BILU(0) is an
    // exact LU, and the residual of its solution is round-off alone.
    Vector x(Backend::cuda, std::span<const double>(x_any));
    f.residual(r.data(), x.data(), res.data());
    EXPECT_LE(rel_diff(res.to_host(), want_r), 1e-12) << name;
  }
}

// launch=sweep with about 300 to 2,000 workgroups per launch, most of them
// waiting on counters: the plane order must hold, and the launch must end,
// whatever order the hardware starts them in. Repeated, since a missing
// fence shows up only now and then.
TEST(GpuSweepLaunch, ManyWorkgroupsInFlightGiveTheHostResult) {
  if (const std::string why = cuda_unavailable_reason(); !why.empty()) GTEST_SKIP() << why;
  for (const Case c : {Case{40, 40, 40, 1}, Case{30, 28, 26, 4}, Case{24, 24, 24, 6}}) {
    const BsrMatrix a = generated(c);
    Factorization host(Variant::seq, Backend::host), f(Variant::cl, Backend::cuda, Launch::sweep);
    host.setup(a);
    f.setup(a);
    const std::vector<double> rhs = test::random_vector(std::size_t(a.rows()), 17);
    std::vector<double> want(rhs.size());
    host.solve(rhs.data(), want.data());
    Vector r(Backend::cuda, std::span<const double>(rhs)), z(Backend::cuda, rhs.size());
    for (int rep = 0; rep < 5; ++rep) {
      f.factor();
      EXPECT_LE(rel_diff(f.inverted_diagonal(), host.inverted_diagonal()), 1e-12) << "n=" << c.n << " rep " << rep;
      z.set_zero();
      f.solve(r.data(), z.data());
      EXPECT_LE(rel_diff(z.to_host(), want), 1e-12) << "n=" << c.n << " rep " << rep;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Shapes, GpuVariants,
                         ::testing::Values(Case{1, 1, 9, 2}, Case{8, 1, 1, 3}, Case{5, 3, 4, 1}, Case{4, 6, 3, 4},
                                           Case{6, 5, 4, 6}, Case{3, 3, 3, 8}, Case{3, 2, 2, 13}, Case{2, 2, 3, 32}),
                         [](const auto& info) {
                           const Case& c = info.param;
                           return std::to_string(c.nx) + "x" + std::to_string(c.ny) + "x" + std::to_string(c.nz) +
                                  "_n" + std::to_string(c.n);
                         });

TEST(GpuTable1, ResidualHistoriesAgreeTo10Digits) {
  if (const std::string why = cuda_unavailable_reason(); !why.empty()) GTEST_SKIP() << why;
  const BsrMatrix a = generated({6, 5, 4, 6}, 9);
  const std::vector<double> b = test::random_vector(std::size_t(a.rows()), 3);
  auto history = [&](const std::string& spec) {
    auto solver = make_solver(spec);
    solver->setup(a);
    std::vector<double> x(b.size(), 0.0);
    return solver->solve(b, x).residual_history;
  };
  const std::vector<double> want = history("richardson(maxit=20,rtol=1e-300,stagnation=0)+bilu0");
  for (const char* v : {"acc", "cl", "cl,launch=sweep"}) {
    const std::vector<double> got =
        history(std::string("richardson(maxit=20,rtol=1e-300,stagnation=0,backend=cuda)+fgbilu(variant=") + v + ")");
    ASSERT_EQ(got.size(), want.size()) << v;
    for (std::size_t l = 0; l < want.size(); ++l)
      EXPECT_NEAR(got[l], want[l], 1e-10 * want[l] + 1e-14 * want[0]) << v << " step " << l;
  }
}

TEST(GpuErrors, SingularDiagonalBlockNamesTheCell) {
  if (const std::string why = cuda_unavailable_reason(); !why.empty()) GTEST_SKIP() << why;
  BsrMatrix a = generated({3, 3, 3, 2});
  const index_t r = 7;  // cell (1,2,0)
  for (index_t k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k)
    for (index_t e = 0; e < 4; ++e) a.block(k)[e] = 0.0;
  for (const auto& [v, launch] : gpu_configurations()) {
    Factorization f(v, Backend::cuda, launch);
    try {
      f.setup(a);
      FAIL() << to_string(v) << "/" << to_string(launch) << ": a singular block was accepted";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("(1,2,0)"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace tb::fgbilu
