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
#include "restart_check.hpp"
#include "solvers/core/error.hpp"

namespace tb {
namespace {

namespace fs = std::filesystem;
using namespace harness;
using incompressible::IncompressibleSimulation;

MiniappDescription incomp_app() {
  MiniappDescription app;
  app.name = "tb-incomp";
  app.systems = {"momentum", "pressure"};
  app.declare_keys = incompressible::declare_case_keys;
  return app;
}

LoopSettings settings(const fs::path& out, long steps, const CaseConfig& c) {
  return test::quiet_settings("tb-incomp", out, steps,
                              {{"momentum", c.text("solver.momentum")}, {"pressure", c.text("solver.pressure")}});
}

void expect_restart_bitwise(const CaseConfig& config) {
  test::expect_restart_bitwise<IncompressibleSimulation>(
      config, 10, "tb-incomp", [&](const fs::path& out, long steps) { return settings(out, steps, config); });
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

// Under --backend cuda the start-up says where the step runs; nothing on the host backend.
TEST(IncompCase, TheSchemeLineSaysWhereTheStepRuns) {
  CaseConfig config(make_schema(incomp_app()));
  config.set("grid.nx", "8");
  config.set("grid.ny", "8");
  EXPECT_EQ(IncompressibleSimulation(config).scheme(), "");
  config.set("run.backend", "cuda");
  EXPECT_EQ(IncompressibleSimulation(config).scheme(), "fractional step resident on the device");
}

TEST(IncompCase, BadBoundaryTypeNamesTheKey) {
  CaseConfig config(make_schema(incomp_app()));
  // A type outside the key's domain is refused where it is given (--set).
  try {
    config.set("bc.xmax.type", "outlet");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("bc.xmax"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tb
