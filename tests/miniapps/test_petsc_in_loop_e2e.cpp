// PETSc as a peer solver inside tb-incomp's time loop: the solve the harness
// ran at a step equals, iteration for iteration and residual for residual, the
// same PETSc configuration run offline on that step's dumped system (A, b, x0),
// as tb-solve --x0 would run it. The momentum system's values change every
// step, so its in-loop solve went through update() (values only, pattern kept);
// the pressure matrix is constant and was set up once.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>

#include "miniapps/common/time_loop.hpp"
#include "miniapps/incompressible/incomp_case.hpp"
#include "miniapps/incompressible/incomp_simulation.hpp"
#include "solvers/factory/registry.hpp"
#include "solvers/matrix/matrix_market.hpp"
#include "solvers/petsc/petsc_solver.hpp"
#include "solvers/systems/system_set.hpp"

namespace tb {
namespace {

namespace fs = std::filesystem;
using namespace harness;

constexpr long dumped_step = 3;
const std::string momentum_spec = "petsc(ksp=bcgs,pc=ilu,format=baij,rtol=1e-8)";
const std::string pressure_spec = "petsc(ksp=cg,pc=gamg,format=aij,rtol=1e-9)";

SolveStats offline(const fs::path& dir, const std::string& system, const std::string& spec) {
  const std::string stem = (dir / ("step" + std::to_string(dumped_step) + "-" + system)).string();
  const MatrixMarketMatrix m = read_matrix_market(stem + "-A.mtx");
  const BsrMatrix a = csr_to_bsr(m.matrix, m.block_size ? m.block_size : 1);
  const std::vector<double> b = read_matrix_market_vector(stem + "-b.mtx");
  std::vector<double> x = read_matrix_market_vector(stem + "-x0.mtx");
  auto solver = make_solver(spec);
  solver->setup(a);
  return solver->solve(b, x);
}

TEST(PetscInLoop, IncompSolvesEqualOfflineSolvesOfTheDumpedSystems) {
  if (!petsc::available()) GTEST_SKIP() << "built without PETSc";
  MiniappDescription app;
  app.name = "tb-incomp";
  app.systems = {"momentum", "pressure"};
  app.declare_keys = incompressible::declare_case_keys;
  CaseConfig config(make_schema(app));
  config.set("grid.nx", "16");
  config.set("grid.ny", "16");
  incompressible::IncompressibleSimulation sim(config);

  const fs::path dir = fs::temp_directory_path() / ("tb-petsc-loop-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  systems::SystemSet solvers({.specs = {{"momentum", momentum_spec}, {"pressure", pressure_spec}}});
  sim.declare_systems(solvers);
  solvers.dump_steps(dir, {dumped_step});
  for (long step = 1; step <= dumped_step; ++step) {
    solvers.begin_step(step);
    sim.advance(solvers);
  }
  int checked = 0;
  for (const SolveRecord& r : solvers.driver_records()) {
    SCOPED_TRACE(r.system);
    const SolveStats off = offline(dir, r.system, r.system == "pressure" ? pressure_spec : momentum_spec);
    ASSERT_TRUE(r.stats.converged()) << r.stats.line();
    EXPECT_GT(r.stats.iterations, 1);
    EXPECT_EQ(off.iterations, r.stats.iterations);
    EXPECT_EQ(off.reason, r.stats.reason);
    EXPECT_NEAR(off.initial_residual, r.stats.initial_residual, 1e-12 * r.stats.initial_residual);
    EXPECT_NEAR(off.final_residual, r.stats.final_residual, 1e-9 * r.stats.final_residual);
    EXPECT_LE(r.stats.final_residual, 1e-7 * r.stats.initial_residual);
    std::printf("%s: in the loop %d iterations, ||r|| %.17g; offline %d, %.17g\n", r.system.c_str(), r.stats.iterations,
                r.stats.final_residual, off.iterations, off.final_residual);
    ++checked;
  }
  EXPECT_EQ(checked, 2);
  fs::remove_all(dir);
}

TEST(PetscInLoop, BadParametersAreRefusedWithWhatIsAllowed) {
  try {
    make_solver("petsc(pc=boomer)");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("hypre"), std::string::npos) << e.what();
  }
  if (!petsc::available()) GTEST_SKIP() << "built without PETSc";
  EXPECT_THROW(make_solver("petsc(options=:x)"), Error);
  auto solver = make_solver("petsc(ksp=cg,pc=jacobi,options=pc_hypre_typo:boomeramg)");
  BsrMatrix a;
  a.block_rows = a.block_cols = 1;
  a.row_ptr = {0, 1};
  a.col_idx = {0};
  a.values = {2.0};
  try {
    solver->setup(a);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("-pc_hypre_typo"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tb
