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

}  // namespace
}  // namespace tb
