// Distributed BSR systems over the ranks of MPI_COMM_WORLD (docs/distributed.md), run
// under mpiexec -n 2 and -n 3: the halo exchange and the distributed product
// against the whole matrix on every rank, rank-independent preconditioners
// against the one-process solve iterate by iterate, block Jacobi and additive
// Schwarz around registry preconditioners, ranks that own nothing, and the
// specifications refused over ranks.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "../dist_runs.hpp"
#include "solvers/dist/dist_bsr_operator.hpp"
#include "solvers/dist/halo_exchange.hpp"
#include "solvers/factory/distributed_solver.hpp"
#include "solvers/factory/partitioned_solver.hpp"
#include "solvers/factory/registry.hpp"
#include "solvers/matrix/generate.hpp"

namespace tb {
namespace {

using test::dist::world;

int world_rank() { return world()->rank(); }
int world_size() { return world()->size(); }

// A non-symmetric coupled 4-equation system on a 6 x 5 x 4 grid: 120 block rows.
BsrMatrix system_matrix(bool symmetric = false) {
  Stencil7Params p;
  p.nx = 6;
  p.ny = 5;
  p.nz = 4;
  p.block_size = symmetric ? 1 : 4;
  p.symmetric = symmetric;
  return generate_stencil7(p);
}

std::vector<double> rhs(index_t n) {
  std::vector<double> b(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = std::sin(0.7 * double(i) + 0.3);
  return b;
}

std::vector<double> my_part(const std::vector<double>& v, const dist::RowDistribution& rows, index_t bs) {
  const int me = world_rank();
  return {v.begin() + std::ptrdiff_t(rows.first(me) * bs),
          v.begin() + std::ptrdiff_t((rows.first(me) + rows.owned(me)) * bs)};
}

std::vector<double> gather(const std::vector<double>& mine, const dist::RowDistribution& rows, index_t bs) {
  const auto ranks = static_cast<std::size_t>(world_size());
  std::vector<int> counts(ranks), displs(ranks);
  for (int q = 0; q < world_size(); ++q) {
    counts[std::size_t(q)] = int(rows.owned(q) * bs);
    displs[std::size_t(q)] = int(rows.first(q) * bs);
  }
  std::vector<double> all(static_cast<std::size_t>(rows.n() * bs));
  MPI_Allgatherv(mine.data(), int(mine.size()), MPI_DOUBLE, all.data(), counts.data(), displs.data(), MPI_DOUBLE,
                 MPI_COMM_WORLD);
  return all;
}

// Uneven shares, and with three ranks or more the middle one owns nothing.
dist::RowDistribution uneven(index_t n) {
  std::vector<index_t> counts(static_cast<std::size_t>(world_size()), 0);
  if (world_size() == 1) return dist::RowDistribution::from_counts(std::vector<index_t>{n});
  counts.front() = n / 3;
  counts.back() = n - n / 3;
  return dist::RowDistribution::from_counts(counts);
}

struct DistRun {
  SolveStats stats;
  std::vector<double> x;  // gathered
  index_t subdomain_rows = 0;
};

DistRun solve_distributed(const std::string& spec, const BsrMatrix& a, const dist::RowDistribution& rows) {
  const auto b = rhs(a.rows());
  auto solver = make_distributed_solver(spec, world());
  const BsrMatrix mine = dist::rows_of(a, rows, world_rank());
  solver->setup(mine, rows);
  std::vector<double> x(std::size_t(mine.rows()), 0.0);
  DistRun run;
  run.stats = solver->solve(my_part(b, rows, a.block_size), x);
  run.x = gather(x, rows, a.block_size);
  run.subdomain_rows = solver->subdomain_rows();
  return run;
}

SolveStats solve_whole(const std::string& spec, const BsrMatrix& a, std::vector<double>& x) {
  auto solver = make_solver(spec);
  solver->setup(a);
  x.assign(std::size_t(a.rows()), 0.0);
  return solver->solve(rhs(a.rows()), x);
}

// Both transports (persistent requests, the default; the neighbourhood
// all-to-all) deliver each ghost from its owner, exchange after exchange.
TEST(HaloExchange, GhostsOfTheProductArriveFromTheirOwners) {
  const BsrMatrix a = system_matrix();
  for (const auto transport : {dist::HaloTransport::persistent, dist::HaloTransport::neighbourhood})
    for (const auto& rows : {dist::RowDistribution::balanced(a.block_rows, world_size()), uneven(a.block_rows)}) {
      const int me = world_rank();
      const auto blocks = dist::RankBlocks::split(a, rows, me);
      dist::HaloExchange halo(world()->comm(), dist::matrix_halo_plan(world()->comm(), rows, blocks.ghost_columns),
                              a.block_size, transport);
      ASSERT_EQ(halo.transport(), transport);
      const index_t owned = rows.owned(me), bs = a.block_size;
      for (int round = 0; round < 3; ++round) {
        // Each entry holds its global index plus the round: a ghost's value names where and when it came from.
        std::vector<double> local(std::size_t((owned + index_t(blocks.ghost_columns.size())) * bs), -1.0);
        for (index_t i = 0; i < owned * bs; ++i) local[std::size_t(i)] = double(rows.first(me) * bs + i) + 0.25 * round;
        halo.exchange(local.data());
        for (std::size_t g = 0; g < blocks.ghost_columns.size(); ++g)
          for (index_t c = 0; c < bs; ++c)
            ASSERT_EQ(local[(std::size_t(owned) + g) * std::size_t(bs) + std::size_t(c)],
                      double(blocks.ghost_columns[g] * bs + c) + 0.25 * round)
                << dist::to_string(transport) << ", round " << round;
      }
    }
}

TEST(DistBsrOperator, ProductEqualsTheWholeMatrixProduct) {
  const BsrMatrix a = system_matrix();
  const auto x = rhs(a.rows());
  std::vector<double> serial(x.size());
  spmv_ref(a, x.data(), serial.data());
  for (const auto& rows : {dist::RowDistribution::balanced(a.block_rows, world_size()), uneven(a.block_rows)}) {
    const auto blocks = dist::RankBlocks::split(a, rows, world_rank());
    dist::DistBsrOperator op(world()->comm(), rows, blocks);
    Vector xv(Backend::host, std::span<const double>(my_part(x, rows, a.block_size)));
    Vector yv(Backend::host, xv.size());
    op.apply(xv, yv);
    const auto y = gather(yv.to_host(), rows, a.block_size);
    for (std::size_t i = 0; i < y.size(); ++i) EXPECT_NEAR(y[i], serial[i], 1e-13 * (1.0 + std::abs(serial[i]))) << i;
  }
}

// Point and block Jacobi read diagonal blocks only: the distributed solve is the
// one-process solve, iterate by iterate, whatever the number of ranks.
TEST(DistributedSolver, RankIndependentPreconditionersRepeatTheOneProcessIterates) {
  const BsrMatrix a = system_matrix();
  for (const std::string spec :
       {"fgmres(restart=20,rtol=1e-10,maxit=200)+jacobi", "bicgstab(rtol=1e-10,maxit=200)+block_jacobi",
        "gmres(restart=10,rtol=1e-10)", "gmres(restart=10,rtol=1e-10,orthog=cgsp)"}) {
    std::vector<double> x_whole;
    const SolveStats whole = solve_whole(spec, a, x_whole);
    ASSERT_TRUE(whole.converged()) << spec;
    for (const auto& rows : {dist::RowDistribution::balanced(a.block_rows, world_size()), uneven(a.block_rows)}) {
      const DistRun run = solve_distributed(spec, a, rows);
      EXPECT_EQ(run.stats.iterations, whole.iterations) << spec;
      ASSERT_EQ(run.stats.residual_history.size(), whole.residual_history.size()) << spec;
      for (std::size_t k = 0; k < whole.residual_history.size(); ++k)
        EXPECT_NEAR(run.stats.residual_history[k], whole.residual_history[k], 1e-10 * whole.residual_history[0])
            << spec << " iteration " << k;
      EXPECT_LT(test::max_abs_diff(run.x, x_whole), 1e-10 * test::max_abs(x_whole)) << spec;
      EXPECT_NEAR(run.stats.final_residual, whole.final_residual, 1e-9 * whole.initial_residual) << spec;
    }
  }
}

TEST(DistributedSolver, BlockJacobiAndSchwarzAroundRegistryPreconditionersSolveTheSystem) {
  const BsrMatrix a = system_matrix();
  const auto exact = test::direct_solve(a, rhs(a.rows()));
  const auto rows = dist::RowDistribution::balanced(a.block_rows, world_size());
  int bjacobi_its = 0;
  for (const std::string spec :
       {"fgmres(restart=30,rtol=1e-10,maxit=300)+bjacobi(local=bilu0)",
        "fgmres(restart=30,rtol=1e-10,maxit=300)+asm(overlap=1,local=bilu0)",
        "fgmres(restart=30,rtol=1e-10,maxit=300)+asm(overlap=1,local=async_bilu(build_sweeps=2,apply_sweeps=3))",
        "fgmres(restart=30,rtol=1e-10,maxit=300)+bjacobi(local=parilut)"}) {
    const DistRun run = solve_distributed(spec, a, rows);
    EXPECT_TRUE(run.stats.converged()) << spec << ": " << run.stats.line();
    EXPECT_LT(test::max_abs_diff(run.x, exact), 1e-7 * test::max_abs(exact)) << spec;
    if (spec.find("bjacobi(local=bilu0)") != std::string::npos) bjacobi_its = run.stats.iterations;
    if (spec.find("asm(overlap=1,local=bilu0)") != std::string::npos && world_size() > 1) {
      // One layer of overlap: more rows per subdomain, fewer iterations than block Jacobi.
      EXPECT_GT(run.subdomain_rows, rows.owned(world_rank())) << spec;
      EXPECT_LT(run.stats.iterations, bjacobi_its) << spec;
    }
  }
}

// A distributed solve times its waits in MPI (allreduces, ghost exchanges)
// apart, as a part of its time; a one-process solver has none.
TEST(DistributedSolver, TimesItsMpiWaitsAsPartOfTheSolve) {
  const BsrMatrix a = system_matrix();
  const DistRun run = solve_distributed("gmres(restart=10,rtol=1e-10)+bjacobi(local=bilu0)", a,
                                        dist::RowDistribution::balanced(a.block_rows, world_size()));
  ASSERT_TRUE(run.stats.converged()) << run.stats.line();
  EXPECT_GT(run.stats.communication_seconds, 0.0);
  EXPECT_LT(run.stats.communication_seconds, run.stats.solve_seconds);
  std::vector<double> x;
  EXPECT_EQ(solve_whole("gmres(restart=10,rtol=1e-10)+bilu0", a, x).communication_seconds, 0.0);
}

// On one rank (MPI_COMM_SELF) block Jacobi is its local solver on the whole matrix.
TEST(DistributedSolver, OneRankBlockJacobiIsTheLocalSolver) {
  const BsrMatrix a = system_matrix();
  std::vector<double> x_whole;
  const SolveStats whole = solve_whole("gmres(restart=30,rtol=1e-10)+bilu0", a, x_whole);
  auto solver = make_distributed_solver("gmres(restart=30,rtol=1e-10)+bjacobi(local=bilu0)", test::dist::self());
  solver->setup(a, dist::RowDistribution::balanced(a.block_rows, 1));
  std::vector<double> x(std::size_t(a.rows()), 0.0);
  const SolveStats st = solver->solve(rhs(a.rows()), x);
  EXPECT_EQ(st.iterations, whole.iterations);
  EXPECT_EQ(st.residual_history, whole.residual_history);
  EXPECT_EQ(x, x_whole);
}

TEST(DistributedSolver, UpdateTakesNewValuesOnThePattern) {
  BsrMatrix a = system_matrix();
  const auto rows = dist::RowDistribution::balanced(a.block_rows, world_size());
  auto solver = make_distributed_solver("fgmres(rtol=1e-10)+asm(overlap=1,local=bilu0)", world());
  solver->setup(dist::rows_of(a, rows, world_rank()), rows);
  for (double& v : a.values) v *= 3.0;
  solver->update(dist::rows_of(a, rows, world_rank()));
  std::vector<double> x(std::size_t(rows.owned(world_rank()) * a.block_size), 0.0);
  const SolveStats st = solver->solve(my_part(rhs(a.rows()), rows, a.block_size), x);
  ASSERT_TRUE(st.converged());
  const auto exact = test::direct_solve(a, rhs(a.rows()));  // a third of the first system's solution
  EXPECT_LT(test::max_abs_diff(gather(x, rows, a.block_size), exact), 1e-7 * test::max_abs(exact));
}

// Rows that come split (tb-comp2d's pieces, RankBlocks' two blocks) are read
// where the caller keeps them: set up and updated in place, the solves equal
// bit for bit those of the solver's own split copy of the same rows in global
// columns, for block Jacobi and for Schwarz with overlap (which joins them
// again), directly and through a decomposed run's PartitionedSolver.
TEST(DistributedSolver, SplitRowsReadInPlaceSolveAsTheSolversOwnCopy) {
  BsrMatrix a = system_matrix();
  const int me = world_rank();
  for (const auto& rows : {dist::RowDistribution::balanced(a.block_rows, world_size()), uneven(a.block_rows)}) {
    for (const std::string spec : {"fgmres(restart=30,rtol=1e-10,maxit=300)+bjacobi(local=bilu0)",
                                   "fgmres(restart=30,rtol=1e-10,maxit=300)+asm(overlap=1,local=bilu0)"}) {
      a = system_matrix();
      dist::RankBlocks split = dist::RankBlocks::split(a, rows, me);
      const dist::OffRankRows off{&split.off_rank, split.ghost_columns};
      BsrMatrix joined;
      dist::join_rank_rows(split.local, off, rows.first(me), rows.n(), joined);
      const BsrMatrix mine = dist::rows_of(a, rows, me);
      ASSERT_EQ(joined.row_ptr, mine.row_ptr);
      ASSERT_EQ(joined.col_idx, mine.col_idx);
      ASSERT_EQ(joined.values, mine.values);
      auto in_place = make_distributed_solver(spec, world());
      auto copied = make_distributed_solver(spec, world());
      auto partitioned = make_partitioned_solver(spec);
      in_place->setup(split.local, off, rows);
      copied->setup(mine, rows);
      ASSERT_EQ(take_split_rows(*partitioned, off), world_size() > 1);
      partitioned->setup(world_size() > 1 ? split.local : mine);
      const auto b = my_part(rhs(a.rows()), rows, a.block_size);
      for (int round = 0; round < 2; ++round) {
        std::vector<double> x_in_place(b.size(), 0.0), x_copied(b.size(), 0.0), x_partitioned(b.size(), 0.0);
        const SolveStats st = in_place->solve(b, x_in_place);
        ASSERT_TRUE(st.converged()) << spec << ": " << st.line();
        EXPECT_EQ(copied->solve(b, x_copied).iterations, st.iterations) << spec;
        EXPECT_EQ(x_in_place, x_copied) << spec << ", round " << round;
        partitioned->solve(b, x_partitioned);
        if (world_size() > 1) {
          EXPECT_EQ(x_partitioned, x_copied) << spec << ", round " << round;
        }
        // New values on the pattern, refilled where they are (the physics' next step).
        for (double& v : a.values) v *= 1.5;
        for (double& v : a.values) v += 1e-3 * std::sin(v);
        split.refresh_values(a);
        const BsrMatrix next = dist::rows_of(a, rows, me);
        in_place->update(split.local);
        copied->update(next);
        partitioned->update(world_size() > 1 ? split.local : next);
      }
    }
  }
}

// An iteration limit (a physics' cap on its inner solves, SolverSlot) stops
// every rank at the same iteration, through the LinearSolver a decomposed
// run's slot holds; lifted, the solve converges again.
TEST(PartitionedSolver, AnIterationLimitStopsEveryRankThere) {
  const BsrMatrix a = system_matrix();
  const auto rows = dist::RowDistribution::balanced(a.block_rows, world_size());
  auto solver = make_partitioned_solver("fgmres(rtol=1e-10,maxit=200)+bjacobi(local=bilu0)");
  solver->setup(dist::rows_of(a, rows, world_rank()));
  const auto b = my_part(rhs(a.rows()), rows, a.block_size);
  std::vector<double> x(b.size(), 0.0);
  const SolveStats free = solver->solve(b, x);
  ASSERT_TRUE(free.converged());
  ASSERT_GT(free.iterations, 3);
  EXPECT_EQ(solver->max_iterations(), 200);
  ASSERT_TRUE(solver->limit({3, 0.0}));
  x.assign(b.size(), 0.0);
  const SolveStats capped = solver->solve(b, x);
  EXPECT_EQ(capped.reason, StopReason::max_iterations);
  EXPECT_EQ(capped.iterations, 3);
  EXPECT_FALSE(solver->limit({}));
  x.assign(b.size(), 0.0);
  EXPECT_EQ(solver->solve(b, x).iterations, free.iterations);
}

// A decomposed time loop whose body moves sets its solver up on each new
// pattern (tb-ib's pulsating ellipsoid): the second set-up solves the second system.
TEST(PartitionedSolver, ANewPatternIsSetUpAfresh) {
  auto solver = make_partitioned_solver("fgmres(rtol=1e-10)+bjacobi(local=bilu0)");
  for (bool symmetric : {false, true}) {
    const BsrMatrix a = system_matrix(symmetric);
    const auto rows = dist::RowDistribution::balanced(a.block_rows, world_size());
    solver->setup(dist::rows_of(a, rows, world_rank()));
    std::vector<double> x(std::size_t(rows.owned(world_rank()) * a.block_size), 0.0);
    const SolveStats st = solver->solve(my_part(rhs(a.rows()), rows, a.block_size), x);
    ASSERT_TRUE(st.converged()) << st.line();
    const auto exact = test::direct_solve(a, rhs(a.rows()));
    EXPECT_LT(test::max_abs_diff(gather(x, rows, a.block_size), exact), 1e-7 * test::max_abs(exact));
  }
}

TEST(DistributedSolver, SpecificationsThatNeedTheWholeMatrixAreRefused) {
  auto refusal = [](const std::string& spec) {
    try {
      make_distributed_solver(spec, world());
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(refusal("fgmres+bilu0").find("bjacobi(local=bilu0) or asm(overlap=1,local=bilu0)"), std::string::npos);
  EXPECT_NE(refusal("fgmres+async_bilu(build_sweeps=1)").find("bjacobi(local=async_bilu(build_sweeps=1))"),
            std::string::npos);
  EXPECT_NE(refusal("bicgstab_dia").find("its own slabs"), std::string::npos);
  EXPECT_NE(refusal("fgmres+asm(overlap=2)").find("asm.overlap: given 2"), std::string::npos);
  EXPECT_NE(refusal("fgmres+bjacobi(local=asm)").find("bjacobi.local"), std::string::npos);
  EXPECT_NE(refusal("gmres+bjacobi(local=async_bilu)").find("use fgmres"), std::string::npos);
}

}  // namespace
}  // namespace tb
int main(int argc, char** argv) { return tb::test::dist::run_mpi_tests(argc, argv); }
