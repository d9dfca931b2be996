// Bad input to tb-ib (docs/harness.md): a body that is not strictly inside the box, a
// negative core spacing or a shrinking stretching, a box turned inside out are
// refused with exit status 2, a message naming the place and the keys, and no
// output folder. A body touching the boundary counts as outside: the
// ghost-cell method needs fluid on every side of it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "../refused_run.hpp"
#include "../run_files.hpp"
#include "miniapps/immersed/ib_case.hpp"
#include "miniapps/immersed/ib_simulation.hpp"

namespace tb {
namespace {

namespace fs = std::filesystem;
using test::expect_refused;

harness::MiniappDescription ib_app() {
  harness::MiniappDescription app;
  app.name = "tb-ib";
  app.systems = immersed::ib_systems;
  app.declare_keys = immersed::declare_case_keys;
  app.check_case = immersed::check_case_keys;
  app.make = [](const harness::CaseConfig& c) { return immersed::make_simulation(c); };
  return app;
}

fs::path out_dir(const std::string& name) { return test::fresh_dir("tb-ib-refused", name); }

TEST(IbRefusedInput, ABodyOutsideTheBox) {
  // The default box is x in [-2, 4]: a unit sphere at x = 10 never meets the grid.
  expect_refused(ib_app(), {"--set", "body.centre_x=10"}, out_dir("outside"),
                 {"--set: body.centre_x: given 10, allowed a body strictly inside the box, grid.min_x = -2 (the "
                  "default) < x < grid.max_x = 4 (the default); the body spans x from 9.5 to 10.5"});
}

TEST(IbRefusedInput, ABodyThatCrossesOrTouchesTheBoundary) {
  const fs::path dir = out_dir("crossing-case");
  fs::create_directories(dir);
  const std::string file = (dir / "case.toml").string();
  std::ofstream(file) << "[grid]\nmax_y = 1.0\n\n[body]\ncentre_y = 0.8\n";
  expect_refused(ib_app(), {file}, out_dir("crossing"),
                 {file + ":5: body.centre_y: given 0.8, allowed a body strictly inside the box",
                  "grid.max_y = 1 (" + file + ":2)", "spans y from 0.3 to 1.3"});
  std::ofstream(file) << "[grid]\nmax_y = 1.0\n\n[body]\ncentre_y = 0.5\n";  // touches y = 1
  expect_refused(ib_app(), {file}, out_dir("crossing"), {file + ":5: body.centre_y: given 0.5"});
  // The pulsating ellipsoid at its largest, a0 (1 + eps): 0.5 * 1.5 reaches past y = 0.7.
  expect_refused(ib_app(),
                 {"--set", "body.shape=pulsating_ellipsoid", "--set", "body.pulse_eps=0.5", "--set", "grid.max_y=0.7",
                  "--set", "grid.core_max_y=0.7"},
                 out_dir("pulsating"), {"body.centre_y: given 0 (the default)", "spans y from -0.75 to 0.75"});
  fs::remove_all(dir);
}

TEST(IbRefusedInput, GridSpacingAndStretching) {
  expect_refused(ib_app(), {"--set", "grid.core_h=-0.1"}, out_dir("h"),
                 {"--set: grid.core_h: given -0.1, allowed >= 0"});
  expect_refused(ib_app(), {"--set", "grid.ratio=0.5"}, out_dir("ratio"),
                 {"--set: grid.ratio: given 0.5, allowed >= 1 and <= 2"});
  // A growth of 1e6 would cross each side of the box in one cell.
  expect_refused(ib_app(), {"--set", "grid.ratio=1e6"}, out_dir("ratio"),
                 {"--set: grid.ratio: given 1e+06, allowed >= 1 and <= 2"});
  expect_refused(ib_app(), {"--set", "grid.core_h=0", "--set", "grid.ny=1"}, out_dir("n"),
                 {"--set: grid.ny: given 1, allowed >= 2 and <= 4096"});
  expect_refused(ib_app(), {"--set", "grid.max_z=-3"}, out_dir("box"),
                 {"--set: grid.max_z: given -3, allowed > grid.min_z = -2 (the default)"});
  expect_refused(ib_app(), {"--set", "grid.core_max_x=5"}, out_dir("core"),
                 {"--set: grid.core_max_x: given 5, allowed <= grid.max_x = 4 (the default)"});
}

TEST(IbRefusedInput, BodyKeys) {
  expect_refused(ib_app(), {"--set", "body.radius=0"}, out_dir("radius"), {"--set: body.radius: given 0, allowed > 0"});
  expect_refused(ib_app(), {"--set", "body.pulse_eps=1"}, out_dir("eps"),
                 {"--set: body.pulse_eps: given 1, allowed > -1 and < 1"});
  expect_refused(ib_app(), {"--set", "body.shape=stl"}, out_dir("stl"),
                 {"body.file: given \"\" (the default), allowed an STL file when body.shape = \"stl\" (--set)"});
  expect_refused(ib_app(), {"--set", "body.shape=stl", "--set", "body.file=" + fs::temp_directory_path().string()},
                 out_dir("stl-dir"),
                 {"--set: body.file: given", "allowed an existing regular file", "not a regular file"});
  expect_refused(ib_app(), {"--set", "flow.u_x=0"}, out_dir("stream"),
                 {"--set: flow.u_x: given 0, allowed a free stream that does not vanish"});
  // The default's sides are outflows but for xmin: every one set to inflow.
  std::vector<std::string> no_outflow;
  for (const char* side : {"xmax", "ymin", "ymax", "zmin", "zmax"})
    no_outflow.insert(no_outflow.end(), {"--set", std::string("bc.") + side + "=inflow"});
  expect_refused(ib_app(), no_outflow, out_dir("outflow"),
                 {"--set: bc.xmax: given \"inflow\", allowed \"outflow\" on at least one side"});
}

// The grid as asked for, counted before it is built: a core spacing wider
// than the core, a sliver of a cell between core and box, a grid past 32-bit
// indices or the machine's memory, each refused naming its keys at once.
TEST(IbRefusedInput, GridsNotAsAskedOrTooLarge) {
  expect_refused(ib_app(), {"--set", "grid.core_h=10"}, out_dir("wide-h"),
                 {"--set: grid.core_h: given 10, allowed at most the width of the refined core in x (1.4: "
                  "grid.core_min_x = -0.7 (the default), grid.core_max_x = 0.7 (the default))"});
  expect_refused(ib_app(), {"--set", "grid.core_min_x=-1.99999"}, out_dir("sliver"),
                 {"--set: grid.core_min_x: given -1.99999, allowed the box's end (grid.min_x = -2 (the default)), or "
                  "at least half a core cell",
                  "the cell between them would be 1e-05 wide"});
  expect_refused(ib_app(), {"--set", "grid.core_h=1e-4"}, out_dir("indices"),
                 {"--set: grid.core_h: given 1e-04, allowed a grid of fewer than 2e+09 cells (32-bit indices of its "
                  "unknowns): grid.core_h = 1e-04 (--set), grid.ratio = 1.2 (the default) in the box"});
  expect_refused(ib_app(),
                 {"--set", "grid.core_h=0", "--set", "grid.nx=2000", "--set", "grid.ny=2000", "--set", "grid.nz=400"},
                 out_dir("memory"),
                 {"--set: grid.nx: given 2000, allowed a grid that fits in memory: grid.nx = 2000 (--set) x grid.ny = "
                  "2000 (--set) x grid.nz = 400 (--set) makes 1.6e+09 cells"});
}

// A time step past the explicit advection's CFL 1 blew up by step 5 with
// every solve converged (|du/dt| 7e13 at time.dt = 5): refused before the
// first step, naming the key, the speed and the cell. A body thinner than a
// cell is none to the ghost-cell method.
TEST(IbRefusedInput, ATimeStepPastTheCflLimitOrABodyBetweenCellCentres) {
  expect_refused(ib_app(), {"--set", "time.dt=5"}, out_dir("dt"),
                 {"--set: time.dt: given 5, allowed at most 0.1 here: advection is explicit (Adams-Bashforth 2, Eq. 5)",
                  "the free stream (1) would cross the smallest cell (0.1) 50 times in one step"});
  expect_refused(ib_app(), {"--set", "flow.reynolds=1e-300"}, out_dir("re"),
                 {"--set: flow.reynolds: given 1e-300, allowed a value that keeps the viscosity nu = |U| L / Re"});
  expect_refused(ib_app(), {"--set", "body.radius=0.01"}, out_dir("small"),
                 {"--set: body.radius: given 0.01, allowed a body at least two cells across"});
}

// A key the body's shape does not read (an STL file for a sphere) is said to
// be ignored, on stderr and in summary.json; the run goes on.
TEST(IbRefusedInput, KeysTheShapeIgnoresAreNoted) {
  const fs::path out = out_dir("noted");
  const std::string stl = std::string(TB_SOURCE_DIR) + "/inputs/immersed/ellipsoid.stl";
  const auto r = test::run_captured(
      ib_app(), {"--steps", "1", "--set", "body.file=" + stl, "--set", "run.progress=false", "--out", out.string()});
  EXPECT_EQ(r.status, 0) << r.error;
  EXPECT_NE(
      r.error.find("tb-ib: note: body.file = \"" + stl +
                   "\" (--set) is ignored: it is the STL body's file; with body.shape = \"sphere\" (the default)"),
      std::string::npos)
      << r.error;
  fs::remove_all(out);
}

}  // namespace
}  // namespace tb
