// Where a run writes and what it resumes: the output folder checked at
// start-up (a file, a device, a folder holding one: exit 2, the path named,
// nothing replaced), every write checked (a failing one stops the run with
// exit 1 and the path), and a restart refused before anything is written when
// its checkpoint is at or past run.steps, holds counters no run has, or a
// state that is not finite.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "decay_simulation.hpp"
#include "miniapp_descriptions.hpp"
#include "miniapps/common/checkpoint.hpp"
#include "miniapps/common/output_failure.hpp"
#include "miniapps/common/step_table.hpp"
#include "miniapps/incompressible/incomp_case.hpp"
#include "miniapps/incompressible/incomp_simulation.hpp"
#include "refused_run.hpp"
#include "run_files.hpp"
#include "solvers/core/output_path.hpp"

namespace tb {
namespace {

namespace fs = std::filesystem;
using harness::MiniappDescription;
using test::incomp_app;

struct Folder {
  explicit Folder(const std::string& name) : dir(test::fresh_dir("tb-run-outputs", name)) {
    fs::create_directories(dir);
  }
  ~Folder() { fs::remove_all(dir); }
  fs::path dir;
};

std::string file_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Every regular file under `dir` with its bytes: what a refused run must leave as it was.
std::map<std::string, std::string> contents(const fs::path& dir) {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) out[e.path().string()] = file_bytes(e.path());
  return out;
}

// The run exits 2 naming every one of `mentions`, and `dir` holds what it held.
void expect_refused_leaving(const MiniappDescription& app, const std::vector<std::string>& args, const fs::path& dir,
                            const std::vector<std::string>& mentions) {
  const bool existed = fs::exists(dir);
  const auto before = existed ? contents(dir) : std::map<std::string, std::string>{};
  const test::CapturedRun r = test::run_captured(app, args);
  EXPECT_EQ(r.status, 2) << r.error;
  for (const auto& m : mentions) EXPECT_NE(r.error.find(m), std::string::npos) << "no '" << m << "' in: " << r.error;
  if (existed) {
    EXPECT_EQ(contents(dir), before) << dir << " was written";
  } else {
    EXPECT_FALSE(fs::exists(dir)) << dir << " was created";
  }
}

const std::vector<std::string> small = {"--set", "grid.nx=8", "--set", "grid.ny=8", "--set", "run.progress=false"};

std::vector<std::string> with(std::vector<std::string> args) {
  args.insert(args.end(), small.begin(), small.end());
  return args;
}

TEST(RunOutputs, AnOutputFolderThatIsNoFolder) {
  Folder f("no-folder");
  const fs::path file = f.dir / "a-file";
  std::ofstream(file) << "mine";
  expect_refused_leaving(incomp_app(), with({"--steps", "2", "--out", file.string()}), f.dir,
                         {"--out '" + file.string() + "': is a regular file, not a folder"});
  expect_refused_leaving(
      incomp_app(), with({"--steps", "2", "--out", (file / "sub").string()}), f.dir,
      {"--out '" + (file / "sub").string() + "': '" + file.string() + "' on its path is a regular file, not a folder"});
  expect_refused_leaving(incomp_app(), with({"--steps", "2", "--out", ""}), f.dir,
                         {"--out: given \"\", allowed a value"});
  expect_refused_leaving(incomp_app(), with({"--steps", "2", "--out", "/dev/null"}), f.dir,
                         {"--out '/dev/null': is a character device, not a folder"});
  EXPECT_EQ(kind_of_path("/dev/null"), "a character device");
}

// A link to a device in the folder's place of steps.csv: refused at start-up,
// the link left a link to the device (a run would otherwise write into it).
TEST(RunOutputs, AFolderHoldingADeviceUnderAResultsName) {
  Folder f("device");
  const fs::path out = f.dir / "out";
  fs::create_directories(out);
  fs::create_symlink("/dev/null", out / "steps.csv");
  expect_refused_leaving(
      incomp_app(), with({"--steps", "2", "--out", out.string()}), f.dir,
      {"--out '" + out.string() + "': holds '" + (out / "steps.csv").string() + "', which is a character device"});
  EXPECT_TRUE(fs::is_symlink(out / "steps.csv"));
  EXPECT_FALSE(fs::exists(out / "case.toml"));
}

// A step table whose writes fail (here /dev/full, a device that is always
// full) stops the run naming the table, instead of losing it silently.
TEST(RunOutputs, AFailingRowStopsTheRunNamingTheTable) {
  harness::StepTable table("/dev/full", false, 0);
  try {
    table.write({"step"}, {"1"});
    ADD_FAILURE() << "a row written to /dev/full";
  } catch (const harness::OutputFailure& e) {
    EXPECT_NE(std::string(e.what()).find("/dev/full: cannot write the step's row"), std::string::npos) << e.what();
  }
  EXPECT_EQ(kind_of_path("/dev/full"), "a character device");
}

// A run whose field output fails at its last step (its fields/ folder is a
// file) stops with exit 1 and names what it was writing and where.
TEST(RunOutputs, AFailingOutputStopsTheRunWithStatus1) {
  Folder f("failing-output");
  MiniappDescription app;
  app.name = "tb-decay";
  app.systems = {"heat"};
  app.declare_keys = [](harness::CaseSchema& s) {
    s.add({"solver.heat", harness::KeyType::text, "gmres(rtol=1e-10)+bilu0", "solver"});
  };
  app.make = [](const harness::CaseConfig&) { return std::make_unique<test::DecaySimulation>(); };
  const fs::path out = f.dir / "out";
  fs::create_directories(out);
  std::ofstream(out / "fields") << "not a folder";
  const test::CapturedRun r =
      test::run_captured(app, {"--steps", "2", "--set", "run.progress=false", "--out", out.string()});
  EXPECT_EQ(r.status, 1) << r.error;
  EXPECT_NE(r.error.find("tb-decay: error: an output failed, the run stopped: writing the fields of step 2: "),
            std::string::npos)
      << r.error;
  EXPECT_NE(r.error.find((out / "fields").string()), std::string::npos) << r.error;
}

TEST(RunOutputs, ARestartTakesNoOtherFolderNorCase) {
  Folder f("restart-options");
  expect_refused_leaving(incomp_app(), {"--restart", f.dir.string(), "--out", "elsewhere"}, f.dir,
                         {"--out and --restart cannot be combined: a restart continues in its own folder"});
  expect_refused_leaving(incomp_app(), {"case.toml", "--restart", f.dir.string()}, f.dir,
                         {"a case file ('case.toml') and --restart cannot be combined"});
}

// A run of 4 steps with checkpoints every 2, into `out`.
void checkpointed_run(const fs::path& out) {
  const auto r = test::run_captured(incomp_app(),
                                    with({"--steps", "4", "--set", "run.checkpoint_every=2", "--out", out.string()}));
  ASSERT_EQ(r.status, 0) << r.error;
}

// The checkpoint of `out`, edited by `edit` and written back with a valid checksum.
template <class Edit>
void edit_checkpoint(const fs::path& out, Edit edit) {
  harness::CheckpointHeader h;
  std::string state = harness::parse_checkpoint(file_bytes(out / "checkpoint.bin"), "checkpoint.bin", "tb-incomp", h);
  edit(h, state);
  harness::write_checkpoint(out, h, state);
}

// An output asked for past run.steps (a sample cut to two steps) is said to
// be ignored, and the run goes on.
TEST(RunOutputs, OutputsPastTheLastStepAreNoted) {
  Folder f("past-steps");
  const auto r = test::run_captured(incomp_app(),
                                    with({"--steps", "2", "--dump-systems", "5", "--out", (f.dir / "out").string()}));
  EXPECT_EQ(r.status, 0) << r.error;
  EXPECT_NE(r.error.find("tb-incomp: note: --dump-systems 5 is ignored: it is past run.steps (run.steps = 2 "
                         "(--steps))"),
            std::string::npos)
      << r.error;
}

// A run of 2 steps with a checkpoint interval of 3, into `out`; its stderr.
std::string run_ending_before_its_interval(const fs::path& out) {
  const auto r = test::run_captured(incomp_app(),
                                    with({"--steps", "2", "--set", "run.checkpoint_every=3", "--out", out.string()}));
  EXPECT_EQ(r.status, 0) << r.error;
  return r.error;
}

// The last step writes a checkpoint too, whatever the interval: a run is
// continued from where it ended (here with a checkpoint interval past its
// steps), and the continued table holds every step once.
TEST(RunOutputs, ARunIsContinuedFromItsLastStep) {
  Folder f("continued");
  const fs::path out = f.dir / "out";
  const std::string error = run_ending_before_its_interval(out);
  EXPECT_EQ(error.find("run.checkpoint_every"), std::string::npos) << "no note: the checkpoint is written\n" << error;
  harness::CheckpointHeader h;
  harness::parse_checkpoint(file_bytes(out / "checkpoint.bin"), "checkpoint.bin", "tb-incomp", h);
  EXPECT_EQ(h.step, 2);
  const auto continued = test::run_captured(incomp_app(), {"--restart", out.string(), "--steps", "5"});
  EXPECT_EQ(continued.status, 0) << continued.error;
  const auto rows = test::read_csv(out / "steps.csv");
  ASSERT_EQ(rows.size(), 6u);
  for (std::size_t i = 1; i < rows.size(); ++i) EXPECT_EQ(rows[i][0], std::to_string(i));
}

// A checkpoint at or past run.steps would run nothing and yet rewrite the
// case and summary: refused naming the file, the steps and the key.
TEST(RunOutputs, ARestartWithNothingLeftToRun) {
  Folder f("restart-done");
  const fs::path out = f.dir / "out";
  checkpointed_run(out);
  expect_refused_leaving(incomp_app(), {"--restart", out.string(), "--steps", "3"}, f.dir,
                         {(out / "checkpoint.bin").string() +
                          ": the checkpoint is at step 4 and run.steps = 3 (--steps) leaves no step to run after it: "
                          "allowed run.steps > 4"});
  expect_refused_leaving(incomp_app(), {"--restart", out.string()}, f.dir,
                         {"the checkpoint is at step 4 and run.steps = 4 (" + (out / "case.toml").string()});
  const auto r = test::run_captured(incomp_app(), {"--restart", out.string(), "--steps", "5"});
  EXPECT_EQ(r.status, 0) << r.error;
  EXPECT_EQ(test::read_csv(out / "steps.csv").size(), 6u);
}

// A run killed before its first checkpoint (its folder without one): the
// refusal says so, with the interval its case asked for, rather than asking
// for one.
TEST(RunOutputs, ARestartOfARunKilledBeforeItsFirstCheckpoint) {
  Folder f("restart-early");
  const fs::path out = f.dir / "out";
  run_ending_before_its_interval(out);
  fs::remove(out / "checkpoint.bin");
  expect_refused_leaving(incomp_app(), {"--restart", out.string(), "--steps", "6"}, f.dir,
                         {(out / "checkpoint.bin").string() +
                          ": no checkpoint to restart from: the run was stopped before step 3, its first "
                          "(run.checkpoint_every = 3)"});
}

// Counters no run has (a wall time of 1e300 s, more failures than solves):
// refused naming the file and the counter, before anything is written.
TEST(RunOutputs, ARestartFromAbsurdCounters) {
  Folder f("restart-counters");
  const fs::path out = f.dir / "out";
  checkpointed_run(out);
  const std::string intact = file_bytes(out / "checkpoint.bin");
  edit_checkpoint(out, [](harness::CheckpointHeader& h, std::string&) { h.wall_seconds = 1e300; });
  expect_refused_leaving(incomp_app(), {"--restart", out.string(), "--steps", "6"}, f.dir,
                         {(out / "checkpoint.bin").string() +
                          ": not a usable checkpoint: a wall time of 1e+300 s, allowed 0 to 1000000000 s"});
  std::ofstream(out / "checkpoint.bin", std::ios::binary) << intact;
  edit_checkpoint(out, [](harness::CheckpointHeader& h, std::string&) {
    h.totals["driver/pressure"].failures = h.totals["driver/pressure"].solves + 1;
  });
  expect_refused_leaving(incomp_app(), {"--restart", out.string(), "--steps", "6"}, f.dir,
                         {"not a usable checkpoint: the totals of 'driver/pressure': ", "failures"});
}

// A state that is not finite (its first velocity made NaN, the checksum
// recomputed) is refused naming the file, not found by a factorisation.
TEST(RunOutputs, ARestartFromANonFiniteState) {
  Folder f("restart-nan");
  const fs::path out = f.dir / "out";
  checkpointed_run(out);
  edit_checkpoint(out, [](harness::CheckpointHeader&, std::string& state) {
    const double nan = std::nan("");
    std::memcpy(state.data() + 2 * sizeof(double), &nan, sizeof nan);  // after the time and the step count: u[0]
  });
  expect_refused_leaving(
      incomp_app(), {"--restart", out.string(), "--steps", "6"}, f.dir,
      {(out / "checkpoint.bin").string() + ": not a usable checkpoint: its state's max |u| is not finite"});
}

}  // namespace
}  // namespace tb
