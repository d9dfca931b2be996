// tb-incomp through the harness: a run interrupted after a checkpoint and
// resumed with restart reproduces the uninterrupted run bit for bit (velocity,
// pressure, face velocities, convective-outflow values), for the cavity and
// for the channel whose outflow boundary carries state of its own.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "miniapps/common/time_loop.hpp"
#include "miniapps/incompressible/incomp_case.hpp"
#include "miniapps/incompressible/incomp_simulation.hpp"
#include "solvers/core/error.hpp"

namespace tb {
namespace {

namespace fs = std::filesystem;
using namespace harness;
using incompressible::IncompressibleSimulation;

fs::path fresh_dir(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("tb-incomp-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(d);
  return d;
}

MiniappDescription incomp_app() {
  MiniappDescription app;
  app.name = "tb-incomp";
  app.systems = {"momentum", "pressure"};
  app.declare_keys = incompressible::declare_case_keys;
  return app;
}

LoopSettings settings(const fs::path& out, long steps, const CaseConfig& c) {
  LoopSettings s;
  s.app = "tb-incomp";
  s.out_dir = out;
  s.steps = steps;
  s.progress = false;
  s.driver_specs = {{"momentum", c.text("solver.momentum")}, {"pressure", c.text("solver.pressure")}};
  return s;
}

std::string state_bytes(const IncompressibleSimulation& sim) {
  std::ostringstream out;
  sim.save_state(out);
  return out.str();
}

void expect_restart_bitwise(CaseConfig config) {
  const fs::path whole = fresh_dir("whole"), split = fresh_dir("split");
  IncompressibleSimulation a(config);
  run_time_loop(a, config, settings(whole, 10, config));

  LoopSettings s = settings(split, 7, config);
  s.checkpoint_every = 3;
  IncompressibleSimulation b1(config);
  run_time_loop(b1, config, s);  // stops after step 7, as if killed; the checkpoint holds step 6
  s.steps = 10;
  s.restart = true;
  IncompressibleSimulation b2(config);
  const RunResult r = run_time_loop(b2, config, s);
  EXPECT_EQ(r.last_step, 10);
  EXPECT_EQ(b2.flow().steps(), 10);
  const std::string sa = state_bytes(a), sb = state_bytes(b2);
  ASSERT_EQ(sa.size(), sb.size());
  EXPECT_TRUE(sa == sb) << "restarted state differs from the uninterrupted one";
  EXPECT_EQ(a.figures_of_merit(), b2.figures_of_merit());
  fs::remove_all(whole);
  fs::remove_all(split);
}

TEST(IncompRestart, CavityResumesBitwise) {
  CaseConfig config(make_schema(incomp_app()));
  config.set("grid.nx", "12");
  config.set("grid.ny", "10");
  config.set("grid.stretch_y", "1.2");
  expect_restart_bitwise(config);
}

TEST(IncompRestart, ChannelWithConvectiveOutflowResumesBitwise) {
  CaseConfig config(make_schema(incomp_app()));
  config.load_toml(std::string(TB_SOURCE_DIR) + "/inputs/incompressible/channel2d.toml");
  config.set("grid.nx", "12");
  config.set("grid.ny", "8");
  expect_restart_bitwise(config);
}

TEST(IncompCase, BadBoundaryTypeNamesTheKey) {
  CaseConfig config(make_schema(incomp_app()));
  config.set("bc.xmax.type", "outlet");
  try {
    IncompressibleSimulation sim(config);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("bc.xmax"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tb
