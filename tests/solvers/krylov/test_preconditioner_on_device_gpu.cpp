// A preconditioner on the device behind host vectors (PreconditionerOnDevice,
// the local solver of bjacobi/asm with backend=cuda): its apply equals the same
// preconditioner applied to device vectors bit for bit (the staging loses
// nothing), and block Jacobi with its local solver on the device solves a
// system on one process as the local solver alone does. Skipped, with the
// reason, where no GPU is visible.
#include <gtest/gtest.h>

#include <string>

#include "../../common/systems.hpp"
#include "solvers/factory/registry.hpp"
#include "solvers/krylov/preconditioner_on_device.hpp"

namespace tb {
namespace {

class PreconditionerOnDeviceGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    if (cuda_device_count() == 0) GTEST_SKIP() << cuda_unavailable_reason() << ": the device local solver was not run";
  }
};

BsrMatrix system_matrix() {
  Stencil7Params p;
  p.nx = 7, p.ny = 6, p.nz = 5, p.block_size = 4, p.seed = 3;
  return generate_stencil7(p);
}

std::unique_ptr<Preconditioner> make(const std::string& text) {
  return Registry::builtin().make_preconditioner(text, parse_spec(text).components[0]);
}

TEST_F(PreconditionerOnDeviceGpu, ApplyEqualsTheDeviceRunBitForBit) {
  const BsrMatrix a = system_matrix();
  const auto r_host = test::sine_rhs(std::size_t(a.rows()));
  for (const std::string text : {"block_jacobi", "multicolor(sweeps=2)", "jacobi"}) {
    SCOPED_TRACE(text);
    PreconditionerOnDevice staged(make(text), Backend::cuda, text);
    staged.setup(a, Backend::host);
    Vector r(Backend::host, r_host), z(Backend::host, r_host.size());
    staged.apply(r, z);

    auto direct = make(text);
    direct->setup(a, Backend::cuda);
    Vector r_dev(Backend::cuda, r_host), z_dev(Backend::cuda, r_host.size());
    direct->apply(r_dev, z_dev);
    EXPECT_EQ(z.to_host(), z_dev.to_host());
    EXPECT_GT(test::max_abs(z.to_host()), 0.0);
  }
}

TEST_F(PreconditionerOnDeviceGpu, BlockJacobiWithItsLocalSolverOnTheDeviceSolvesTheSystem) {
  const BsrMatrix a = system_matrix();
  const auto b = test::sine_rhs(std::size_t(a.rows()));
  const auto exact = test::direct_solve(a, b);
  auto run = [&](const std::string& spec) {
    auto solver = make_solver(spec);
    solver->setup(a);
    std::vector<double> x(b.size(), 0.0);
    const SolveStats st = solver->solve(b, x);
    EXPECT_TRUE(st.converged()) << spec << ": " << st.line();
    EXPECT_LT(test::max_abs_diff(x, exact), 1e-7 * test::max_abs(exact)) << spec;
    return st.iterations;
  };
  const int device = run("fgmres(rtol=1e-10)+bjacobi(local=multicolor(sweeps=2),backend=cuda)");
  const int host = run("fgmres(rtol=1e-10)+multicolor(sweeps=2)");
  EXPECT_LE(std::abs(device - host), 1);
}

}  // namespace
}  // namespace tb
