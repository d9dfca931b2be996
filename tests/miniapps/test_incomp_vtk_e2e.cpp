// The check through the files a user opens: tb-incomp's cavity at Re 100
// reaches steady state, and the u profile read back from the final .vts along
// x = 0.5 matches Ghia, Ghia & Shin, J. Comput. Phys. 48 (1982), Table I, within
// 0.01 (on 64 x 64 cells the deviation is 0.003; see test_cavity_ghia.cpp).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "miniapps/common/time_loop.hpp"
#include "miniapps/incompressible/field_output.hpp"
#include "miniapps/incompressible/incomp_case.hpp"
#include "miniapps/incompressible/incomp_simulation.hpp"

namespace tb {
namespace {

namespace fs = std::filesystem;
using namespace harness;

TEST(IncompVtk, CavityCentrelineReadBackFromVtsMatchesGhia) {
  if (!incompressible::vts_output_available()) GTEST_SKIP() << "built without VTK";
  MiniappDescription app;
  app.name = "tb-incomp";
  app.systems = {"momentum", "pressure"};
  app.declare_keys = incompressible::declare_case_keys;
  CaseConfig config(make_schema(app));
  for (const char* kv : {"grid.nx=64", "grid.ny=64", "time.dt=0.1", "run.output_every=1000"}) {
    const std::string s = kv;
    config.set(s.substr(0, s.find('=')), s.substr(s.find('=') + 1));
  }
  const fs::path out = fs::temp_directory_path() / ("tb-incomp-vtk-" + std::to_string(::getpid()));
  fs::remove_all(out);
  LoopSettings s;
  s.app = "tb-incomp";
  s.out_dir = out;
  s.steps = 600;
  s.output_every = 1000;
  s.progress = false;
  s.driver_specs = {{"momentum", config.text("solver.momentum")}, {"pressure", config.text("solver.pressure")}};
  incompressible::IncompressibleSimulation sim(config);
  const RunResult r = run_time_loop(sim, config, s);
  ASSERT_TRUE(r.steady);
  ASSERT_TRUE(fs::exists(out / "flow.pvd"));

  char name[32];
  std::snprintf(name, sizeof name, "flow_%06ld.vts", r.last_step);
  const auto v = incompressible::read_vts_cell_array(out / "fields" / name, "velocity");
  ASSERT_EQ(v.cells[0], 64);
  ASSERT_EQ(v.components, 3);
  // Uniform cells: x = 0.5 is the face between columns 31 and 32.
  incompressible::Profile u;
  u.coord.push_back(0.0), u.value.push_back(0.0);
  for (int j = 0; j < 64; ++j) {
    u.coord.push_back((j + 0.5) / 64.0);
    u.value.push_back(0.5 * (v.values[3 * std::size_t(31 + 64 * j)] + v.values[3 * std::size_t(32 + 64 * j)]));
  }
  u.coord.push_back(1.0), u.value.push_back(1.0);
  EXPECT_LT(incompressible::max_deviation(u, *incompressible::ghia_u_vertical(100)), 0.01);
  fs::remove_all(out);
}

}  // namespace
}  // namespace tb
