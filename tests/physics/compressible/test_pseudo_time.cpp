// The pseudo-time solver's control: a non-physical update is undone and redone
// with the CFL number cut, the relaxation bounds relative changes, the CFL ramp
// follows Eq. 3, a first-order start hands over to second order after one order
// of residual drop, a Jacobian is reused only at a fixed CFL after healthy
// steps, and save/load continues bit for bit (a reused Jacobian included).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "compressible_fixtures.hpp"
#include "steady_runs.hpp"

namespace tb::test {
namespace {

// A stand-in "solver" that returns no update and runs nothing (reason
// not_run): the residual stays where it is.
SolveStats nothing(const BsrMatrix&, std::span<const double>, std::span<double> x) {
  std::fill(x.begin(), x.end(), 0.0);
  return SolveStats{};
}

struct Case {
  Mesh2D mesh = cylinder_mesh();
  EulerDiscretisation disc{mesh, cylinder_boundaries(mesh), settings_at(0.38, 0.0)};
  std::vector<State> free_stream() const {
    return std::vector<State>(std::size_t(mesh.num_cells()), disc.settings().free_stream);
  }
};

TEST(PseudoTime, ANonPhysicalUpdateIsRedoneWithASmallerCfl) {
  Case c;
  PseudoTimeSettings s;
  s.max_change = 1e9;  // no relaxation: the bad update reaches the state
  PseudoTimeSolver solver(c.disc, c.free_stream(), s);
  JacobianSolver linear("fgmres(restart=30,rtol=1e-1,maxit=60)+bilu0");
  const LinearSolve real = linear.function();
  std::vector<double> shifts;  // the diagonal of the first block row, per attempt
  int calls = 0;
  const LinearSolve solve = [&](const BsrMatrix& a, std::span<const double> b, std::span<double> x) {
    shifts.push_back(a.block(a.find_block(0, 0))[0]);
    if (calls++ == 0) {  // a first "solution" that empties cell 5 and a NaN elsewhere
      std::fill(x.begin(), x.end(), 0.0);
      x[5 * 4] = -2.0;
      x[9 * 4 + 3] = std::nan("");
      return SolveStats{};
    }
    return real(a, b, x);
  };
  const PseudoStepReport r = step(solver, solve);
  EXPECT_EQ(r.retries, 1);
  EXPECT_EQ(calls, 2);
  EXPECT_DOUBLE_EQ(r.cfl, 0.1 * s.cfl_start);
  ASSERT_EQ(shifts.size(), 2u);
  EXPECT_GT(shifts[1], shifts[0]);  // V/dtau grew tenfold
  for (const State& w : solver.state()) ASSERT_TRUE(c.disc.settings().gas.admissible(w));
}

TEST(PseudoTime, GivesUpWithAClearErrorWhenNoCflHelps) {
  Case c;
  PseudoTimeSettings s;
  s.max_retries = 3;
  PseudoTimeSolver solver(c.disc, c.free_stream(), s);
  const LinearSolve nan_solve = [](const BsrMatrix&, std::span<const double>, std::span<double> x) {
    std::fill(x.begin(), x.end(), std::nan(""));
    return SolveStats{};
  };
  try {
    step(solver, nan_solve);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("still non-physical after 3 CFL reductions"), std::string::npos) << e.what();
  }
}

TEST(PseudoTime, RelaxationBoundsTheRelativeDensityChange) {
  Case c;
  PseudoTimeSettings s;
  s.max_change = 0.05;
  s.cfl_min = 1e4;
  PseudoTimeSolver solver(c.disc, c.free_stream(), s);
  JacobianSolver linear("fgmres(restart=30,rtol=1e-1,maxit=60)+bilu0");
  const std::vector<State> before = solver.state();
  const PseudoStepReport r = step(solver, linear.function());
  EXPECT_LT(r.omega, 1.0);
  double worst = 0.0;
  for (std::size_t i = 0; i < before.size(); ++i)
    worst = std::max(worst, std::abs(solver.state()[i][0] - before[i][0]) / before[i][0]);
  EXPECT_LE(worst, 0.05 * (1.0 + 1e-12));
}

TEST(PseudoTime, CflFollowsEquation3AndOrderSwitchesAfterOneOrder) {
  Case c;
  PseudoTimeSettings settings;
  settings.cfl_growth = 1.5;  // tb-comp2d's default
  PseudoTimeSolver solver(c.disc, c.free_stream(), settings);
  EXPECT_EQ(solver.cfl(), 500.0);  // cfl_start
  JacobianSolver linear("fgmres(restart=30,rtol=1e-1,maxit=60)+bilu0");
  const LinearSolve solve = linear.function();
  double norm = std::sqrt([&] {
    double s = 0.0;
    for (double x : residual_norms(solver.residual())) s += x * x;
    return s;
  }());
  bool switched = false;
  int relaxed = 0;
  for (int n = 0; n < 60 && !switched; ++n) {
    const double cfl = solver.cfl();
    const PseudoStepReport r = step(solver, solve);
    if (solver.order() == 2) {
      switched = true;
      EXPECT_LE(r.energy_drop, 0.1);
      EXPECT_EQ(solver.cfl(), solver.settings().cfl_second_order);
      break;
    }
    double next = 0.0;
    for (double x : r.residual_norms) next += x * x;
    next = std::sqrt(next);
    const double ratio = norm / next;
    // Eq. 3, except that a relaxed step (omega < 1) does not raise the CFL, and
    // a healthy one raises it by at least cfl_growth = 1.5.
    double factor = std::pow(ratio, ratio > 1.0 ? 0.25 : 0.3);
    if (r.omega < 1.0) factor = std::min(factor, 1.0), ++relaxed;
    if (r.omega < 0.1) factor = std::min(factor, std::max(r.omega / 0.1, 0.1));
    if (r.omega >= 1.0 && r.safeguard == CflSafeguard::none && next < 1.1 * norm) factor = std::max(factor, 1.5);
    const double expected = std::clamp(cfl * factor, 20.0, 1e4);
    EXPECT_NEAR(solver.cfl(), expected, 1e-12 * expected) << "step " << n + 1;
    norm = next;
  }
  EXPECT_TRUE(switched);
  EXPECT_GE(relaxed, 1);  // the first step from the free stream at CFL 500 is relaxed
}

TEST(PseudoTime, AStalledResidualHalvesTheCflAfterStallSteps) {
  // A "solver" that returns no update: the residual stays where it is, Eq. 3's
  // ratio is 1 and would keep the CFL for ever; the stall safeguard halves it
  // every stall_steps steps, down to cfl_min.
  Case c;
  PseudoTimeSettings s;
  s.cfl_start = 1000.0;
  s.stall_steps = 4;
  // Eq. 3 and the safeguard alone (cfl_growth = 1; the growth floor: the next test)
  PseudoTimeSolver solver(c.disc, c.free_stream(), s);
  std::vector<double> cfl;
  std::vector<CflSafeguard> safeguard;
  for (int n = 0; n < 30; ++n) {
    const PseudoStepReport r = step(solver, nothing);
    cfl.push_back(solver.cfl());
    safeguard.push_back(r.safeguard);
    EXPECT_EQ(r.omega, 1.0);
  }
  EXPECT_EQ(cfl[2], 1000.0);
  EXPECT_EQ(cfl[3], 500.0);  // the fourth step without a new lowest residual
  EXPECT_EQ(safeguard[3], CflSafeguard::stall);
  EXPECT_EQ(cfl[6], 500.0);
  EXPECT_EQ(cfl[7], 250.0);
  EXPECT_EQ(cfl.back(), s.cfl_min);  // never below cfl_min
}

TEST(PseudoTime, AResidualThatCreepsStallsWithStallDrop) {
  // Each step takes a five-hundredth of the solved update: the residual falls
  // a little every step, so each is a new lowest and, with stall_drop = 0,
  // nothing stalls. With stall_drop = 0.1 no step falls 10 % below the last
  // lowest, and the fifth (stall_steps) cuts the CFL (safeguard 2).
  Case c;
  JacobianSolver linear("fgmres(restart=30,rtol=1e-1,maxit=60)+bilu0");
  const LinearSolve real = linear.function();
  const LinearSolve creep = [&](const BsrMatrix& a, std::span<const double> b, std::span<double> x) {
    const SolveStats st = real(a, b, x);
    for (double& v : x) v *= 0.002;
    return st;
  };
  for (const double drop : {0.0, 0.1}) {
    PseudoTimeSettings s;
    s.cfl_start = 1000.0;
    s.stall_steps = 5;
    s.stall_drop = drop;
    PseudoTimeSolver solver(c.disc, c.free_stream(), s);
    std::vector<int> stalls;
    for (int n = 0; n < 7; ++n) {
      const PseudoStepReport r = step(solver, creep);
      ASSERT_LT(r.residual_factor, 1.0) << "step " << n + 1 << ": the residual must creep down";
      ASSERT_GT(r.residual_factor, 0.97) << "step " << n + 1;
      if (r.safeguard == CflSafeguard::stall) stalls.push_back(n + 1);
    }
    // Eq. 3 raises the CFL by a few parts in 1e4 a step as the residual creeps.
    if (drop == 0.0) {
      EXPECT_TRUE(stalls.empty()) << "stalled at step " << stalls.front();
      EXPECT_NEAR(solver.cfl(), 1000.0, 10.0);
    } else {
      EXPECT_EQ(stalls, std::vector<int>{5});
      EXPECT_NEAR(solver.cfl(), 500.0, 5.0) << "halved once";
    }
  }
}

TEST(PseudoTime, AStepWhoseSystemMissedItsToleranceCutsTheCfl) {
  // A "solver" that stops at its iteration limit having done nothing: the
  // system is not solved (matrix-free: the outer iteration, each of whose
  // preconditioner solves returns nothing, misses its tolerance) and the
  // residual stays where it is. The safeguard halves the CFL at once
  // (stall_cut) in both forms.
  const LinearSolve stopped = [](const BsrMatrix&, std::span<const double>, std::span<double> x) {
    std::fill(x.begin(), x.end(), 0.0);
    SolveStats st;
    st.reason = StopReason::max_iterations;
    st.initial_residual = st.final_residual = 1.0;
    return st;
  };
  for (const JacobianForm form : {JacobianForm::matrix_free, JacobianForm::first_order}) {
    Case c;
    PseudoTimeSettings s;
    s.cfl_start = 1000.0;
    s.jacobian = form;
    PseudoTimeSolver solver(c.disc, c.free_stream(), s);
    const PseudoStepReport r = step(solver, stopped);
    if (form == JacobianForm::matrix_free) {
      EXPECT_FALSE(r.outer_converged);
      EXPECT_GT(r.outer_iterations, 0);
    } else {
      EXPECT_EQ(r.outer_iterations, 0);
    }
    EXPECT_EQ(r.safeguard, CflSafeguard::unsolved);
    EXPECT_EQ(solver.cfl(), 500.0);
  }
  // The paper's system: a solve stopped at its limit with its residual halved
  // is the inexact step the iteration limit allows, and a solve that did not
  // run (reason not_run) missed nothing: the CFL stays until stall_steps have passed.
  const LinearSolve halved = [&](const BsrMatrix& a, std::span<const double> b, std::span<double> x) {
    SolveStats st = stopped(a, b, x);
    st.final_residual = 0.5;
    return st;
  };
  for (const LinearSolve& solve : {halved, LinearSolve(nothing)}) {
    Case c;
    PseudoTimeSettings s;
    s.cfl_start = 1000.0;
    PseudoTimeSolver solver(c.disc, c.free_stream(), s);
    EXPECT_EQ(step(solver, solve).safeguard, CflSafeguard::none);
    EXPECT_EQ(solver.cfl(), 1000.0);
  }
}

TEST(PseudoTime, AHealthyStepRaisesTheCflByAtLeastTheGrowthFactor) {
  // No update: no relaxation, a level residual (Eq. 3's factor is 1); the growth
  // floor raises the CFL by cfl_growth each step, up to cfl_max.
  Case c;
  PseudoTimeSettings s;
  s.cfl_start = 1000.0;
  s.stall_steps = 0;
  s.cfl_growth = 1.5;
  PseudoTimeSolver solver(c.disc, c.free_stream(), s);
  for (double expected : {1500.0, 2250.0, 3375.0, 5062.5, 7593.75, 1e4, 1e4}) {
    step(solver, nothing);
    EXPECT_DOUBLE_EQ(solver.cfl(), expected);
  }
}

TEST(PseudoTime, AStronglyRelaxedStepCutsTheNextCfl) {
  // An update that would change one cell's density 100-fold: omega = 0.2 / 100,
  // and the next CFL is the current one times omega / 0.1 (at least cfl.cut).
  Case c;
  PseudoTimeSettings s;
  s.cfl_start = 1000.0;
  PseudoTimeSolver solver(c.disc, c.free_stream(), s);
  const LinearSolve huge = [](const BsrMatrix&, std::span<const double>, std::span<double> x) {
    std::fill(x.begin(), x.end(), 0.0);
    x[7 * 4] = 100.0;
    return SolveStats{};
  };
  const PseudoStepReport r = step(solver, huge);
  EXPECT_NEAR(r.omega, 0.002, 1e-12);
  EXPECT_EQ(r.safeguard, CflSafeguard::relaxation);
  EXPECT_DOUBLE_EQ(solver.cfl(), 1000.0 * s.cfl_cut);
}

TEST(PseudoTime, SaveAndLoadContinueBitForBit) {
  Case c;
  JacobianSolver la("fgmres(restart=30,rtol=1e-1,maxit=60)+bilu0"), lb("fgmres(restart=30,rtol=1e-1,maxit=60)+bilu0");
  PseudoTimeSolver a(c.disc, c.free_stream(), {});
  for (int n = 0; n < 5; ++n) step(a, la.function());
  std::stringstream saved;
  a.save(saved);
  for (int n = 0; n < 5; ++n) step(a, la.function());

  PseudoTimeSolver b(c.disc, c.free_stream(), {});
  b.load(saved);
  EXPECT_EQ(b.steps(), 5);
  for (int n = 0; n < 5; ++n) step(b, lb.function());
  EXPECT_EQ(a.cfl(), b.cfl());
  EXPECT_EQ(a.order(), b.order());
  for (std::size_t i = 0; i < a.state().size(); ++i) ASSERT_EQ(a.state()[i], b.state()[i]) << "cell " << i;
}

// First order at a fixed cap (no ramp to wait for): from the free stream the
// first steps are relaxed, then the CFL climbs back to the cap and stays.
PseudoTimeSettings at_the_cap(int reuse) {
  PseudoTimeSettings s;
  s.order = 1;
  s.cfl_start = 1000.0;
  s.cfl_max = 1000.0;
  s.cfl_growth = 1.5;
  s.jacobian_reuse = reuse;
  s.rel_tol = 1e-9;  // two runs' steady states compared to 1e-6
  return s;
}

// max |a - b| over max |a|, the worst of the four variables.
double max_relative_difference(const std::vector<State>& a, const std::vector<State>& b) {
  double worst = 0.0;
  for (std::size_t k = 0; k < num_vars; ++k) {
    double diff = 0.0, size = 0.0;
    for (std::size_t c = 0; c < a.size(); ++c)
      diff = std::max(diff, std::abs(a[c][k] - b[c][k])), size = std::max(size, std::abs(a[c][k]));
    worst = std::max(worst, diff / size);
  }
  return worst;
}

TEST(PseudoTime, AJacobianIsReusedOnlyAtAnUnchangedCflAfterHealthySteps) {
  Case c;
  const int reuse = 4;
  PseudoTimeSolver solver(c.disc, c.free_stream(), at_the_cap(reuse));
  JacobianSolver linear("fgmres(restart=30,rtol=1e-1,maxit=60)+bilu0");
  const LinearSolve inner = linear.function();
  std::vector<double> values;  // the matrix of the step's (only) solve
  const LinearSolve solve = [&](const BsrMatrix& a, std::span<const double> b, std::span<double> x) {
    values = a.values;
    return inner(a, b, x);
  };
  std::vector<double> previous_values;
  PseudoStepReport previous;
  int reused = 0, in_a_row = 0;
  for (int n = 0; n < 200 && !solver.converged(); ++n) {
    const PseudoStepReport r = step(solver, solve);
    if (r.jacobian_reused) {
      ++reused;
      EXPECT_LT(++in_a_row, reuse) << "step " << n + 1 << ": one Jacobian serves at most jacobian_reuse steps";
      EXPECT_EQ(r.cfl, previous.cfl) << "step " << n + 1;
      EXPECT_TRUE(previous.omega >= 1.0 && previous.safeguard == CflSafeguard::none && previous.retries == 0 &&
                  previous.residual_factor < 1.0 && previous.solves.back().converged())
          << "step " << n + 1 << " reused the Jacobian after an unhealthy step";
      EXPECT_TRUE(values == previous_values) << "step " << n + 1 << " reports a reuse but solved another matrix";
    } else {
      in_a_row = 0;
      if (n > 0) {
        EXPECT_FALSE(values == previous_values) << "step " << n + 1 << " reassembled the same matrix";
      }
    }
    previous = r;
    previous_values = values;
  }
  ASSERT_TRUE(solver.converged());
  EXPECT_GE(reused, 8);  // 10 of 16 when written (14 steps assembling every step)

  // The same steady state as assembling every step: the residual, not the
  // Jacobian, defines it (to the convergence tolerance).
  PseudoTimeSolver every(c.disc, c.free_stream(), at_the_cap(1));
  JacobianSolver fresh("fgmres(restart=30,rtol=1e-1,maxit=60)+bilu0");
  for (int n = 0; n < 200 && !every.converged(); ++n) EXPECT_FALSE(step(every, fresh.function()).jacobian_reused);
  ASSERT_TRUE(every.converged());
  std::printf("reused %d of %ld steps; %ld assembling every step; difference %.3g\n", reused, solver.steps(),
              every.steps(), max_relative_difference(solver.state(), every.state()));
  EXPECT_LT(max_relative_difference(solver.state(), every.state()), 1e-7);  // 4e-9 when written
  EXPECT_LE(solver.steps(), every.steps() + 5);
}

TEST(PseudoTime, NoJacobianIsReusedWhileTheResidualDoesNotFall) {
  // A zero update leaves the residual level: no step is healthy.
  Case c;
  PseudoTimeSolver solver(c.disc, c.free_stream(), at_the_cap(10));
  for (int n = 0; n < 5; ++n) EXPECT_FALSE(step(solver, nothing).jacobian_reused) << "step " << n + 1;
}

TEST(PseudoTime, SaveAndLoadContinueBitForBitWhileAJacobianIsReused) {
  // Saved while a Jacobian serves: load() assembles it again from the state it
  // came from, not from the current one, or the next steps would differ.
  Case c;
  const std::string spec = "fgmres(restart=30,rtol=1e-1,maxit=60)+bilu0";
  JacobianSolver la(spec), lb(spec);
  PseudoTimeSolver a(c.disc, c.free_stream(), at_the_cap(20));
  bool reusing = false;
  for (int n = 0; n < 60 && !reusing; ++n) reusing = step(a, la.function()).jacobian_reused;
  ASSERT_TRUE(reusing);
  std::stringstream saved;
  a.save(saved);
  std::vector<bool> reused_a, reused_b;
  for (int n = 0; n < 5; ++n) reused_a.push_back(step(a, la.function()).jacobian_reused);

  PseudoTimeSolver b(c.disc, c.free_stream(), at_the_cap(20));
  b.load(saved);
  for (int n = 0; n < 5; ++n) reused_b.push_back(step(b, lb.function()).jacobian_reused);
  EXPECT_EQ(reused_a, reused_b);
  EXPECT_TRUE(reused_b.front());
  EXPECT_EQ(a.cfl(), b.cfl());
  for (std::size_t i = 0; i < a.state().size(); ++i) ASSERT_EQ(a.state()[i], b.state()[i]) << "cell " << i;
}

// The exact Jacobian's systems preconditioned by the asynchronous ILU in the
// synchronous order from the previous factors (exact_form_sweeps: what
// ResidentPseudoTimeGpu.TheExactFormsSteadyStateIsTheHosts runs on the device
// and compares with this host run) reach BILU(0)'s steady state in as many
// steps, to 10 %.
TEST(PseudoTime, TheExactFormConvergesWithSynchronousSweepsFromThePreviousFactors) {
  const SteadyRun bilu0 = converge("fgmres(restart=30,rtol=1e-1,maxit=30)+bilu0", false, JacobianForm::exact);
  const SteadyRun sweeps =
      converge(std::string("fgmres(restart=30,rtol=1e-1,maxit=30)+") + exact_form_sweeps, false, JacobianForm::exact);
  EXPECT_NEAR(sweeps.forces.cd, bilu0.forces.cd, 1e-6 * std::abs(bilu0.forces.cd));
  EXPECT_NEAR(sweeps.forces.cl, bilu0.forces.cl, 1e-6);
  EXPECT_LE(std::abs(sweeps.steps - bilu0.steps), bilu0.steps / 10 + 2) << "pseudo-steps within 10 %";
}

}  // namespace
}  // namespace tb::test
