// cg+mg on the CUDA backend against the host run: the same hierarchy (built on
// the host and copied), so the same iteration counts within one and the same
// solution to the tolerance; the cycle replayed as a CUDA graph gives the bits
// of the cycle launched kernel by kernel; the ILU smoothers run through their
// rooms' CUDA kernels. Skips with the reason when no device is visible.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "../../common/systems.hpp"
#include "solvers/core/backend.hpp"
#include "solvers/factory/registry.hpp"
#include "solvers/matrix/poisson.hpp"

namespace tb {
namespace {

#define TB_SKIP_WITHOUT_DEVICE() \
  if (const std::string why = cuda_unavailable_reason(); !why.empty()) GTEST_SKIP() << why

struct Outcome {
  SolveStats stats;
  std::vector<double> x;
};

Outcome run(const std::string& spec, const BsrMatrix& a, const std::vector<double>& b) {
  auto solver = make_solver(spec);
  solver->setup(a);
  Outcome r;
  r.x.assign(b.size(), 0.0);
  r.stats = solver->solve(b, r.x);
  return r;
}

TEST(MgGpu, CudaSolvesAsTheHostDoes) {
  TB_SKIP_WITHOUT_DEVICE();
  for (index_t n : {24, 96}) {
    PoissonParams s;
    s.nx = s.ny = s.nz = n, s.pin = true, s.cluster[0] = s.cluster[1] = s.cluster[2] = 1.0;
    const BsrMatrix a = generate_poisson(s);
    std::vector<double> b(static_cast<std::size_t>(a.rows()));
    for (std::size_t i = 0; i < b.size(); ++i) b[i] = std::sin(0.37 * double(i));
    b[0] = 0.0;
    for (const char* mg :
         {"mg", "mg(smoother=gauss_seidel)", "mg(smoother=jacobi,cycle=w)", "mg(smoother=fgbilu)", "mg(levels=2)"}) {
      const std::string opts = "(rtol=1e-9,maxit=200";
      const Outcome host = run("cg" + opts + ")+" + mg, a, b);
      const Outcome dev = run("cg" + opts + ",backend=cuda)+" + mg, a, b);
      ASSERT_TRUE(dev.stats.converged()) << mg << " " << n;
      // The device adds its dot products in another order than the host, and
      // CG's stop moves with them: by an iteration where the cycle is strong,
      // by a few in a long solve (mg(levels=2) at 96^3 takes about 190): 3 %.
      const double slack = std::max(1.0, 0.03 * host.stats.iterations);
      EXPECT_NEAR(dev.stats.iterations, host.stats.iterations, slack) << mg << " " << n;
      EXPECT_LE(test::max_abs_diff(dev.x, host.x), 1e-7 * test::max_abs(host.x)) << mg << " " << n;
    }
    const Outcome graph = run("cg(rtol=1e-9,maxit=200,backend=cuda)+mg", a, b);
    const Outcome launches = run("cg(rtol=1e-9,maxit=200,backend=cuda)+mg(graph=false)", a, b);
    EXPECT_EQ(graph.stats.iterations, launches.stats.iterations);
    EXPECT_EQ(graph.x, launches.x);
  }
}

}  // namespace
}  // namespace tb
