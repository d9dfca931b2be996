// Checkpoint integrity (docs/harness.md): the checksum, the miniapp, the build's
// commit and the case digest, each refused with the reason and the file.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>

#include "miniapps/common/checkpoint.hpp"
#include "miniapps/common/time_loop.hpp"
#include "run_files.hpp"
#include "solvers/core/build_commit.hpp"
#include "solvers/core/error.hpp"
#define XXH_INLINE_ALL
#include <xxhash.h>

namespace tb {
namespace {

namespace fs = std::filesystem;
using namespace harness;

CaseSchema small_schema() {
  MiniappDescription app;
  app.name = "tb-test";
  app.systems = {"p"};
  app.declare_keys = [](CaseSchema& s) {
    s.add({"solver.p", KeyType::text, "cg+jacobi", "solver"});
    s.add({"physics.nu", KeyType::real, "0.01", "viscosity"});
  };
  return make_schema(app);
}

CheckpointHeader sample_header(std::uint64_t digest) {
  CheckpointHeader h;
  h.app = "tb-test";
  h.step = 6;
  h.wall_seconds = 1.25;
  h.totals["driver/p"] = SolverTotals{6, 42, 1, 0.5, 0.75};
  h.totals["shadow1/p"] = SolverTotals{6, 7, 0, 0.125, 0.25};
  h.harness_state = "autopilot state";
  h.guard.checked = 6;
  h.guard.failed_in_a_row = 2;
  h.guard.reference["residualdu"] = {2.5, 1, 5};
  h.guard.reference["statemax |u|"] = {};  // met after the reference steps
  h.case_digest = digest;
  return h;
}

std::string file_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// parse_checkpoint's refusal, or "" when it accepted the bytes.
std::string refusal(const std::string& bytes, const std::string& app = "tb-test") {
  CheckpointHeader h;
  try {
    parse_checkpoint(bytes, "dir/checkpoint.bin", app, h);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// The checksum recomputed after an edit, so the reader's other checks are reached.
void reseal(std::string& bytes) {
  const std::uint64_t sum = XXH3_64bits(bytes.data(), bytes.size() - 8);
  std::memcpy(bytes.data() + bytes.size() - 8, &sum, 8);
}

class CheckpointTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = test::fresh_dir("tb-checkpoint", ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
    write_checkpoint(dir_, sample_header(0x1234), "physics state \x01\x02");
    bytes_ = file_bytes(dir_ / "checkpoint.bin");
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
  std::string bytes_;
};

TEST_F(CheckpointTest, RoundTripKeepsEveryField) {
  CheckpointHeader h;
  EXPECT_EQ(read_checkpoint(dir_, "tb-test", 0x1234, h), "physics state \x01\x02");
  EXPECT_EQ(h.app, "tb-test");
  EXPECT_EQ(h.step, 6);
  EXPECT_EQ(h.wall_seconds, 1.25);
  EXPECT_EQ(h.harness_state, "autopilot state");
  EXPECT_EQ(h.program_version, build_commit());
  EXPECT_EQ(h.case_digest, 0x1234u);
  ASSERT_EQ(h.totals.size(), 2u);
  EXPECT_EQ(h.totals.at("driver/p").iterations, 42);
  EXPECT_EQ(h.totals.at("driver/p").failures, 1);
  EXPECT_EQ(h.totals.at("shadow1/p").solve_seconds, 0.25);
  EXPECT_EQ(h.guard.checked, 6);
  EXPECT_EQ(h.guard.failed_in_a_row, 2);
  ASSERT_EQ(h.guard.reference.size(), 2u);
  EXPECT_EQ(h.guard.reference.at("residualdu").largest, 2.5);
  EXPECT_EQ(h.guard.reference.at("residualdu").first, 1);
  EXPECT_EQ(h.guard.reference.at("residualdu").last, 5);
  EXPECT_EQ(h.guard.reference.at("statemax |u|").last, 0);
  EXPECT_EQ(bytes_.substr(0, 16), "tb-checkpoint 4\n");
}

TEST_F(CheckpointTest, EveryFlippedByteIsRefused) {
  ASSERT_EQ(refusal(bytes_), "");
  for (std::size_t i = 0; i < bytes_.size(); ++i)
    for (unsigned char mask : {0x01, 0x80, 0xff}) {
      std::string damaged = bytes_;
      damaged[i] = char(damaged[i] ^ mask);
      const std::string e = refusal(damaged);
      ASSERT_NE(e.find("dir/checkpoint.bin: not a usable checkpoint: "), std::string::npos)
          << "byte " << i << " ^ " << int(mask) << ": " << e;
    }
  std::string damaged = bytes_;
  damaged[bytes_.size() / 2] ^= 0x10;
  EXPECT_NE(refusal(damaged).find("checksum mismatch"), std::string::npos) << refusal(damaged);
}

TEST_F(CheckpointTest, EveryTruncationAndAppendedByteIsRefused) {
  for (std::size_t n = 0; n < bytes_.size(); ++n)
    ASSERT_NE(refusal(bytes_.substr(0, n)), "") << "a checkpoint cut to " << n << " bytes was accepted";
  EXPECT_NE(refusal(bytes_ + "x"), "");
  EXPECT_NE(refusal(""), "");
}

// Counters no run has, written with a valid checksum (a forged checkpoint):
// each refused naming the file and the counter.
TEST_F(CheckpointTest, CountersNoRunHasAreRefused) {
  const auto refused_with = [&](CheckpointHeader h) {
    write_checkpoint(dir_, h, "physics state");
    return refusal(file_bytes(dir_ / "checkpoint.bin"));
  };
  for (double wall : {-1.0, std::nan(""), 1e300, std::numeric_limits<double>::infinity()}) {
    CheckpointHeader h = sample_header(0x1234);
    h.wall_seconds = wall;
    EXPECT_NE(refused_with(h).find("dir/checkpoint.bin: not a usable checkpoint: a wall time of "), std::string::npos)
        << wall;
  }
  CheckpointHeader h = sample_header(0x1234);
  h.totals["driver/p"].failures = 7;  // of 6 solves
  EXPECT_NE(refused_with(h).find("the totals of 'driver/p': 6 solves, 42 iterations, 7 failures"), std::string::npos);
  h = sample_header(0x1234);
  h.totals["driver/p"].iterations = -1;
  EXPECT_NE(refused_with(h).find("the totals of 'driver/p': 6 solves, -1 iterations"), std::string::npos);
  h = sample_header(0x1234);
  h.totals["driver/p"].solve_seconds = 1e6;  // in a run of 1.25 s
  EXPECT_NE(refused_with(h).find("s of solves in a run of 1.25 s"), std::string::npos) << refused_with(h);
  h = sample_header(0x1234);
  h.totals["driver/p"].at_limit = 6;  // with 1 failure, of 6 solves
  EXPECT_NE(refused_with(h).find("6 accepted at their limit"), std::string::npos);
}

// A guard's record no run of 6 steps leaves (step_guard.hpp): refused naming
// the file and what is wrong, like the totals above.
TEST_F(CheckpointTest, GuardRecordsNoRunHasAreRefused) {
  const auto refused_with = [&](CheckpointHeader h) {
    write_checkpoint(dir_, h, "physics state");
    return refusal(file_bytes(dir_ / "checkpoint.bin"));
  };
  for (const auto& [checked, failed] : {std::pair{5L, 0L}, {7L, 0L}, {6L, -1L}, {6L, 7L}}) {
    CheckpointHeader h = sample_header(0x1234);
    h.guard.checked = checked, h.guard.failed_in_a_row = failed;
    EXPECT_NE(refused_with(h).find(
                  "dir/checkpoint.bin: not a usable checkpoint: the step guard's record: " + std::to_string(checked) +
                  " steps checked, " + std::to_string(failed) + " failed in a row, at step 6"),
              std::string::npos)
        << refused_with(h);
  }
  for (const GuardRecord::Reference r : {GuardRecord::Reference{-1.0, 1, 5},
                                         {std::nan(""), 1, 5},
                                         {HUGE_VAL, 1, 5},
                                         {1.0, 0, 5},
                                         {1.0, 4, 3},
                                         {1.0, 2, 7},
                                         {1.0, 0, 0}}) {
    CheckpointHeader h = sample_header(0x1234);
    h.guard.reference["residualdu"] = r;
    EXPECT_NE(refused_with(h).find("the step guard's reference 'residualdu': "), std::string::npos)
        << r.largest << " " << r.first << "-" << r.last << ": " << refused_with(h);
  }
}

TEST_F(CheckpointTest, AnotherMiniappIsRefused) {
  EXPECT_NE(refusal(bytes_, "tb-other").find("written by tb-test, not tb-other"), std::string::npos)
      << refusal(bytes_, "tb-other");
}

TEST_F(CheckpointTest, AnotherBuildIsRefused) {
  // The version is the second string after the magic line: change its first character.
  std::string other = bytes_;
  const std::size_t at = 16 + 8 + std::string("tb-test").size() + 8;
  ASSERT_EQ(other.substr(at, build_commit().size()), build_commit());
  other[at] = other[at] == 'x' ? 'y' : 'x';
  reseal(other);
  const std::string e = refusal(other);
  EXPECT_NE(e.find("written by the build of commit " + other.substr(at, build_commit().size()) + ", this is " +
                   build_commit()),
            std::string::npos)
      << e;
}

TEST_F(CheckpointTest, TrailingPayloadIsRefusedEvenWithAValidChecksum) {
  std::string longer = bytes_;
  longer.insert(longer.size() - 8, "zz");
  reseal(longer);
  EXPECT_NE(refusal(longer).find("2 bytes after the physics state"), std::string::npos) << refusal(longer);
}

TEST_F(CheckpointTest, OldFormatsAreRefusedWithTheReason) {
  // Version 2 began with the length-prefixed text "tb-checkpoint 2".
  std::string v2(8, '\0');
  const std::uint64_t n = 15;
  std::memcpy(v2.data(), &n, 8);
  v2 += "tb-checkpoint 2";
  v2 += std::string(40, '\0');
  const std::string e = refusal(v2);
  EXPECT_NE(e.find("format version 2 has no checksum"), std::string::npos) << e;
  EXPECT_NE(refusal("garbage that is long enough to be a header").find("wrong header"), std::string::npos);
  std::string v3 = bytes_;
  v3[14] = '3';
  EXPECT_NE(refusal(v3).find("not a usable checkpoint: format version 3, an older build's"), std::string::npos)
      << refusal(v3);
}

TEST_F(CheckpointTest, AnotherCaseIsRefusedNamingTheFile) {
  CheckpointHeader h;
  try {
    read_checkpoint(dir_, "tb-test", 0x9999, h);
    FAIL() << "no error";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find((dir_ / "checkpoint.bin").string() + ": not a usable checkpoint: written for another case"),
              std::string::npos)
        << what;
    EXPECT_NE(what.find("run.steps, run.progress, run.output_every, run.checkpoint_every"), std::string::npos) << what;
  }
}

// A run decomposed over ranks writes one file per rank and restarts on its own
// rank count only; on another count the refusal names the count to use.
TEST_F(CheckpointTest, EachRankReadsItsOwnFileAndAnotherRankCountIsRefused) {
  EXPECT_EQ(checkpoint_file(), "checkpoint.bin");
  EXPECT_EQ(checkpoint_file(1, 3), "checkpoint-rank1-of-3.bin");
  for (int r = 0; r < 3; ++r) write_checkpoint(dir_, sample_header(0x1234), "rank " + std::to_string(r), r, 3);
  CheckpointHeader h;
  EXPECT_EQ(read_checkpoint(dir_, "tb-test", 0x1234, h, 2, 3), "rank 2");
  fs::remove(dir_ / "checkpoint.bin");
  for (int ranks : {1, 2, 4}) {
    try {
      read_checkpoint(dir_, "tb-test", 0x1234, h, 0, ranks);
      FAIL() << ranks << " ranks: no error";
    } catch (const Error& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find(": no checkpoint for a run on " + std::to_string(ranks) + " rank"), std::string::npos)
          << what;
      EXPECT_NE(
          what.find("holds the checkpoint of a run on 3, whose partition it keeps: restart it on 3 (mpiexec -n 3)"),
          std::string::npos)
          << what;
    }
  }
}

TEST(CaseDigest, OnlyTheRestartFreeKeysMayChange) {
  const CaseSchema schema = small_schema();
  const CaseConfig base(schema);
  const std::uint64_t d = case_digest(base);
  CaseConfig free_changes(schema);
  free_changes.set("run.steps", "999");
  free_changes.set("run.progress", "false");
  free_changes.set("run.output_every", "5");
  free_changes.set("run.checkpoint_every", "7");
  EXPECT_EQ(case_digest(free_changes), d);
  for (const auto& [key, value] : std::vector<std::pair<std::string, std::string>>{{"physics.nu", "0.02"},
                                                                                   {"solver.p", "gmres+jacobi"},
                                                                                   {"run.checksums", "true"},
                                                                                   {"run.max_failed_steps", "4"}}) {
    CaseConfig changed(schema);
    changed.set(key, value);
    EXPECT_NE(case_digest(changed), d) << key;
  }
}

// --restart reads the case back from the case.toml the run wrote: the digest
// must not see the difference between "0" and 0.0, or "1e+06" and 1000000.0.
TEST(CaseDigest, SurvivesTheRoundTripThroughCaseToml) {
  const CaseSchema schema = small_schema();
  CaseConfig written(schema);
  written.set("physics.nu", "1e-2");
  written.set("run.max_growth", "1e6");
  const fs::path dir = test::fresh_dir("tb-checkpoint", "roundtrip");
  fs::create_directories(dir);
  std::ofstream(dir / "case.toml") << written.to_toml();
  CaseConfig read_back(schema);
  read_back.load_toml((dir / "case.toml").string());
  EXPECT_EQ(case_digest(read_back), case_digest(written));
  read_back.set("physics.nu", "0.010000001");
  EXPECT_NE(case_digest(read_back), case_digest(written));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace tb
