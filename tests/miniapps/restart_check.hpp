#pragma once
// The bitwise-restart check the miniapps share: a run of `steps` steps, and the
// same run stopped after step 7 (checkpoints every 3 steps and at its last)
// and resumed with --restart; the resumed state and figures must equal the
// uninterrupted run's bit for bit. Both write fields every 7 steps: the
// stopped run's last output is in the series its checkpoint carries on.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <sstream>
#include <string>

#include "miniapps/common/time_loop.hpp"
#include "run_files.hpp"

namespace tb::test {

inline std::string state_bytes(const harness::Simulation& sim) {
  std::ostringstream out;
  sim.save_state(out);
  return out.str();
}

// Sim: a Simulation built from the config with a flow().steps() count;
// settings(dir, steps) gives the loop settings of a run into dir.
template <class Sim, class Settings>
void expect_restart_bitwise(const harness::CaseConfig& config, long steps, const std::string& app, Settings settings) {
  const std::filesystem::path whole = fresh_dir(app, "whole"), split = fresh_dir(app, "split");
  Sim a(config);
  harness::LoopSettings w = settings(whole, steps);
  w.output_every = 7;
  harness::run_time_loop(a, config, w);
  harness::LoopSettings s = settings(split, 7);
  s.output_every = 7;
  s.checkpoint_every = 3;
  Sim b1(config);
  harness::run_time_loop(b1, config, s);  // stops after step 7, its last checkpoint's
  s.steps = steps;
  s.restart = true;
  Sim b2(config);
  const harness::RunResult r = harness::run_time_loop(b2, config, s);
  EXPECT_EQ(r.last_step, steps);
  EXPECT_EQ(b2.flow().steps(), steps);
  const std::string sa = state_bytes(a), sb = state_bytes(b2);
  ASSERT_EQ(sa.size(), sb.size());
  EXPECT_TRUE(sa == sb) << "restarted state differs from the uninterrupted one";
  EXPECT_EQ(a.figures_of_merit(), b2.figures_of_merit());
  std::filesystem::remove_all(whole);
  std::filesystem::remove_all(split);
}

}  // namespace tb::test
