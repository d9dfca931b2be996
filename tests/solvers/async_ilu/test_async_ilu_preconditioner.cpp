// The registered preconditioners inside FGMRES, the refusal of a non-flexible
// method for the asynchronous schedule, the diagnostics on a system whose
// ILU(0) is known by hand, and the refresh from a view of values on the
// backend (update_in_place).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "../../common/bits.hpp"
#include "../../common/systems.hpp"
#include "solvers/async_ilu/async_ilu.hpp"
#include "solvers/async_ilu/preconditioner.hpp"
#include "solvers/core/error.hpp"
#include "solvers/factory/registry.hpp"
#include "solvers/matrix/generate.hpp"
#include "thread_count.hpp"

namespace tb {
namespace {

BsrMatrix system(index_t b) {
  Stencil7Params p;
  p.nx = 8, p.ny = 6, p.nz = 5, p.block_size = b, p.seed = 7;
  return generate_stencil7(p);
}

SolveStats solve_with(const std::string& spec, const BsrMatrix& a, std::vector<double>& x) {
  auto solver = make_solver(spec);
  solver->setup(a);
  std::vector<double> b(std::size_t(a.rows()), 1.0);
  x.assign(b.size(), 0.0);
  return solver->solve(b, x);
}

TEST(Registry, IssueSpecificationsSolveAStencilSystem) {
  const BsrMatrix a = system(4);
  std::vector<double> x;
  for (const std::string pre :
       {"async_bilu(build_sweeps=1,apply_sweeps=3)", "async_ilu(build_sweeps=2,apply_sweeps=3)",
        "async_bilu(schedule=sync,build_sweeps=3)", "async_bilu(build_sweeps=0,apply_sweeps=0)"}) {
    const SolveStats st = solve_with("fgmres(restart=30,rtol=1e-8,maxit=200)+" + pre, a, x);
    EXPECT_TRUE(st.converged()) << pre << ": " << st.line();
    EXPECT_LT(st.final_residual, 1e-7 * st.initial_residual) << pre;
  }
  // The issue's default: one order of magnitude in at most 60 iterations.
  const SolveStats st =
      solve_with("fgmres(restart=30,rtol=1e-1,maxit=60)+async_bilu(build_sweeps=1,apply_sweeps=3)", a, x);
  EXPECT_TRUE(st.converged()) << st.line();
}

TEST(Registry, ExactSweepsMatchSequentialBilu0Iterations) {
  const BsrMatrix a = system(3);
  std::vector<double> x;
  const SolveStats exact = solve_with("fgmres(rtol=1e-8)+async_bilu(build_sweeps=0,apply_sweeps=0)", a, x);
  const SolveStats seq = solve_with("fgmres(rtol=1e-8)+bilu0", a, x);
  EXPECT_EQ(exact.iterations, seq.iterations);
  EXPECT_EQ(exact.residual_history, seq.residual_history);
}

TEST(Registry, VariablePreconditionerNeedsAFlexibleMethod) {
  EXPECT_THROW(make_solver("gmres+async_bilu"), Error);
  EXPECT_THROW(make_solver("bicgstab+async_ilu"), Error);
  EXPECT_NO_THROW(make_solver("gmres+async_bilu(schedule=sync)"));
  EXPECT_NO_THROW(make_solver("richardson+async_bilu"));
  EXPECT_NO_THROW(make_solver("gmres+async_bilu(apply_sweeps=0)"));
}

TEST(Registry, BadParametersAreRefusedByName) {
  for (const std::string spec :
       {"fgmres+async_bilu(build_sweeps=-1)", "fgmres+async_bilu(chunk=0)", "fgmres+async_ilu(schedule=fast)"}) {
    try {
      make_solver(spec);
      ADD_FAILURE() << spec;
    } catch (const Error& e) {
      const std::string what = e.what();
      EXPECT_TRUE(what.find("build_sweeps") != std::string::npos || what.find("chunk") != std::string::npos ||
                  what.find("schedule") != std::string::npos)
          << what;
    }
  }
}

// A = [[4, 1], [2, 5]]: L_21 = 1/2, U = [[4, 1], [0, 9/2]]. The Jacobi
// iteration matrices have max-norms |L_21| = 1/2 and |U_12 / U_11| = 1/4.
TEST(Diagnostics, HandComputedTwoByTwo) {
  BsrMatrix a;
  a.block_size = 1;
  a.block_rows = a.block_cols = 2;
  a.row_ptr = {0, 2, 4};
  a.col_idx = {0, 1, 0, 1};
  a.values = {4.0, 1.0, 2.0, 5.0};
  async_ilu::Options o;
  o.build_sweeps = 0;
  o.diagnostics = true;
  async_ilu::AsyncIlu ilu(o);
  ilu.setup(a, Backend::host);
  const async_ilu::Diagnostics& d = ilu.diagnostics();
  EXPECT_DOUBLE_EQ(d.l_jacobi_norm, 0.5);
  EXPECT_DOUBLE_EQ(d.u_jacobi_norm, 0.25);
  EXPECT_EQ(d.error_vs_exact, 0.0);
  EXPECT_EQ(d.final_residual, 0.0);
  // g at x0 = A: L_21 -> 2 / 4, U_22 -> 5 - 2 * 1 (x0's L_21 is 2), the
  // others unchanged: ||x0 - g(x0)||_1 = 1.5 + 2.
  EXPECT_DOUBLE_EQ(d.initial_residual, 1.5 + 2.0);
}

TEST(Diagnostics, OneSweepIsApproximateAndRecordedThroughThePreconditioner) {
  const BsrMatrix a = system(4);
  auto solver = make_solver("fgmres+async_bilu(schedule=sync,build_sweeps=1,diagnostics=true)");
  solver->setup(a);
  const async_ilu::Diagnostics* d = async_ilu_diagnostics(solver->preconditioner());
  ASSERT_NE(d, nullptr);
  EXPECT_GT(d->error_vs_exact, 1e-6);
  EXPECT_GT(d->relative_residual, 0.0);
  EXPECT_LT(d->relative_residual, 1.0);
  EXPECT_GT(d->l_jacobi_norm, 0.0);
  EXPECT_GT(d->u_jacobi_norm, 0.0);
  auto plain = make_solver("fgmres+async_bilu");
  plain->setup(a);
  EXPECT_EQ(async_ilu_diagnostics(plain->preconditioner()), nullptr);
}

// The refresh from a view of the values (update_in_place, what the systems
// library calls where the values live on the solver's backend) applies as the
// refresh from the host matrix does, bit for bit, inside the issue's solver
// too; a view of another shape, or one before set-up, is refused by name.
TEST(InPlace, ARefreshFromAViewAppliesAsTheHostRefresh) {
  const BsrMatrix first = system(4);
  Stencil7Params p;
  p.nx = 8, p.ny = 6, p.nz = 5, p.block_size = 4, p.seed = 11;
  const BsrMatrix second = generate_stencil7(p);
  async_ilu::Options o;
  o.schedule = async_ilu::Schedule::synchronous;
  auto by_host = make_async_ilu(o), in_place = make_async_ilu(o);
  ASSERT_TRUE(in_place->updates_in_place());
  by_host->setup(first, Backend::host);
  in_place->setup(first, Backend::host);
  by_host->update(second);
  in_place->update_in_place(view(second));
  std::vector<double> ones(std::size_t(second.rows()), 1.0);
  const Vector r(Backend::host, std::span<const double>(ones));
  Vector z_host(Backend::host, ones.size()), z_in_place(Backend::host, ones.size());
  by_host->apply(r, z_host);
  in_place->apply(r, z_in_place);
  EXPECT_SAME_BITS(z_in_place.to_host(), z_host.to_host());

  // The issue's solver on one thread (the asynchronous sweeps in natural
  // order): refreshed in place, the iterations of a set-up on the new values.
  const test::ThreadCount one(1);
  const std::string spec = "fgmres(restart=30,rtol=1e-8,maxit=200)+async_bilu(build_sweeps=1,apply_sweeps=3)";
  auto solver = make_solver(spec), reference = make_solver(spec);
  ASSERT_TRUE(solver->updates_in_place());
  solver->setup(first);
  reference->setup(second);
  solver->update(view(second));
  std::vector<double> x(ones.size(), 0.0), x_ref(ones.size(), 0.0);
  const SolveStats st = solver->solve(ones, x), st_ref = reference->solve(ones, x_ref);
  ASSERT_TRUE(st.converged()) << st.line();
  EXPECT_LT(residual_norm(second, x, ones), 1e-7 * std::sqrt(double(ones.size())));
  EXPECT_EQ(st.residual_history, st_ref.residual_history);
  EXPECT_SAME_BITS(x, x_ref);

  BsrMatrix smaller = system(4);
  smaller.block_rows -= 1;  // the view's shape only: it is refused before anything is read
  try {
    in_place->update_in_place(view(smaller));
    ADD_FAILURE() << "a view of another shape was read";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("239 x 240 blocks of 4 x 4, set up for 240 x 240"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(make_async_ilu(o)->update_in_place(view(second)), Error);
}

TEST(InPlace, OnlyTheBlockVariantWithSweepsAndNoDiagnosticsUpdatesInPlace) {
  for (const std::string pre : {"async_ilu(build_sweeps=1,apply_sweeps=3)", "async_bilu(build_sweeps=0,apply_sweeps=3)",
                                "async_bilu(build_sweeps=1,apply_sweeps=0)", "async_bilu(diagnostics=true)"})
    EXPECT_FALSE(make_solver("fgmres+" + pre)->updates_in_place()) << pre;
  EXPECT_TRUE(make_solver("fgmres+async_bilu(schedule=sync,reuse=true)")->updates_in_place());
}

}  // namespace
}  // namespace tb
