// tb-comp2d through the harness: a run interrupted after a checkpoint and
// resumed reproduces the uninterrupted run bit for bit (across the switch from
// the first-order start to second order), the files it writes (wall CSV with
// one row per wall face, .pvd naming the .vtu), and an ordering that changes
// the matrix but not the converged flow.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>

#include "comp2d_config.hpp"
#include "mesh/io/vtu_writer.hpp"
#include "miniapp_descriptions.hpp"
#include "miniapps/common/time_loop.hpp"
#include "miniapps/compressible/comp_case.hpp"
#include "miniapps/compressible/comp_simulation.hpp"
#include "refused_run.hpp"
#include "run_files.hpp"

namespace tb {
namespace {

namespace fs = std::filesystem;
using namespace harness;
using compressible::CompressibleSimulation;

fs::path fresh_dir(const std::string& name) { return test::fresh_dir("tb-comp2d", name); }

CaseConfig comp_config() { return test::comp2d_config(); }

// The mesh the schedules below were set on: unstructured up to the wall, where
// the paper's system stalls.
void on_the_unlayered_mesh(CaseConfig& c) {
  c.set("mesh.file", std::string(TB_SOURCE_DIR) + "/inputs/meshes/cylinder_coarse.msh");
}

// The paper's system in the mesh's own order, with Eq. 3 alone: the runs
// below place the order switch and compare orderings on this schedule.
CaseConfig paper_config() {
  CaseConfig c = comp_config();
  on_the_unlayered_mesh(c);
  c.set("jacobian.form", "first_order");
  c.set("mesh.ordering", "none");
  c.set("cfl.growth", "1");
  return c;
}

// The cylinder case file's discretisation and ramp on the built-in mesh, with
// the paper's system until its first stall, then matrix-free: the runs below
// cross that switch.
CaseConfig stalling_cylinder_config() {
  CaseConfig c = comp_config();
  on_the_unlayered_mesh(c);
  c.set("mesh.ordering", "rcm");
  c.set("boundary.wall_flux", "pressure");
  c.set("scheme.boundary_gradients", "interior");
  c.set("scheme.entropy_fix", "acoustic");
  c.set("cfl.second_order", "100");
  c.set("jacobian.form", "first_order_then_matrix_free");
  c.set("cfl.growth", "1.5");
  return c;
}

LoopSettings settings(const fs::path& out, long steps, const CaseConfig& c) {
  // The default async_bilu is not bitwise reproducible on several threads (its
  // asynchronous sweeps race by design); bitwise restart needs a deterministic solver.
  (void)c;
  return test::quiet_settings("tb-comp2d", out, steps, {{"flow", "fgmres(restart=30,rtol=1e-1,maxit=60)+bilu0"}});
}

std::string state_bytes(const CompressibleSimulation& sim) {
  std::ostringstream out;
  sim.save_state(out);
  return out.str();
}

// `config` run for `stopped_after` steps into `dir` with a checkpoint every
// `checkpoint_every` steps and at its last, then resumed from that one to
// `steps`: the resumed simulation, to compare with an uninterrupted run that
// writes fields every `stopped_after` steps, as this one does.
std::unique_ptr<CompressibleSimulation> interrupted_and_resumed(const CaseConfig& config, const fs::path& dir,
                                                                long steps, long stopped_after, long checkpoint_every,
                                                                const std::map<std::string, std::string>& solver) {
  LoopSettings s = test::quiet_settings("tb-comp2d", dir, stopped_after, solver);
  s.checkpoint_every = checkpoint_every;
  s.output_every = stopped_after;
  CompressibleSimulation stopped(config);
  run_time_loop(stopped, config, s);
  s.steps = steps;
  s.restart = true;
  auto resumed = std::make_unique<CompressibleSimulation>(config);
  EXPECT_EQ(run_time_loop(*resumed, config, s).last_step, steps);
  return resumed;
}

// The NACA 0012 case file resumed from its checkpoint of step 20, after its
// forces' settling estimate became finite, runs to its steady state: the
// estimate is unbounded again at later steps (a change of Cl or Cd no
// smaller than the one before it), which the growth bound, set on the
// resumed run's first steps, does not take for a blow-up.
TEST(Comp2dHarness, TheNacaCaseResumedOnceItsForcesBeganToSettleRunsToItsSteadyState) {
  const fs::path out = fresh_dir("naca-resumed");
  const std::string source = TB_SOURCE_DIR;
  const test::CapturedRun first = test::run_captured(
      test::comp_app(), {source + "/inputs/compressible/naca0012_laminar.toml", "--set",
                         "mesh.file=" + source + "/inputs/meshes/naca0012_wake.su2", "--set", "run.checkpoint_every=20",
                         "--steps", "20", "--set", "run.progress=false", "--out", out.string()});
  ASSERT_EQ(first.status, 0) << first.error;
  const test::CapturedRun resumed =
      test::run_captured(test::comp_app(), {"--restart", out.string(), "--steps", "1000"});
  EXPECT_EQ(resumed.status, 0) << resumed.error;
  EXPECT_NE((resumed.output + resumed.error).find("steady state reached"), std::string::npos) << resumed.output;
  const auto rows = test::read_csv(out / "steps.csv");
  const auto column = std::find(rows[0].begin(), rows[0].end(), "res:forces_unsettled") - rows[0].begin();
  bool finite_by_20 = false, unbounded_after = false;
  for (std::size_t i = 1; i < rows.size(); ++i) {
    const bool unbounded = rows[i][std::size_t(column)] == "1e+300";
    finite_by_20 = finite_by_20 || (i <= 20 && !unbounded);
    unbounded_after = unbounded_after || (i > 22 && unbounded);
  }
  EXPECT_TRUE(finite_by_20 && unbounded_after) << "the estimate must settle before the checkpoint and be unbounded "
                                                  "after it for this test to mean anything";
  fs::remove_all(out);
}

// The scheme's keys reach the discretisation: the defaults are tb-comp2d's
// (node stencils on triangles, Harten's fraction 0.1, no low-Mach fix), and --set
// changes them.
TEST(Comp2dHarness, SchemeKeysReachTheDiscretisation) {
  CaseConfig config = comp_config();
  compressible::EulerSettings s = compressible::make_euler_settings(config);
  EXPECT_EQ(s.gradient_stencil, compressible::GradientStencil::TriangleNodes);
  EXPECT_EQ(s.roe.fraction, 0.1);
  config.set("scheme.gradient_stencil", "faces");
  config.set("scheme.entropy_fix_fraction", "0.3");
  s = compressible::make_euler_settings(config);
  EXPECT_EQ(s.gradient_stencil, compressible::GradientStencil::Faces);
  EXPECT_EQ(s.roe.fraction, 0.3);
  EXPECT_THROW(config.set("scheme.entropy_fix_fraction", "-0.1"), Error);
  EXPECT_THROW(config.set("scheme.gradient_stencil", "edges"), Error);
  // The low-Mach fix is off by default; on, its floor is the cutoff times the free-stream Mach.
  EXPECT_EQ(s.roe.low_mach_floor, 1.0);
  config.set("flow.mach", "0.4");
  config.set("scheme.low_mach_fix", "rieper");
  EXPECT_DOUBLE_EQ(compressible::make_euler_settings(config).roe.low_mach_floor, 0.2);
  config.set("scheme.low_mach_cutoff", "0.25");
  EXPECT_DOUBLE_EQ(compressible::make_euler_settings(config).roe.low_mach_floor, 0.1);
  EXPECT_THROW(config.set("scheme.low_mach_cutoff", "0"), Error);
  EXPECT_THROW(config.set("scheme.low_mach_fix", "turkel"), Error);
  config.set("scheme.flux", "hllc");  // the fix is Roe's
  EXPECT_THROW(compressible::make_euler_settings(config), Error);
}

// The start-up line names what the defaults that follow jacobian.form chose:
// growth 1.5 and RCM order for the matrix-free default, Eq. 3 alone and the
// file's order for the paper's system.
TEST(Comp2dHarness, TheSchemeLineNamesWhatTheFormChose) {
  const CaseConfig mf = comp_config();
  CaseConfig paper = comp_config();
  paper.set("jacobian.form", "first_order");
  EXPECT_EQ(CompressibleSimulation(mf).scheme(),
            "matrix-free Eq. 1 (outer FGMRES to 0.1, at most 40 solves of the first-order system a step); CFL 500 "
            "to 10000 (x1.5 after a healthy step); cells in rcm order");
  EXPECT_EQ(CompressibleSimulation(paper).scheme(),
            "Eq. 1 with the paper's first-order Jacobian; CFL 500 to 10000 (Eq. 3); cells in the file's order");
  EXPECT_EQ(compressible::make_pseudo_time_settings(mf).cfl_growth, 1.5);
  EXPECT_EQ(compressible::make_pseudo_time_settings(paper).cfl_growth, 1.0);
  paper.set("jacobian.form", "first_order_then_matrix_free");
  EXPECT_EQ(CompressibleSimulation(paper).scheme(),
            "Eq. 1 with the paper's first-order Jacobian, matrix-free (outer FGMRES to 0.1, at most 40 solves) from "
            "the first stall in order 2; CFL 500 to 10000 (Eq. 3); cells in the file's order");
}

// run.backend = cuda: the line says where the pseudo-time loop runs (the
// device is opened at the first step, not here).
TEST(Comp2dHarness, TheSchemeLineSaysWhereTheStepRuns) {
  CaseConfig gpu = comp_config(), exact = comp_config();
  gpu.set("run.backend", "cuda");
  exact.set("run.backend", "cuda");
  exact.set("jacobian.form", "exact");
  const std::string on_device = CompressibleSimulation(gpu).scheme(),
                    exact_on_device = CompressibleSimulation(exact).scheme();
  EXPECT_NE(on_device.find("; residual, Jacobian and update on the device"), std::string::npos) << on_device;
  EXPECT_NE(exact_on_device.find("exact Jacobian"), std::string::npos) << exact_on_device;
  EXPECT_NE(exact_on_device.find("; residual, Jacobian and update on the device"), std::string::npos)
      << exact_on_device;
  EXPECT_EQ(CompressibleSimulation(comp_config()).scheme().find("device"), std::string::npos);
}

// A run that a stall moved from the paper's system to the matrix-free form
// resumes on the matrix-free form, bit for bit, from a checkpoint written
// after the switch; the case file's cylinder with the paper's system and its
// ramp stalls at step 14 (test_cylinder.cpp).
TEST(Comp2dHarness, ResumesBitwiseAfterAStallMovedTheRunToTheMatrixFreeForm) {
  CaseConfig config = stalling_cylinder_config();
  const fs::path whole = fresh_dir("stall-whole"), split = fresh_dir("stall-split");
  const std::map<std::string, std::string> solver{{"flow", compressible::default_flow_solver}};
  CompressibleSimulation a(config);
  LoopSettings w = test::quiet_settings("tb-comp2d", whole, 21, solver);
  w.output_every = 19;
  run_time_loop(a, config, w);
  const auto rows = test::read_csv(whole / "steps.csv");
  const auto cut = std::find(rows[0].begin(), rows[0].end(), "res:cfl_cut") - rows[0].begin();
  ASSERT_EQ(rows.size(), 22u);
  ASSERT_EQ(rows[14][std::size_t(cut)], "4")
      << "the switch must come before the checkpoint for this test to mean anything";
  // The checkpoint of step 19, after the switch at step 14.
  EXPECT_TRUE(state_bytes(a) == state_bytes(*interrupted_and_resumed(config, split, 21, 19, 18, solver)))
      << "restarted state differs from the uninterrupted one";
  // Resumed with the paper's system alone, the run cannot go on as it was: refused.
  config.set("jacobian.form", "first_order");
  CompressibleSimulation refused(config);
  LoopSettings s = test::quiet_settings("tb-comp2d", split, 21, solver);
  s.restart = true;
  EXPECT_THROW(run_time_loop(refused, config, s), Error);
  fs::remove_all(whole);
  fs::remove_all(split);
}

// jacobian.matrix_free_inner_maxit caps the solves that precondition the
// matrix-free outer iteration, and only those: with the paper's system to
// 60 iterations the case file's cylinder switches at step 24 (29-30
// iterations a solve before it); capped at 5, every later solve stops at 5,
// where without the cap they take 23-45 on average a step.
TEST(Comp2dHarness, InnerSolvesAfterTheSwitchStopAtTheirCap) {
  CaseConfig config = stalling_cylinder_config();
  const std::map<std::string, std::string> solver{{"flow", "fgmres(restart=30,rtol=1e-1,maxit=60)+bilu0"}};
  int most_per_solve[2][2] = {};  // [capped][after the switch]: the most iterations a solve took on a step
  for (const int capped : {0, 1}) {
    config.set("jacobian.matrix_free_inner_maxit", capped ? "5" : "0");
    const fs::path out = fresh_dir(capped ? "inner-capped" : "inner-free");
    CompressibleSimulation sim(config);
    EXPECT_NE(sim.scheme().find(capped ? "40 solves of at most 5 iterations)" : "40 solves)"), std::string::npos)
        << sim.scheme();
    run_time_loop(sim, config, test::quiet_settings("tb-comp2d", out, 27, solver));
    const auto rows = test::read_csv(out / "steps.csv");
    const auto column = [&](const char* name) {
      return std::size_t(std::find(rows[0].begin(), rows[0].end(), name) - rows[0].begin());
    };
    const std::size_t cut = column("res:cfl_cut"), solves = column("flow:solves"), its = column("flow:iterations");
    ASSERT_EQ(rows.size(), 28u);
    ASSERT_EQ(rows[24][cut], "4") << "the switch must come before the last steps for this test to mean anything";
    for (std::size_t step = 1; step < rows.size(); ++step) {
      // Steps of one solve or of several: the step's most a solve took is at least its mean.
      const int n = std::stoi(rows[step][solves]), sum = std::stoi(rows[step][its]);
      const int per_solve = n > 0 ? (sum + n - 1) / n : 0;
      int& most = most_per_solve[capped][step > 24];
      most = std::max(most, per_solve);
      if (capped && step > 24) {
        EXPECT_EQ(sum, 5 * n) << "step " << step << ": " << n << " solves, " << sum;
      }
    }
    fs::remove_all(out);
  }
  EXPECT_GT(most_per_solve[0][1], 5) << "without the cap the inner solves take more";
  EXPECT_GT(most_per_solve[1][0], 5) << "the cap holds only after the switch";
  EXPECT_EQ(most_per_solve[1][1], 5);
}

TEST(Comp2dHarness, ResumesBitwiseAcrossTheOrderSwitch) {
  CaseConfig config = paper_config();
  // A slow first-order start (CFL 20, not 500, raised by Eq. 3 alone) puts the
  // order switch at step 6, after the checkpoint of step 5, the stopped run's
  // last. Both runs write fields every 5 steps (interrupted_and_resumed).
  config.set("cfl.start", "20");
  config.set("cfl.growth", "1");
  const fs::path whole = fresh_dir("whole"), split = fresh_dir("split");
  CompressibleSimulation a(config);
  LoopSettings w = settings(whole, 20, config);
  w.output_every = 5;
  run_time_loop(a, config, w);
  ASSERT_EQ(a.solver().order(), 2) << "the run must cross the switch for this test to mean anything";

  LoopSettings s = settings(split, 5, config);
  s.checkpoint_every = 3;
  s.output_every = 5;
  CompressibleSimulation b1(config);
  run_time_loop(b1, config, s);  // stops after step 5 (order 1; the switch is at step 6)
  ASSERT_EQ(b1.solver().order(), 1);
  s.steps = 20;
  s.restart = true;
  CompressibleSimulation b2(config);
  const RunResult r = run_time_loop(b2, config, s);
  EXPECT_EQ(r.last_step, 20);
  EXPECT_EQ(b2.solver().steps(), 20);
  EXPECT_TRUE(state_bytes(a) == state_bytes(b2)) << "restarted state differs from the uninterrupted one";
  EXPECT_EQ(a.figures_of_merit(), b2.figures_of_merit());

  // wall.csv: a header and one row per cylinder face.
  std::ifstream wall(whole / "wall.csv");
  std::string line;
  int rows = -1;
  while (std::getline(wall, line)) ++rows;
  EXPECT_EQ(rows, 64);
  if (vtu_writer_available()) {
    std::ifstream pvd(whole / "flow.pvd");
    std::stringstream text;
    text << pvd.rdbuf();
    EXPECT_NE(text.str().find("fields/flow_000020.vtu"), std::string::npos);
    EXPECT_TRUE(fs::exists(whole / "fields" / "flow_000020.vtu"));
  }
  fs::remove_all(whole);
  fs::remove_all(split);
}

// The built-in case as it is (matrix-free steps, each several solves of the
// first-order system) resumes bit for bit too: the outer iteration keeps no
// state across steps that the checkpoint would miss.
TEST(Comp2dHarness, ResumesTheMatrixFreeDefaultBitwise) {
  const CaseConfig config = comp_config();
  ASSERT_EQ(config.text("jacobian.form"), "matrix_free");
  const fs::path whole = fresh_dir("mf-whole"), split = fresh_dir("mf-split");
  const std::map<std::string, std::string> solver{{"flow", compressible::default_flow_solver}};
  CompressibleSimulation a(config);
  LoopSettings w = test::quiet_settings("tb-comp2d", whole, 8, solver);
  w.output_every = 5;
  run_time_loop(a, config, w);
  const auto b = interrupted_and_resumed(config, split, 8, 5, 3, solver);
  EXPECT_GT(b->solver().cfl(), 1000.0) << "the ramp must be under way for this test to mean anything";
  EXPECT_TRUE(state_bytes(a) == state_bytes(*b)) << "restarted state differs from the uninterrupted one";
  fs::remove_all(whole);
  fs::remove_all(split);
}

TEST(Comp2dHarness, AnOrderingPermutesTheCellsNotTheFlow) {
  CaseConfig natural = paper_config(), rcm = paper_config();
  natural.set("scheme.order", "1");
  rcm.set("scheme.order", "1");
  rcm.set("mesh.ordering", "rcm");
  CompressibleSimulation a(natural), b(rcm);
  const fs::path da = fresh_dir("natural"), db = fresh_dir("rcm");
  run_time_loop(a, natural, settings(da, 400, natural));
  run_time_loop(b, rcm, settings(db, 400, rcm));
  ASSERT_TRUE(a.solver().converged());
  ASSERT_TRUE(b.solver().converged());
  const BsrMatrix& pa = a.discretisation().pattern().matrix;
  const BsrMatrix& pb = b.discretisation().pattern().matrix;
  EXPECT_EQ(pa.nnz_blocks(), pb.nnz_blocks());
  EXPECT_FALSE(pa.same_pattern(pb));
  // The same discrete problem: forces agree to the nonlinear tolerance.
  const auto fa = a.figures_of_merit(), fb = b.figures_of_merit();
  EXPECT_NEAR(fa[1].second, fb[1].second, 1e-4 * std::abs(fa[1].second));  // cd
  fs::remove_all(da);
  fs::remove_all(db);
}

// The autopilot's progress (progress=on) asks the physics how far each
// candidate's update would carry the iteration, by one residual evaluation of
// a trial state (PseudoTimeSolver::trial_reduction). That must leave the step
// alone: with two copies of one solver as the candidates, the run is the
// solver's alone, bit for bit, across the order switch. And it must be the
// figure the step then sees: the in-charge update's factor is the residual
// after the step over the one before it (steps.csv, 10 digits).
TEST(Comp2dHarness, ProgressProbesLeaveTheStepAloneAndMeasureItsResidualFactor) {
  CaseConfig config = paper_config();  // matrix-free steps have no single update to weigh
  config.set("cfl.start", "20");       // the order switch at step 6, as above
  config.set("cfl.growth", "1");
  const std::string f = "fgmres(restart=30,rtol=1e-1,maxit=60)+bilu0";
  const fs::path alone_dir = fresh_dir("alone"), pilot_dir = fresh_dir("pilot");
  CompressibleSimulation alone(config), pilot(config);
  run_time_loop(alone, config, settings(alone_dir, 12, config));
  LoopSettings s =
      test::quiet_settings("tb-comp2d", pilot_dir, 12,
                           {{"flow", "autopilot(candidates=[" + f + "; " + f +
                                         "], every=2, backoff=1, budget=1, mode=deterministic, progress=on)"}});
  const RunResult r = run_time_loop(pilot, config, s);
  ASSERT_EQ(pilot.solver().order(), 2);
  EXPECT_TRUE(state_bytes(alone) == state_bytes(pilot)) << "the progress probes changed the trajectory";

  const auto rows = test::read_csv(pilot_dir / "steps.csv");
  ASSERT_EQ(rows.size(), 13u);
  auto column = [&](const std::string& name) {
    return std::size_t(std::find(rows[0].begin(), rows[0].end(), name) - rows[0].begin());
  };
  auto total = [&](long step) {
    double sum = 0.0;
    for (const char* eq : {"res:rho", "res:rho_u", "res:rho_v", "res:rho_E"}) {
      const double v = std::stod(rows[std::size_t(step)][column(eq)]);
      sum += v * v;
    }
    return std::sqrt(sum);
  };
  const std::size_t order = column("res:order");
  ASSERT_EQ(r.autopilots.size(), 1u);
  int checked = 0;
  const std::size_t in_charge = column("flow:in_charge");
  std::map<long, std::map<int, double>> progress;  // step -> candidate -> its update's factor
  for (const systems::AutopilotProbe& p : r.autopilots[0].probes) {
    if (p.cut) continue;  // stopped early: no update to ask about
    ASSERT_FALSE(std::isnan(p.progress)) << "step " << p.step;
    progress[p.step][p.candidate] = p.progress;
  }
  for (const auto& [step, by] : progress) {
    // The two copies solve the same system the same way: the same factor.
    if (by.size() == 2) {
      EXPECT_EQ(by.begin()->second, by.rbegin()->second) << "step " << step;
    }
    // Steps after the first and not just after the switch have the residual before them in steps.csv.
    const auto& row = rows[std::size_t(step)];
    const auto mine = by.find(std::stoi(row[in_charge]) - 1);
    if (mine == by.end() || step < 2 || row[order] != rows[std::size_t(step - 1)][order]) continue;
    EXPECT_NEAR(mine->second, total(step) / total(step - 1), 1e-8 * mine->second) << "step " << step;
    ++checked;
  }
  EXPECT_GE(checked, 3);
  fs::remove_all(alone_dir);
  fs::remove_all(pilot_dir);
}

// The .vtu's line_id shows the lines the line orderings keep together: under
// line-1wd every line's cells are consecutive, and the lines are the file's.
TEST(Comp2dHarness, LineIdsFollowTheLineOrdering) {
  CaseConfig plain = paper_config(), lined = paper_config();
  for (CaseConfig* c : {&plain, &lined})
    c->set("mesh.file", std::string(TB_SOURCE_DIR) + "/inputs/meshes/naca0012_coarse.su2");
  lined.set("mesh.ordering", "line-1wd");
  const compressible::OrderedMesh a = compressible::load_ordered_mesh(plain);
  const compressible::OrderedMesh b = compressible::load_ordered_mesh(lined);
  ASSERT_EQ(b.line_id.size(), std::size_t(b.mesh.num_cells()));
  std::map<index_t, std::pair<index_t, index_t>> range;  // line -> first, last new index
  std::map<index_t, index_t> size;
  for (index_t c = 0; c < b.mesh.num_cells(); ++c) {
    const index_t l = b.line_id[std::size_t(c)];
    EXPECT_EQ(l, a.line_id[std::size_t(b.ordering.new_to_old[std::size_t(c)])]) << "cell " << c;
    if (l < 0) continue;
    auto [it, fresh] = range.try_emplace(l, c, c);
    it->second.second = c;
    ++size[l];
  }
  EXPECT_EQ(range.size(), 160u);  // docs/compressible.md: 160 lines of 7 to 16 cells
  for (const auto& [l, r] : range) EXPECT_EQ(r.second - r.first + 1, size[l]) << "line " << l << " is split";
}

// A uniform stream along a straight channel of slip walls is the exact
// steady solution of the discrete equations: its residual is zero from the
// start, which is convergence (a drop of 0), not a non-finite drop, in every
// form of the Jacobian.
TEST(Comp2dHarness, AStartThatIsAlreadyTheSteadyStateIsConverged) {
  const fs::path dir = fresh_dir("channel");
  fs::create_directories(dir);
  const int nx = 12, ny = 4;
  std::ostringstream su2;  // quadrilaterals on [0, 3] x [0, 1], walls below and above, far field at the ends
  su2 << "NDIME= 2\nNELEM= " << nx * ny << "\n";
  const auto node = [&](int i, int j) { return j * (nx + 1) + i; };
  for (int j = 0, k = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i, ++k)
      su2 << "9 " << node(i, j) << " " << node(i + 1, j) << " " << node(i + 1, j + 1) << " " << node(i, j + 1) << " "
          << k << "\n";
  su2 << "NPOIN= " << (nx + 1) * (ny + 1) << "\n";
  for (int j = 0; j <= ny; ++j)
    for (int i = 0; i <= nx; ++i) su2 << 3.0 * i / nx << " " << double(j) / ny << " " << node(i, j) << "\n";
  su2 << "NMARK= 2\nMARKER_TAG= wall\nMARKER_ELEMS= " << 2 * nx << "\n";
  for (int i = 0; i < nx; ++i) su2 << "3 " << node(i, 0) << " " << node(i + 1, 0) << "\n";
  for (int i = 0; i < nx; ++i) su2 << "3 " << node(i + 1, ny) << " " << node(i, ny) << "\n";
  su2 << "MARKER_TAG= farfield\nMARKER_ELEMS= " << 2 * ny << "\n";
  for (int j = 0; j < ny; ++j) su2 << "3 " << node(0, j + 1) << " " << node(0, j) << "\n";
  for (int j = 0; j < ny; ++j) su2 << "3 " << node(nx, j) << " " << node(nx, j + 1) << "\n";
  std::ofstream(dir / "channel.su2") << su2.str();
  for (const char* form : {"matrix_free", "first_order", "exact"}) {
    CaseConfig c = comp_config();
    c.set("mesh.file", (dir / "channel.su2").string());
    c.set("boundary.wall", "wall");
    c.set("jacobian.form", form);
    CompressibleSimulation sim(c);
    const RunResult r =
        run_time_loop(sim, c, test::quiet_settings("tb-comp2d", dir / form, 5, {{"flow", c.text("solver.flow")}}));
    EXPECT_TRUE(r.stop_reason.empty()) << form << ": " << r.stop_reason;
    EXPECT_TRUE(r.steady) << form;
    EXPECT_EQ(r.last_step, 1) << form;
    ASSERT_FALSE(r.last_residuals.empty());
    EXPECT_EQ(r.last_residuals.front(), (std::pair<std::string, double>{"energy_drop", 0.0})) << form;
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace tb
