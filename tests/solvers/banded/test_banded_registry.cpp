// The registry's complete-solver entries: names, parameters and errors, and
// LinearSolver forwarding to them like to a Krylov method + preconditioner.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "../../common/systems.hpp"
#include "banded_systems.hpp"
#include "solvers/factory/registry.hpp"

namespace tb {
namespace {

std::string error_of(const std::string& spec) {
  try {
    make_solver(spec);
  } catch (const Error& e) {
    return e.what();
  }
  return {};
}

TEST(BandedRegistry, NamesAndErrors) {
  const auto names = Registry::builtin().complete_solver_names();
  // petsc is registered in every build (refusing with instructions without PETSc).
  EXPECT_EQ(names, (std::vector<std::string>{"bicgstab_dia", "cg_stencil", "petsc"}));
  EXPECT_NE(error_of("bicgstab_dia+jacobi").find("without '+'"), std::string::npos);
  EXPECT_NE(error_of("cg_stencil(nx=4)").find("nx=4, ny=0, nz=0"), std::string::npos);
  EXPECT_NE(error_of("bicgstab_dia(eps=-1)").find("eps=-1"), std::string::npos);
  EXPECT_NE(error_of("bicgstab_dia(esp=1)").find("did you mean 'eps'"), std::string::npos);
  EXPECT_NE(error_of("bicgstab_di").find("did you mean 'bicgstab_dia'"), std::string::npos);
  EXPECT_NE(Registry::builtin().help().find("cg_stencil"), std::string::npos);
}

TEST(BandedRegistry, LinearSolverForwardsAndHasNoSeparateParts) {
  auto s = make_solver("bicgstab_dia(rtol=1e-10)");
  ASSERT_NE(s->complete(), nullptr);
  EXPECT_THROW(s->method(), Error);
  EXPECT_THROW(s->preconditioner(), Error);
  const BsrMatrix a = test::poisson7(4, 4, 4, false);
  std::vector<double> b = test::sine_rhs(64), x(64, 0.0);
  EXPECT_THROW(s->solve(b, x), Error);  // before setup
  s->update(a);                         // update before setup sets up
  const SolveStats st = s->solve(b, x);
  EXPECT_TRUE(st.converged());
  EXPECT_GE(st.setup_seconds, 0.0);
  EXPECT_GT(st.solve_seconds, 0.0);
  std::vector<double> short_b(10, 1.0), short_x(10, 0.0);
  EXPECT_THROW(s->solve(short_b, short_x), Error);
  // The backend-vector entry point solves them where they are (one process:
  // the slab is the whole system) and gives the same answer; NaN input is
  // named as on the host vectors' path.
  EXPECT_TRUE(s->complete()->solves_on(Backend::host));
  Vector bv(Backend::host, std::span<const double>(b)), xv(Backend::host, 64);
  xv.set_zero();
  const SolveStats on_backend = s->solve(bv, xv);
  EXPECT_EQ(on_backend.iterations, st.iterations);
  EXPECT_EQ(on_backend.final_residual, st.final_residual);
  EXPECT_EQ(xv.to_host(), x);
  b[5] = std::nan("");
  Vector nan_b(Backend::host, std::span<const double>(b));
  xv.set_zero();
  const SolveStats refused = s->solve(nan_b, xv);
  EXPECT_EQ(refused.reason, StopReason::non_finite);
  EXPECT_EQ(refused.detail, "right-hand side or initial guess holds NaN or Inf");
}

TEST(BandedRegistry, BicgstabDiaMatchesBicgstabJacobiAccuracy) {
  const BsrMatrix a = test::poisson7(8, 7, 6, false);
  const auto b = test::sine_rhs(std::size_t(a.rows()));
  for (const char* spec : {"bicgstab_dia(rtol=1e-8)", "bicgstab(rtol=1e-8)+jacobi"}) {
    auto s = make_solver(spec);
    s->setup(a);
    std::vector<double> x(b.size(), 0.0);
    const SolveStats st = s->solve(b, x);
    EXPECT_TRUE(st.converged()) << spec;
    EXPECT_LE(st.final_residual, 2e-8 * st.initial_residual) << spec;
  }
}

}  // namespace
}  // namespace tb
