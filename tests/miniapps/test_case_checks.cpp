// The cases' cross-key checks before the first step (case_checks.hpp and each
// miniapp's check_case): numbers read as the doubles they are, long and empty
// values shown whole or cut, a comparison only where it means something, the
// magnitudes of the first step finite, grids within indices and memory, keys a
// setting ignores said so. Each refusal exits 2, names the keys and their
// places, and leaves no output folder.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "miniapp_descriptions.hpp"
#include "miniapps/common/case_checks.hpp"
#include "miniapps/compressible/comp_case.hpp"
#include "miniapps/compressible/comp_simulation.hpp"
#include "miniapps/incompressible/incomp_case.hpp"
#include "miniapps/incompressible/incomp_simulation.hpp"
#include "refused_run.hpp"
#include "run_files.hpp"

namespace tb {
namespace {

namespace fs = std::filesystem;
using test::comp_app;
using test::expect_refused;
using test::incomp_app;

struct Folder {
  explicit Folder(const std::string& name) : dir(test::fresh_dir("tb-case-checks", name)) {
    fs::create_directories(dir);
  }
  ~Folder() { fs::remove_all(dir); }
  std::string write(const std::string& text, const std::string& name = "case.toml") const {
    std::ofstream(dir / name) << text;
    return (dir / name).string();
  }
  fs::path out() const { return dir / "out"; }
  fs::path dir;
};

std::string file_text(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Any double is taken as the double it is (a subnormal time step too, whose
// 1/dt the magnitude check then refuses by name); a number no double holds is
// refused naming the key and why, from --set and from a case file alike.
TEST(CaseChecks, NumbersAreReadAsTheDoublesTheyAre) {
  Folder f("numbers");
  expect_refused(incomp_app(), {"--set", "time.dt=1e-400"}, f.out(),
                 {"--set: time.dt: given \"1e-400\", allowed a real number (a double: 1e-400 is below the smallest "
                  "positive double, 4.9e-324; write 0 for zero)"});
  expect_refused(incomp_app(), {"--set", "flow.reynolds=-1e400"}, f.out(),
                 {"--set: flow.reynolds: given \"-1e400\", allowed a real number (a double: at most 1.8e308 in "
                  "magnitude)"});
  std::string file = f.write("[time]\ndt = 1e-400  # a comment\n");
  expect_refused(incomp_app(), {file}, f.out(), {file + ":2: time.dt: given \"1e-400\", allowed a real number"});
  file = f.write("[time]\ndt = 1_000.5e-400\n");
  expect_refused(incomp_app(), {file}, f.out(), {file + ":2: time.dt: given \"1000.5e-400\""});
  expect_refused(incomp_app(), {"--set", "time.dt=1e-320"}, f.out(),
                 {"--set: time.dt: given 1e-320, allowed a value that keeps 1 / dt (here inf) 0 or between 1e-150 "
                  "and 1e+150"});
  expect_refused(incomp_app(), {"--set", "run.steps=99999999999999999999"}, f.out(),
                 {"--set: run.steps: given \"99999999999999999999\", allowed an integer (from -2^63 to 2^63 - 1)"});
}

// A value that is no number and no string is named by what it is, never as an empty "given ,".
TEST(CaseChecks, ValuesOfTheWrongKindAreNamed) {
  Folder f("kinds");
  std::string file = f.write("[run]\nsteps = [1, 2]\n");
  expect_refused(incomp_app(), {file}, f.out(), {file + ":2: run.steps: given an array, allowed an integer"});
  file = f.write("[run]\nsteps = 1000-01-01\n");
  expect_refused(incomp_app(), {file}, f.out(), {file + ":2: run.steps: given a date, allowed an integer"});
  expect_refused(incomp_app(), {"--set", "time.dt="}, f.out(), {"--set: time.dt: given \"\", allowed a real number"});
  expect_refused(incomp_app(), {"--set", "bc.xmin.type="}, f.out(),
                 {"--set: bc.xmin.type: given \"\", allowed one of"});
}

// A 2 MB value is cut in the message (its first characters and its length),
// and the whole message stays short.
TEST(CaseChecks, LongValuesAreCutInMessages) {
  Folder f("long");
  const std::string spec(2'000'000, 'a');
  const std::string file = f.write("[solver]\npressure = \"" + spec + "\"\n");
  std::filesystem::remove_all(f.out());
  const auto r = test::run_captured(incomp_app(), {file, "--out", f.out().string()});
  EXPECT_EQ(r.status, 2);
  EXPECT_LT(r.error.size(), 4000u) << r.error.substr(0, 400);
  EXPECT_NE(r.error.find(file + ":2: solver.pressure: given \"" + spec.substr(0, 60) + "...\" (2000000 characters)"),
            std::string::npos)
      << r.error.substr(0, 400);
  EXPECT_FALSE(fs::exists(f.out()));
  const std::string key(1'000'000, 'k');
  expect_refused(incomp_app(), {"--set", key + "=1"}, f.out(), {"unknown key '" + key.substr(0, 60) + "..."});
}

// Ghia et al.'s tables are of the unit cavity at one Reynolds number each: a
// comparison against another Reynolds number or another flow is refused; not
// given, it follows the case (the table of its Reynolds number, or none).
TEST(CaseChecks, AGhiaComparisonOnlyOfItsCavityAndReynoldsNumber) {
  Folder f("ghia");
  expect_refused(incomp_app(), {"--set", "flow.reynolds=400", "--set", "validation.ghia_reynolds=100"}, f.out(),
                 {"--set: validation.ghia_reynolds: given 100, allowed 0, or the Reynolds number of the case "
                  "(flow.reynolds = 400 (--set))"});
  const std::string channel = std::string(TB_SOURCE_DIR) + "/inputs/incompressible/channel2d.toml";
  expect_refused(incomp_app(), {channel, "--set", "validation.ghia_reynolds=100"}, f.out(),
                 {"--set: validation.ghia_reynolds: given 100, allowed 0 here: Ghia et al. computed the unit 2D "
                  "cavity",
                  "bc.xmin.type = \"inflow\" (" + channel + ":"});
  const auto r =
      test::run_captured(incomp_app(), {"--steps", "1", "--set", "flow.reynolds=400", "--set", "grid.nx=8", "--set",
                                        "grid.ny=8", "--set", "run.progress=false", "--out", f.out().string()});
  ASSERT_EQ(r.status, 0) << r.error;
  EXPECT_NE(file_text(f.out() / "case.toml").find("ghia_reynolds = 400"), std::string::npos);
  EXPECT_NE(file_text(f.out() / "summary.json").find("ghia_u_max_deviation"), std::string::npos);
  const auto c = test::run_captured(
      incomp_app(), {channel, "--steps", "1", "--set", "run.progress=false", "--out", (f.dir / "channel").string()});
  ASSERT_EQ(c.status, 0) << c.error;
  EXPECT_EQ(file_text(f.dir / "channel" / "summary.json").find("ghia_u_max_deviation"), std::string::npos);
}

TEST(CaseChecks, APoiseuilleErrorOnlyOfAChannel) {
  Folder f("poiseuille");
  expect_refused(incomp_app(), {"--set", "validation.poiseuille=true"}, f.out(),
                 {"--set: validation.poiseuille: given true, allowed false here: the Poiseuille parabola is the flow "
                  "of a plane channel",
                  "bc.xmin.type = \"wall\" (the default)"});
}

// A velocity on a side that takes none is refused; the lid's default speed is
// a wall's, so a case that makes ymax periodic runs without it.
TEST(CaseChecks, AVelocityOnAPeriodicOrOutflowSide) {
  Folder f("sides");
  expect_refused(incomp_app(),
                 {"--set", "bc.xmin.type=periodic", "--set", "bc.xmax.type=periodic", "--set", "bc.xmin.v=1"}, f.out(),
                 {"--set: bc.xmin.v: given 1, allowed 0 with bc.xmin.type = \"periodic\" (--set): a periodic side "
                  "takes the flow's velocity"});
  const auto r = test::run_captured(
      incomp_app(), {"--steps", "1", "--set", "bc.ymin.type=periodic", "--set", "bc.ymax.type=periodic", "--set",
                     "grid.nx=8", "--set", "grid.ny=8", "--set", "run.progress=false", "--out", f.out().string()});
  ASSERT_EQ(r.status, 0) << r.error;
  EXPECT_NE(file_text(f.out() / "case.toml").find("[bc.ymax]\ntype = 'periodic'\nu = 0.0\n"), std::string::npos)
      << file_text(f.out() / "case.toml");
}

// Values inside their keys' ranges whose first step would overflow: refused
// naming the key, the quantity and its value, before anything is written.
TEST(CaseChecks, MagnitudesThatWouldOverflowAtTheFirstStep) {
  Folder f("magnitudes");
  expect_refused(incomp_app(), {"--set", "bc.ymax.u=1e300"}, f.out(),
                 {"--set: bc.ymax.u: given 1e+300, allowed a value that keeps the boundary speed (here 1e+300)"});
  expect_refused(incomp_app(), {"--set", "flow.reynolds=1e-300"}, f.out(),
                 {"--set: flow.reynolds: given 1e-300, allowed a value that keeps the viscosity nu = 1 / Re"});
  expect_refused(
      incomp_app(), {"--set", "bc.ymax.u=1e100"}, f.out(),
      {"--set: bc.ymax.u: given 1e+100, allowed a value that keeps the momentum equation's terms U max(1/dt, "
       "nu/h^2, U/h) (here 3.2e+201)",
       "time.dt = 0.2 (the default)"});
  expect_refused(comp_app(), {"--set", "flow.mach=0"}, f.out(), {"--set: flow.mach: given 0, allowed > 0"});
  expect_refused(
      comp_app(), {"--set", "flow.mach=1e-200"}, f.out(),
      {"--set: flow.mach: given 1e-200, allowed a value that keeps the free stream's speed M (here 1e-200)"});
  expect_refused(comp_app(), {"--set", "flow.reynolds=1e-300"}, f.out(),
                 {"--set: flow.reynolds: given 1e-300, allowed a value that keeps the viscosity mu_inf = M L / Re",
                  "flow.mach = 0.38 (the default)"});
  expect_refused(comp_app(), {"--set", "flow.t_inf_kelvin=15"}, f.out(),
                 {"--set: flow.t_inf_kelvin: given 15, allowed >= 50 and <= 5000"});
}

// A grid past 32-bit indices or the machine's memory is refused at once, with
// its keys and the estimate (TB_MEMORY_LIMIT_MB stands for the machine here);
// a clustering that collapses cells is refused naming its key, not found as a
// singular pivot of the solver.
TEST(CaseChecks, GridsPastIndicesMemoryOrResolution) {
  Folder f("grids");
  expect_refused(incomp_app(), {"--set", "grid.nx=100000", "--set", "grid.ny=100000"}, f.out(),
                 {"--set: grid.nx: given 100000, allowed a grid of fewer than 6.67e+08 cells (32-bit indices of its "
                  "unknowns): grid.nx = 100000 (--set) x grid.ny = 100000 (--set) x grid.nz = 1 (the default) makes "
                  "1e+10"});
  ::setenv("TB_MEMORY_LIMIT_MB", "100", 1);
  expect_refused(incomp_app(), {"--set", "grid.nx=256", "--set", "grid.ny=256"}, f.out(),
                 {"--set: grid.nx: given 256, allowed a grid that fits in memory", "6.55e+04 cells",
                  "above the 100 MiB of TB_MEMORY_LIMIT_MB"});
  ::setenv("TB_MEMORY_LIMIT_MB", "lots", 1);
  expect_refused(incomp_app(), {}, f.out(), {"TB_MEMORY_LIMIT_MB: given \"lots\", allowed a positive integer"});
  ::unsetenv("TB_MEMORY_LIMIT_MB");
  expect_refused(
      incomp_app(), {"--set", "grid.stretch_x=20"}, f.out(),
      {"--set: grid.stretch_x: given 20, allowed a clustering that keeps every cell", "grid.nx = 32 (the default)"});
}

// Keys the case's settings do not read are said to be ignored, once, on
// stderr and in summary.json; the run goes on.
TEST(CaseChecks, IgnoredKeysAreNoted) {
  Folder f("ignored");
  const auto r = test::run_captured(
      incomp_app(), {"--steps", "1", "--set", "grid.nx=8", "--set", "grid.ny=8", "--set", "bc.zmin.type=inflow",
                     "--set", "bc.xmin.profile=parabolic", "--set", "run.progress=false", "--out", f.out().string()});
  ASSERT_EQ(r.status, 0) << r.error;
  const std::string zmin = "bc.zmin.type = \"inflow\" (--set) is ignored: it is read only in 3D";
  const std::string profile = "bc.xmin.profile = \"parabolic\" (--set) is ignored: it is the profile of an inflow";
  EXPECT_NE(r.error.find("tb-incomp: note: " + zmin), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("tb-incomp: note: " + profile), std::string::npos) << r.error;
  const std::string summary = file_text(f.out() / "summary.json");
  EXPECT_NE(summary.find("\"notes\""), std::string::npos);
  EXPECT_NE(summary.find("bc.xmin.profile = \\\"parabolic\\\" (--set) is ignored"), std::string::npos) << summary;
  const auto c = test::run_captured(comp_app(), {"--steps", "1", "--set", "flow.prandtl=0.8", "--set",
                                                 "run.progress=false", "--out", (f.dir / "comp").string()});
  EXPECT_NE(c.error.find("tb-comp2d: note: flow.prandtl = 0.8 (--set) is ignored: it is the viscous flux's; with "
                         "flow.reynolds = 0 (the default)"),
            std::string::npos)
      << c.error;
}

// The exact Jacobian with the asynchronous ILU on the device is said to act
// differently there, once; in the synchronous order, or on the host, nothing.
TEST(CaseChecks, TheExactFormOnTheDeviceWithAsynchronousSweepsIsNoted) {
  harness::CaseConfig config(harness::make_schema(comp_app()));
  config.set("jacobian.form", "exact", "--set");
  config.set("run.backend", "cuda", "--set");
  config.set("solver.flow", compressible::gpu_flow_solver, "run.backend");
  const harness::CaseNotes notes = compressible::check_case_keys(config, false);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("jacobian.form = \"exact\" (--set) on the device with solver.flow = "), std::string::npos)
      << notes[0];
  EXPECT_NE(notes[0].find("act like Jacobi sweeps"), std::string::npos) << notes[0];
  config.set("solver.flow", "autopilot(candidates=[fgmres(backend=cuda)+multicolor; fgmres(backend=cuda)+async_bilu])",
             "--set");
  EXPECT_EQ(compressible::check_case_keys(config, false).size(), 1u) << "an autopilot's candidate";
  config.set("solver.flow", "fgmres(backend=cuda)+async_bilu(schedule=sync,reuse=true)", "--set");
  EXPECT_TRUE(compressible::check_case_keys(config, false).empty());
  config.set("solver.flow", "fgmres+async_bilu", "--set");
  config.set("run.backend", "host", "--set");
  EXPECT_TRUE(compressible::check_case_keys(config, false).empty());
}

// The shipped cases pass every check unchanged (no refusal, no note).
TEST(CaseChecks, TheShippedCasesPass) {
  for (const char* name :
       {"cavity2d_re100", "cavity2d_re400", "cavity2d_re1000", "cavity3d_re1000", "channel2d", "channel2d_periodic"}) {
    harness::CaseConfig config(harness::make_schema(incomp_app()));
    config.load_toml(std::string(TB_SOURCE_DIR) + "/inputs/incompressible/" + name + ".toml");
    incompressible::resolve_case_defaults(config);
    EXPECT_TRUE(incompressible::check_case_keys(config, false).empty()) << name;
  }
  for (const char* name : {"cylinder_inviscid", "naca0012_laminar"}) {
    harness::CaseConfig config(harness::make_schema(comp_app()));
    config.load_toml(std::string(TB_SOURCE_DIR) + "/inputs/compressible/" + name + ".toml");
    EXPECT_TRUE(compressible::check_case_keys(config, false).empty()) << name;
  }
}

}  // namespace
}  // namespace tb
