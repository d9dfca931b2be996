// fgbilu(graph=true) on the GPU: a solve recorded as a CUDA graph and replayed
// gives the launched solve's bits for every CUDA configuration, also after new
// values, and counts one launch per application where the launched solve
// counts one per hyperplane and kernel (device_launches.hpp); past
// max_recorded_solves pairs of vectors the solve launches its kernels. Through
// the registry, a BiCGStab solve with the graph repeats the launched one bit
// for bit with one launch per preconditioner application. Skips with the
// reason when no device is visible.
#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <vector>

#include "../../common/bits.hpp"
#include "../../common/random.hpp"
#include "solvers/core/array.hpp"
#include "solvers/core/backend.hpp"
#include "solvers/core/device_launches.hpp"
#include "solvers/factory/registry.hpp"
#include "solvers/fgbilu/fgbilu.hpp"
#include "solvers/matrix/generate.hpp"

namespace tb::fgbilu {
namespace {

BsrMatrix generated(index_t nx, index_t ny, index_t nz, index_t n, unsigned seed) {
  Stencil7Params p;
  p.nx = nx, p.ny = ny, p.nz = nz, p.block_size = n, p.seed = seed;
  return generate_stencil7(p);
}

// The launches of one launched solve: a kernel per plane and sweep (cl), two
// (acc: gather, then the diagonal block), or one per sweep (launch=sweep).
long launched_solve_launches(Variant v, Launch l, index_t planes) {
  if (l == Launch::sweep) return 2;
  return (v == Variant::acc ? 4 : 2) * long(planes);
}

// The launches of f.solve(r, z).
long solve_launches(const Factorization& f, const Vector& r, Vector& z) {
  const long before = device_launches();
  f.solve(r.data(), z.data());
  return device_launches() - before;
}

struct Config {
  Variant variant;
  Launch launch;
};

// The configuration as ctest lists it ("cl_sweep"), not its bytes.
void PrintTo(const Config& c, std::ostream* os) { *os << to_string(c.variant) << "_" << to_string(c.launch); }

class GpuGraph : public ::testing::TestWithParam<Config> {
 protected:
  void SetUp() override {
    if (const std::string why = cuda_unavailable_reason(); !why.empty()) GTEST_SKIP() << why;
  }
};

TEST_P(GpuGraph, ReplaysGiveTheLaunchedSolveBitForBitInOneLaunch) {
  const auto [v, l] = GetParam();
  for (const index_t n : {1, 3, 6}) {
    const std::string name = std::string(to_string(v)) + "/" + std::string(to_string(l)) + " n=" + std::to_string(n);
    const BsrMatrix a = generated(7, 5, 4, n, 3), a2 = generated(7, 5, 4, n, 8);  // one pattern, two sets of values
    Factorization launched(v, Backend::cuda, l), recorded(v, Backend::cuda, l, Apply::graph);
    launched.setup(a);
    recorded.setup(a);
    const index_t planes = launched.matrix().schedule.num_planes();
    const std::vector<double> rhs = test::random_vector(std::size_t(a.rows()), 11);
    Vector r(Backend::cuda, std::span<const double>(rhs)), want(Backend::cuda, rhs.size()),
        z(Backend::cuda, rhs.size());
    EXPECT_EQ(solve_launches(launched, r, want), launched_solve_launches(v, l, planes)) << name;
    // The first application records (not counted) and replays (one launch); the next one replays.
    EXPECT_EQ(solve_launches(recorded, r, z), 1) << name;
    EXPECT_SAME_BITS(z.to_host(), want.to_host());
    z.set_zero();
    EXPECT_EQ(solve_launches(recorded, r, z), 1) << name;
    EXPECT_SAME_BITS(z.to_host(), want.to_host());
    EXPECT_EQ(recorded.recorded_solves(), 1u) << name;
    // New values on the same arrays: the graph replays with them.
    launched.update(a2);
    recorded.update(a2);
    launched.solve(r.data(), want.data());
    EXPECT_EQ(solve_launches(recorded, r, z), 1) << name;
    EXPECT_SAME_BITS(z.to_host(), want.to_host());
  }
}

TEST_P(GpuGraph, PairsPastTheCapacityLaunchTheirKernels) {
  const auto [v, l] = GetParam();
  const BsrMatrix a = generated(6, 4, 3, 2, 4);
  Factorization launched(v, Backend::cuda, l), recorded(v, Backend::cuda, l, Apply::graph);
  launched.setup(a);
  recorded.setup(a);
  const index_t planes = launched.matrix().schedule.num_planes();
  const std::vector<double> rhs = test::random_vector(std::size_t(a.rows()), 5);
  Vector r(Backend::cuda, std::span<const double>(rhs)), want(Backend::cuda, rhs.size());
  launched.solve(r.data(), want.data());
  std::vector<Vector> zs;
  for (std::size_t k = 0; k <= max_recorded_solves; ++k) zs.emplace_back(Backend::cuda, rhs.size());
  for (std::size_t k = 0; k <= max_recorded_solves; ++k) {
    const long expected = k < max_recorded_solves ? 1 : launched_solve_launches(v, l, planes);
    EXPECT_EQ(solve_launches(recorded, r, zs[k]), expected) << "pair " << k;
    EXPECT_SAME_BITS(zs[k].to_host(), want.to_host());
  }
  EXPECT_EQ(recorded.recorded_solves(), max_recorded_solves);
  // A new set-up drops the graphs: they hold the arrays it replaces.
  recorded.setup(a);
  EXPECT_EQ(recorded.recorded_solves(), 0u);
  EXPECT_EQ(solve_launches(recorded, r, zs[0]), 1);
  EXPECT_SAME_BITS(zs[0].to_host(), want.to_host());
}

INSTANTIATE_TEST_SUITE_P(Configurations, GpuGraph,
                         ::testing::Values(Config{Variant::acc, Launch::plane}, Config{Variant::cl, Launch::plane},
                                           Config{Variant::cl, Launch::sweep}),
                         [](const auto& info) { return ::testing::PrintToString(info.param); });

TEST(GpuGraphKrylov, BiCGStabRepeatsTheLaunchedSolveWithOneLaunchPerApplication) {
  if (const std::string why = cuda_unavailable_reason(); !why.empty()) GTEST_SKIP() << why;
  const BsrMatrix a = generated(12, 10, 9, 4, 6);
  const std::vector<double> b = test::random_vector(std::size_t(a.rows()), 2);
  Factorization shape(Variant::cl, Backend::cuda);
  shape.setup(a);
  const long planes = shape.matrix().schedule.num_planes();
  for (const char* launch : {"plane", "sweep"}) {
    auto solve = [&](const char* graph, std::vector<double>& x) {
      auto solver = make_solver(std::string("bicgstab(rtol=1e-10,backend=cuda)+fgbilu(variant=cl,launch=") + launch +
                                ",graph=" + graph + ")");
      solver->setup(a);
      x.assign(b.size(), 0.0);
      return solver->solve(b, x);
    };
    std::vector<double> x_launched, x_recorded;
    const SolveStats launched = solve("false", x_launched), recorded = solve("true", x_recorded);
    ASSERT_TRUE(launched.converged()) << launched.line();
    EXPECT_EQ(recorded.iterations, launched.iterations) << launch;
    EXPECT_SAME_BITS(x_recorded, x_launched);
    ASSERT_GT(launched.preconditioner_applications, 0) << launch;
    EXPECT_EQ(recorded.preconditioner_applications, launched.preconditioner_applications) << launch;
    const long per_application = std::string(launch) == "plane" ? 2 * planes : 2;
    EXPECT_EQ(launched.preconditioner_launches, per_application * launched.preconditioner_applications) << launch;
    EXPECT_EQ(recorded.preconditioner_launches, recorded.preconditioner_applications) << launch;
    // The rest of the iteration (products, reductions, updates) launches the same kernels either way.
    EXPECT_EQ(launched.device_launches - launched.preconditioner_launches,
              recorded.device_launches - recorded.preconditioner_launches)
        << launch;
  }
}

}  // namespace
}  // namespace tb::fgbilu
