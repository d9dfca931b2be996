// GMRES with its scalars on the backend (gmres.hpp) against the same method
// with them on the host: the iteration on host vectors with scalars=backend
// runs every step the device runs (the reductions left in the scalars' array,
// the scalar steps of gmres_scalars.hpp, the checks, the iterations queued
// past the stop and discarded), so iterates, estimates, stops and iteration
// counts must agree bit for bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "../../common/bits.hpp"
#include "../../common/systems.hpp"
#include "solvers/core/transfers.hpp"
#include "solvers/factory/registry.hpp"
#include "solvers/krylov/gmres.hpp"
#include "solvers/krylov/gmres_scalars.hpp"
#include "solvers/matrix/bsr_operator.hpp"
#include "solvers/matrix/generate.hpp"

namespace tb {
namespace {

BsrMatrix test_system(bool symmetric = false) {
  Stencil7Params p;
  p.nx = 6, p.ny = 5, p.nz = 4, p.block_size = 2, p.symmetric = symmetric;
  return generate_stencil7(p);
}

struct Outcome {
  SolveStats stats;
  std::vector<double> x;
};

// Two solves in a row (the second from the first's x with b halved): the
// scalars' array is reused and a warm start begins from a nonzero x.
std::vector<Outcome> solve_twice(const std::string& spec, const BsrMatrix& a, SolveLimit limit = {}) {
  auto solver = make_solver(spec);
  solver->setup(a);
  solver->limit(limit);
  std::vector<double> b = test::sine_rhs(std::size_t(a.rows()));
  std::vector<double> x(b.size(), 0.0);
  std::vector<Outcome> runs;
  for (int k = 0; k < 2; ++k) {
    runs.push_back({solver->solve(b, x), x});
    for (double& v : b) v *= 0.5;
  }
  return runs;
}

std::string with_scalars(const std::string& spec, const char* where) {
  const auto open = spec.find('(');
  return spec.substr(0, open + 1) + "scalars=" + where + "," + spec.substr(open + 1);
}

// The test system and a point-Jacobi preconditioner, for tests that build
// their own Gmres.
struct JacobiSystem {
  BsrMatrix a = test_system();
  BsrOperator op{a, Backend::host};
  std::unique_ptr<LinearSolver> jacobi = make_solver("gmres+jacobi");
  const Preconditioner& m = (jacobi->setup(a), jacobi->preconditioner());
  const Vector sine_b{Backend::host, test::sine_rhs(std::size_t(a.rows()))};
};

StopCriteria stop_at(double rtol, int maxit) {
  StopCriteria stop;
  stop.rtol = rtol, stop.maxit = maxit;
  return stop;
}

struct Measured {
  SolveStats stats;
  transfers::Tally read;  // what the host twin read back during the solve
};

// One solve from x = 0: its stats, what the host read and, where asked, x.
Measured solve_from_zero(Gmres& gmres, const JacobiSystem& s, const Vector& b, std::vector<double>* x_out = nullptr) {
  Vector x(Backend::host, b.size());
  x.set_zero();
  const transfers::Tally before = transfers::twin_results();
  Measured r{gmres.solve(s.op, s.m, b, x), {}};
  const transfers::Tally after = transfers::twin_results();
  r.read = {after.copies - before.copies, after.bytes - before.bytes, 0.0};
  if (x_out) *x_out = x.to_host();
  return r;
}

// The same solve, without its history, with GMRES's scalars on the host and
// then on the backend (make: the method for a place of the scalars).
template <class MakeGmres>
std::vector<Measured> host_then_backend(const MakeGmres& make, const JacobiSystem& s, const Vector& b) {
  std::vector<Measured> runs;
  for (const GmresScalars scalars : {GmresScalars::host, GmresScalars::backend}) {
    Gmres gmres = make(scalars);
    gmres.record_history(false);
    runs.push_back(solve_from_zero(gmres, s, b));
  }
  return runs;
}

void expect_same_solves(const std::string& spec, const BsrMatrix& a, SolveLimit limit = {}) {
  const std::vector<Outcome> host = solve_twice(with_scalars(spec, "host"), a, limit);
  const std::vector<Outcome> backend = solve_twice(with_scalars(spec, "backend"), a, limit);
  for (std::size_t k = 0; k < host.size(); ++k) {
    SCOPED_TRACE(spec + ", solve " + std::to_string(k));
    const SolveStats &h = host[k].stats, &d = backend[k].stats;
    EXPECT_EQ(d.reason, h.reason) << h.line() << "\n" << d.line();
    EXPECT_EQ(d.iterations, h.iterations);
    EXPECT_TRUE(test::same_bits(d.initial_residual, h.initial_residual));
    EXPECT_TRUE(test::same_bits(d.final_residual, h.final_residual));
    test::expect_bitwise(d.residual_history, h.residual_history, "residual history");
    test::expect_bitwise(backend[k].x, host[k].x, "x");
  }
}

class GmresScalarsTwin : public ::testing::TestWithParam<const char*> {};

TEST_P(GmresScalarsTwin, OnTheBackendTheyStepAsOnTheHost) { expect_same_solves(GetParam(), test_system()); }

// Converged mid-cycle and over restarts, at the iteration limit inside a
// cycle and at a cycle's end, every orthogonalisation the backend takes,
// GMRES's update through M and FGMRES's through the directions.
INSTANTIATE_TEST_SUITE_P(
    Specs, GmresScalarsTwin,
    ::testing::Values("gmres(rtol=1e-9,restart=30)+bilu0", "gmres(rtol=1e-9,restart=4)+jacobi",
                      "fgmres(rtol=1e-9,restart=5)+bilu0", "fgmres(rtol=1e-9,restart=30)+jacobi",
                      "gmres(rtol=1e-12,restart=10,maxit=7)+jacobi", "fgmres(rtol=1e-12,restart=4,maxit=8)+bilu0",
                      "gmres(rtol=1e-9,restart=6,orthog=cgs2)+jacobi", "fgmres(rtol=1e-9,restart=7,orthog=mgs)+bilu0",
                      "gmres(rtol=1e-9,restart=3,orthog=mgs)+jacobi", "fgmres(rtol=1e-1,restart=30,maxit=10)+bilu0",
                      "gmres(atol=1e-3,rtol=0,restart=8)+jacobi"));

// Three distinct eigenvalues: exact after three iterations, before the first
// check, so the backend has queued an iteration past the stop, which its
// update must leave out.
TEST(GmresScalarPlace, IterationsQueuedPastTheStopAreLeftOut) {
  const BsrMatrix a = test::three_eigenvalues(test_system(true));
  for (const char* spec : {"gmres(rtol=1e-10,restart=10)", "fgmres(rtol=1e-10,restart=10)"}) {
    expect_same_solves(spec, a);
    const std::vector<Outcome> backend = solve_twice(with_scalars(spec, "backend"), a);
    EXPECT_TRUE(backend[0].stats.converged()) << backend[0].stats.line();
    EXPECT_LE(backend[0].stats.iterations, 3);
  }
}

TEST(GmresScalarPlace, AnIterationLimitStopsBothWhereItSays) {
  SolveLimit limit;
  limit.iterations = 5;
  expect_same_solves("fgmres(rtol=1e-12,restart=30)+bilu0", test_system(), limit);
}

TEST(GmresScalarPlace, StagnationStopsBothAtTheSameIteration) {
  const BsrMatrix a = test::skew_symmetric_blocks();
  expect_same_solves("gmres(restart=1,maxit=5000,stagnation=20)", a);
  const std::vector<Outcome> backend = solve_twice("gmres(scalars=backend,restart=1,maxit=5000,stagnation=20)", a);
  EXPECT_EQ(backend[0].stats.reason, StopReason::stagnation);
  EXPECT_EQ(backend[0].stats.iterations, 20);
}

TEST(GmresScalarPlace, NonFiniteValuesStopBothAlike) {
  BsrMatrix a = test_system();
  a.values[a.values.size() / 2] = std::numeric_limits<double>::quiet_NaN();
  expect_same_solves("gmres(rtol=1e-9,restart=5)+jacobi", a);
  const std::vector<Outcome> backend = solve_twice("gmres(scalars=backend,rtol=1e-9,restart=5)+jacobi", a);
  EXPECT_EQ(backend[0].stats.reason, StopReason::non_finite) << backend[0].stats.line();
}

// A preconditioner that returns zero: a zero Hessenberg column, a breakdown
// after one iteration with x untouched, on the backend as on the host.
TEST(GmresScalarPlace, AZeroPreconditionerBreaksDownOnTheBackendToo) {
  struct Zero final : Preconditioner {
    void setup(const BsrMatrix&, Backend) override {}
    void update(const BsrMatrix&) override {}
    void apply(const Vector&, Vector& z) const override { z.set_zero(); }
    bool supports(Backend b) const override { return b == Backend::host; }
  };
  const BsrMatrix a = test_system();
  BsrOperator op(a, Backend::host);
  StopCriteria stop;
  stop.rtol = 1e-6, stop.maxit = 50;
  Gmres gmres(stop, 10, /*flexible=*/true, Orthogonalization::cgs, GmresScalars::backend);
  const Vector b(Backend::host, test::sine_rhs(std::size_t(a.rows())));
  Vector x(Backend::host, b.size());
  x.set_zero();
  ASSERT_TRUE(gmres.scalars_on_backend(b));
  const SolveStats st = gmres.solve(op, Zero{}, b, x);
  EXPECT_EQ(st.reason, StopReason::breakdown) << st.line();
  EXPECT_EQ(st.iterations, 1);
  for (double v : x.host_span()) EXPECT_EQ(v, 0.0);
}

// Checked every iteration (queue_ahead = false: a preconditioner that is a
// whole inner solve), nothing is queued past the stop: one preconditioner
// application an iteration, as with the scalars on the host, and the same x.
TEST(GmresScalarPlace, CheckedEveryIterationNothingIsQueuedPastTheStop) {
  struct Counted final : Preconditioner {
    mutable int applications = 0;
    void setup(const BsrMatrix&, Backend) override {}
    void update(const BsrMatrix&) override {}
    void apply(const Vector& r, Vector& z) const override { ++applications, z.copy_from(r); }
    bool supports(Backend b) const override { return b == Backend::host; }
  };
  const BsrMatrix a = test_system();
  BsrOperator op(a, Backend::host);
  StopCriteria stop;
  stop.rtol = 1e-3, stop.maxit = 100;
  const Vector b(Backend::host, test::sine_rhs(std::size_t(a.rows())));
  std::vector<std::vector<double>> xs;
  for (const auto& [scalars, queue] : {std::pair{GmresScalars::host, true}, std::pair{GmresScalars::backend, false},
                                       std::pair{GmresScalars::backend, true}}) {
    Gmres gmres(stop, 30, /*flexible=*/true, Orthogonalization::cgs, scalars, queue);
    Vector x(Backend::host, b.size());
    x.set_zero();
    Counted m;
    const SolveStats st = gmres.solve(op, m, b, x);
    ASSERT_TRUE(st.converged()) << st.line();
    if (queue && scalars == GmresScalars::backend)
      EXPECT_GE(m.applications, st.iterations);
    else
      EXPECT_EQ(m.applications, st.iterations);
    xs.push_back(x.to_host());
  }
  test::expect_bitwise(xs[1], xs[0], "x checked every iteration");
  test::expect_bitwise(xs[2], xs[0], "x with iterations queued");
}

// The stop word holds the iteration and the reason exactly, at any iteration
// count a solve can reach; -1 (none yet) says neither.
TEST(GmresScalarPlace, TheStopWordGivesBackTheIterationAndTheReason) {
  namespace gs = gmres_scalars;
  for (const int it : {0, 1, 7, 16, 999, 123456789})
    for (int r = 0; r <= int(StopReason::not_run); ++r) {
      const double word = gs::stop_word(it, StopReason(r));
      EXPECT_TRUE(gs::stopped(word));
      EXPECT_EQ(gs::stopped_at(word), it);
      EXPECT_EQ(gs::stopped_for(word), StopReason(r));
    }
  EXPECT_FALSE(gs::stopped(-1.0));
  EXPECT_EQ(gs::stopped_at(-1.0), -1);
  EXPECT_EQ(gs::stopped_for(-1.0), StopReason::not_run);
}

// Checked every iteration without its history (a time loop's outer FGMRES), a
// solve reads ||r0||, the stop word at each iteration and the last estimate
// once: 8 bytes an iteration and 16 more, what the host twin counts; its ends
// are the host scalars' bits.
TEST(GmresScalarPlace, CheckedEveryIterationAStopWordIsAllACheckReads) {
  const JacobiSystem s;
  const StopCriteria stop = stop_at(1e-6, 100);
  const std::vector<Measured> runs = host_then_backend(
      [&](GmresScalars scalars) {
        return Gmres(stop, 8, /*flexible=*/true, Orthogonalization::cgs, scalars, /*queue_ahead=*/false);
      },
      s, s.sine_b);
  const SolveStats &host = runs[0].stats, &backend = runs[1].stats;
  ASSERT_TRUE(backend.converged()) << backend.line();
  EXPECT_GT(backend.iterations, 8);  // over a restart
  EXPECT_EQ(backend.iterations, host.iterations);
  EXPECT_EQ(backend.reason, host.reason);
  ASSERT_EQ(backend.residual_history.size(), 2u);
  test::expect_bitwise(backend.residual_history, {host.residual_history.front(), host.residual_history.back()},
                       "ends of the history");
  EXPECT_EQ(runs[1].read.bytes, 8u * std::uint64_t(backend.iterations) + 16u);
}

// A solve whose ||r0|| already stops it (b = 0 from x = 0; no iteration
// allowed): the backend takes the test at iteration 0 before the host knows
// ||r0||, queues its first iterations anyway and discards them; the reason,
// the count and x are the host's, and x holds no NaN from r0 = 0.
TEST(GmresScalarPlace, AStopAtTheInitialResidualIsTheHostsOnTheBackendToo) {
  const JacobiSystem s;
  const Vector zero_b(Backend::host, std::vector<double>(std::size_t(s.a.rows()), 0.0));
  struct Case {
    const char* name;
    const Vector* b;
    int maxit;
    StopReason reason;
  };
  for (const Case& c : {Case{"b = 0", &zero_b, 50, StopReason::converged_atol},
                        Case{"maxit = 0", &s.sine_b, 0, StopReason::max_iterations}})
    for (const bool queue : {true, false}) {
      SCOPED_TRACE(std::string(c.name) + (queue ? ", queued" : ", checked every iteration"));
      const StopCriteria stop = stop_at(1e-6, c.maxit);
      std::vector<SolveStats> stats;
      for (const GmresScalars scalars : {GmresScalars::host, GmresScalars::backend}) {
        Gmres gmres(stop, 8, /*flexible=*/true, Orthogonalization::cgs, scalars, queue);
        std::vector<double> x;
        stats.push_back(solve_from_zero(gmres, s, *c.b, &x).stats);
        for (const double v : x) ASSERT_EQ(v, 0.0);
      }
      for (const SolveStats& st : stats) {
        EXPECT_EQ(st.reason, c.reason) << st.line();
        EXPECT_EQ(st.iterations, 0);
      }
      EXPECT_TRUE(test::same_bits(stats[1].initial_residual, stats[0].initial_residual));
      test::expect_bitwise(stats[1].residual_history, stats[0].residual_history, "history");
    }
}

// Iterations queued between checks (a time loop's inner solves, without their
// history): ||r0|| comes with the first check's record, so each read is a
// check, 24 bytes the first and 16 each after; the solves are the host's.
TEST(GmresScalarPlace, TheFirstCheckBringsTheInitialResidual) {
  const JacobiSystem s;
  const StopCriteria stop = stop_at(1e-8, 200);
  const std::vector<Measured> runs = host_then_backend(
      [&](GmresScalars scalars) { return Gmres(stop, 12, /*flexible=*/false, Orthogonalization::cgs, scalars); }, s,
      s.sine_b);
  const SolveStats &host = runs[0].stats, &backend = runs[1].stats;
  const transfers::Tally& read = runs[1].read;
  ASSERT_TRUE(backend.converged()) << backend.line();
  EXPECT_EQ(backend.iterations, host.iterations);
  EXPECT_TRUE(test::same_bits(backend.initial_residual, host.initial_residual));
  ASSERT_GE(read.copies, 2u) << "over more than one check";
  EXPECT_EQ(read.bytes, 24u + 16u * (read.copies - 1));
}

// Where the scalars live: the backend for device vectors unless told
// otherwise; never with CGS-P (its norm is chosen on the host) or a clock
// limit (read on the host); scalars=backend with cgsp is refused by name.
TEST(GmresScalarPlace, TheyGoToTheBackendOnlyWhereTheMethodAllows) {
  const Vector host(Backend::host, 4);
  StopCriteria stop;
  EXPECT_FALSE(Gmres(stop, 5, false, Orthogonalization::cgs, GmresScalars::automatic).scalars_on_backend(host));
  EXPECT_TRUE(Gmres(stop, 5, false, Orthogonalization::mgs, GmresScalars::backend).scalars_on_backend(host));
  EXPECT_FALSE(Gmres(stop, 5, false, Orthogonalization::cgsp, GmresScalars::automatic).scalars_on_backend(host));
  Gmres limited(stop, 5, true, Orthogonalization::cgs, GmresScalars::backend);
  SolveLimit l;
  l.seconds = 1.0;
  limited.limit(l);
  EXPECT_FALSE(limited.scalars_on_backend(host));
  try {
    make_solver("gmres(scalars=backend,orthog=cgsp)");
    FAIL() << "scalars=backend with orthog=cgsp was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("cgsp"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tb
