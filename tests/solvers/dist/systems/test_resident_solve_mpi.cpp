// Distributed solves resident on a backend (docs/distributed.md, "On a
// backend"), run under mpiexec -n 2 and -n 3 with Backend::host standing in
// for the device: the same steps (the gather kernel, the staging copies or
// MPI on the backend's buffers, the product's kernels, the local solver set up
// on the backend) on host memory. Each is checked against the host path of
// host spans: the halo's received buffer is the ghost columns' values, the
// product and the solves repeat the host's bits (the same sums in the same
// order: the interface rows' body is block_row_product's), and what a solve
// stages is counted to the byte.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "../dist_runs.hpp"
#include "solvers/core/error.hpp"
#include "solvers/core/transfers.hpp"
#include "solvers/dist/backend_halo_exchange.hpp"
#include "solvers/dist/dist_bsr_operator.hpp"
#include "solvers/dist/halo_exchange.hpp"
#include "solvers/factory/distributed_solver.hpp"
#include "solvers/factory/partitioned_solver.hpp"
#include "solvers/matrix/generate.hpp"

namespace tb {
namespace {

using test::dist::world;

int me() { return world()->rank(); }
int ranks() { return world()->size(); }

// A non-symmetric 4-equation system on a 6 x 5 x 4 grid (120 block rows), or
// the symmetric scalar one.
BsrMatrix system_matrix(bool symmetric = false) {
  Stencil7Params p;
  p.nx = 6;
  p.ny = 5;
  p.nz = 4;
  p.block_size = symmetric ? 1 : 4;
  p.symmetric = symmetric;
  return generate_stencil7(p);
}

std::vector<double> my_rhs(const BsrMatrix& a, const dist::RowDistribution& rows) {
  std::vector<double> b(std::size_t(rows.owned(me()) * a.block_size));
  const std::size_t first = std::size_t(rows.first(me()) * a.block_size);
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = std::sin(0.7 * double(first + i) + 0.3);
  return b;
}

// Balanced, and uneven: with three ranks the middle one owns nothing.
std::vector<dist::RowDistribution> layouts(index_t n) {
  std::vector<dist::RowDistribution> out{dist::RowDistribution::balanced(n, ranks())};
  if (ranks() > 1) {
    std::vector<index_t> counts(std::size_t(ranks()), 0);
    counts.front() = n / 3;
    counts.back() = n - n / 3;
    out.push_back(dist::RowDistribution::from_counts(counts));
  }
  return out;
}

const dist::HaloPath paths[] = {dist::HaloPath::staged, dist::HaloPath::cuda_aware};

// The product's plan receives the ghost columns in their order, so the
// exchange's received buffer is the ghost vector itself: each entry holds its
// owner's value (here its global index plus the round), and the staging moved
// exactly the send and receive items of each round.
TEST(BackendHaloExchange, TheReceivedBufferIsTheGhostColumnsValues) {
  const BsrMatrix a = system_matrix();
  const index_t bs = a.block_size;
  for (const auto path : paths)
    for (const auto& rows : layouts(a.block_rows)) {
      SCOPED_TRACE(dist::to_string(path));
      const auto blocks = dist::RankBlocks::split(a, rows, me());
      const HaloPlan plan = dist::matrix_halo_plan(world()->comm(), rows, blocks.ghost_columns);
      const index_t owned = rows.owned(me());
      ASSERT_EQ(plan.recv_items.size(), blocks.ghost_columns.size());
      for (std::size_t s = 0; s < plan.recv_items.size(); ++s) ASSERT_EQ(plan.recv_items[s], owned + index_t(s));
      dist::BackendHaloExchange halo(world()->comm(), plan, bs, Backend::host, path);
      ASSERT_EQ(halo.received_items(), blocks.ghost_columns.size());
      for (int round = 0; round < 3; ++round) {
        std::vector<double> mine(std::size_t(owned * bs));
        for (std::size_t i = 0; i < mine.size(); ++i)
          mine[i] = double(rows.first(me()) * bs + index_t(i)) + 0.25 * round;
        const Vector x(Backend::host, std::span<const double>(mine));
        halo.begin(x.data());
        const double* got = halo.end();
        ASSERT_EQ(got, halo.received());
        for (std::size_t g = 0; g < blocks.ghost_columns.size(); ++g)
          for (index_t c = 0; c < bs; ++c)
            ASSERT_EQ(got[g * std::size_t(bs) + std::size_t(c)],
                      double(blocks.ghost_columns[g] * bs + c) + 0.25 * round)
                << "ghost " << g;
      }
      const std::uint64_t per_round = (plan.send_items.size() + plan.recv_items.size()) * std::size_t(bs) * 8;
      EXPECT_EQ(halo.staging().exchanges, 3u);
      EXPECT_EQ(halo.staging().bytes_to_host + halo.staging().bytes_to_backend,
                path == dist::HaloPath::staged ? 3 * per_round : 0u);
    }
}

// The product placed on the backend repeats the host product's bits, for an
// operator that holds its blocks (refreshed) and one that reads the caller's
// split rows (borrowed after they were refilled).
TEST(DistBsrOperatorOnBackend, RepeatsTheHostProductBitForBit) {
  BsrMatrix a = system_matrix();
  for (const auto path : paths)
    for (const auto& rows : layouts(a.block_rows)) {
      a = system_matrix();
      dist::RankBlocks split = dist::RankBlocks::split(a, rows, me());
      const BsrMatrix mine = dist::rows_of(a, rows, me());
      dist::DistBsrOperator host(world()->comm(), rows, dist::RankBlocks::from_rows(mine, rows, me()));
      dist::DistBsrOperator held(world()->comm(), rows, dist::RankBlocks::from_rows(mine, rows, me()));
      dist::DistBsrOperator borrowing(world()->comm(), rows, split.local, {&split.off_rank, split.ghost_columns});
      held.place_on(Backend::host, path);
      borrowing.place_on(Backend::host, path);
      ASSERT_TRUE(held.placed());
      ASSERT_FALSE(host.placed());
      const std::vector<double> xs = my_rhs(a, rows);
      const Vector x(Backend::host, std::span<const double>(xs));
      for (int round = 0; round < 2; ++round) {
        Vector y_host(Backend::host, x.size()), y_held(Backend::host, x.size()), y_borrowing(Backend::host, x.size());
        host.apply(x, y_host);
        held.apply(x, y_held);
        borrowing.apply(x, y_borrowing);
        EXPECT_EQ(y_held.to_host(), y_host.to_host()) << dist::to_string(path) << ", round " << round;
        EXPECT_EQ(y_borrowing.to_host(), y_host.to_host()) << dist::to_string(path) << ", round " << round;
        for (double& v : a.values) v = 1.5 * v + 1e-3 * std::sin(v);
        const BsrMatrix next = dist::rows_of(a, rows, me());
        host.refresh_values(next);
        held.refresh_values(next);
        split.refresh_values(a);
        borrowing.borrow(split.local);
      }
    }
}

struct SolveRun {
  SolveStats stats;
  std::vector<double> x;
};

// One solve from x0 = 0 of this rank's rows, then one after new values: on
// host spans (resident: none) or resident on the host through Vectors.
std::vector<SolveRun> two_solves(const std::string& spec, BsrMatrix a, const dist::RowDistribution& rows,
                                 std::optional<Backend> resident, dist::HaloPath path = dist::HaloPath::staged) {
  auto solver = make_distributed_solver(spec, world(), resident);
  solver->choose_halo_path(path);
  solver->setup(dist::rows_of(a, rows, me()), rows);
  std::vector<SolveRun> runs;
  for (int round = 0; round < 2; ++round) {
    const std::vector<double> b = my_rhs(a, rows);
    SolveRun run;
    run.x.assign(b.size(), 0.0);
    if (resident) {
      const Vector bv(*resident, std::span<const double>(b));
      Vector xv(*resident, std::span<const double>(run.x));
      run.stats = solver->solve(bv, xv);
      run.x = xv.to_host();
    } else {
      run.stats = solver->solve(b, run.x);
    }
    runs.push_back(std::move(run));
    for (double& v : a.values) v = 1.25 * v + 1e-3 * std::cos(v);
    solver->update(dist::rows_of(a, rows, me()));
  }
  return runs;
}

// The host solve of host spans and the solve resident on the host run the
// same arithmetic in the same order: iterations, residual histories and
// solutions equal bit for bit, on either halo path, before and after an update.
TEST(ResidentSolve, RepeatsTheHostSolveBitForBit) {
  const std::vector<std::pair<std::string, bool>> cases{
      {"fgmres(restart=30,rtol=1e-10,maxit=300)+bjacobi(local=bilu0)", false},
      {"bicgstab(rtol=1e-10,maxit=300)+bjacobi(local=block_jacobi)", false},
      {"gmres(restart=20,rtol=1e-9,maxit=300)+block_jacobi", false},
      {"cg(rtol=1e-10,maxit=500)+jacobi", true},
      {"fgmres(rtol=1e-10,maxit=300)+asm(overlap=0,local=block_jacobi)", false}};
  for (const auto& [spec, symmetric] : cases) {
    const BsrMatrix a = system_matrix(symmetric);
    for (const auto& rows : layouts(a.block_rows))
      for (const auto path : paths) {
        SCOPED_TRACE(spec + ", " + dist::to_string(path));
        const std::vector<SolveRun> host = two_solves(spec, a, rows, std::nullopt);
        const std::vector<SolveRun> resident = two_solves(spec, a, rows, Backend::host, path);
        for (std::size_t k = 0; k < host.size(); ++k) {
          ASSERT_TRUE(host[k].stats.converged()) << host[k].stats.line();
          EXPECT_EQ(resident[k].stats.iterations, host[k].stats.iterations);
          EXPECT_EQ(resident[k].stats.residual_history, host[k].stats.residual_history);
          EXPECT_EQ(resident[k].stats.final_residual, host[k].stats.final_residual);
          EXPECT_EQ(resident[k].x, host[k].x) << "solve " << k;
        }
      }
  }
}

// Split rows read in place (a physics' own blocks, refilled there) solve
// resident as on the host: the off-rank block's new values reach the backend
// at update.
TEST(ResidentSolve, SplitRowsReadInPlaceRepeatTheHostSolve) {
  const std::string spec = "fgmres(restart=30,rtol=1e-10,maxit=300)+bjacobi(local=bilu0)";
  for (const auto& rows : layouts(120)) {
    BsrMatrix a = system_matrix();
    dist::RankBlocks split = dist::RankBlocks::split(a, rows, me());
    const dist::OffRankRows off{&split.off_rank, split.ghost_columns};
    auto host = make_distributed_solver(spec, world());
    auto resident = make_distributed_solver(spec, world(), Backend::host);
    host->setup(split.local, off, rows);
    resident->setup(split.local, off, rows);
    for (int round = 0; round < 2; ++round) {
      const std::vector<double> b = my_rhs(a, rows);
      std::vector<double> x_host(b.size(), 0.0), x_resident(b.size(), 0.0);
      const SolveStats st = host->solve(b, x_host);
      ASSERT_TRUE(st.converged()) << st.line();
      EXPECT_EQ(resident->solve(b, x_resident).iterations, st.iterations);  // the span solve of a resident solver
      EXPECT_EQ(x_resident, x_host) << "round " << round;
      for (double& v : a.values) v = 1.5 * v + 1e-3 * std::sin(v);
      split.refresh_values(a);
      host->update(split.local);
      resident->update(split.local);
    }
  }
}

// Split rows whose values are written on the backend (a resident physics'
// Jacobian, SystemMatrix): the resident solve refreshes from them in place
// (update_in_place) and repeats the host solve of the same values bit for bit,
// though the host's copies of its blocks keep the first round's values; the
// operator of a later update from the host reads the host's again.
TEST(ResidentSolve, SplitRowsOnTheBackendRefreshInPlace) {
  for (const std::string spec : {"fgmres(restart=30,rtol=1e-10,maxit=300)+bjacobi(local=block_jacobi)",
                                 "fgmres(restart=30,rtol=1e-10,maxit=300)+bjacobi(local=async_bilu(build_sweeps=2,"
                                 "apply_sweeps=3,schedule=sync))"})
    for (const auto& rows : layouts(120)) {
      SCOPED_TRACE(spec);
      BsrMatrix a = system_matrix();
      dist::RankBlocks split = dist::RankBlocks::split(a, rows, me());
      const dist::RankBlocks stale = split;  // the host's copies a resident run leaves alone
      // The backend's arrays (host memory standing in): the local values and the off-rank values.
      std::vector<double> local_on_backend = split.local.values, off_on_backend = split.off_rank.values;
      auto host = make_distributed_solver(spec, world());
      auto resident = make_distributed_solver(spec, world(), Backend::host);
      ASSERT_TRUE(resident->updates_in_place());
      EXPECT_FALSE(host->updates_in_place());
      host->setup(split.local, {&split.off_rank, split.ghost_columns}, rows);
      resident->setup(stale.local, {&stale.off_rank, stale.ghost_columns, off_on_backend.data()}, rows);
      for (int round = 0; round < 3; ++round) {
        if (round > 0) {
          for (double& v : a.values) v = 1.5 * v + 1e-3 * std::sin(v);
          split.refresh_values(a);
          local_on_backend = split.local.values;
          std::copy(split.off_rank.values.begin(), split.off_rank.values.end(), off_on_backend.begin());
          host->update(split.local);
          BsrView v = view(stale.local);
          v.values = local_on_backend.data();
          resident->update_in_place(v);
        }
        const std::vector<double> b = my_rhs(a, rows);
        std::vector<double> x_host(b.size(), 0.0);
        const SolveStats st = host->solve(b, x_host);
        ASSERT_TRUE(st.converged()) << st.line();
        const Vector bv(Backend::host, std::span<const double>(b));
        Vector xv(Backend::host, b.size());
        xv.set_zero();
        const SolveStats sr = resident->solve(bv, xv);
        EXPECT_EQ(sr.iterations, st.iterations) << "round " << round;
        EXPECT_EQ(sr.residual_history, st.residual_history) << "round " << round;
        EXPECT_EQ(xv.to_host(), x_host) << "round " << round;
      }
      // From the host again: the stale first-round values, not the backend's.
      resident->update(stale.local);
      auto first = make_distributed_solver(spec, world());
      first->setup(stale.local, {&stale.off_rank, stale.ghost_columns}, rows);
      const std::vector<double> b = my_rhs(a, rows);
      std::vector<double> x_first(b.size(), 0.0), x_resident(b.size(), 0.0);
      first->solve(b, x_first);
      resident->solve(b, x_resident);
      EXPECT_EQ(x_resident, x_first);
    }
}

// Where the local solver cannot refresh on the backend, or the solve is not
// resident, the solve says so before any set-up.
TEST(ResidentSolve, OnlyResidentBlockJacobiWithAnInPlaceLocalSolverRefreshesInPlace) {
  EXPECT_FALSE(make_distributed_solver("fgmres+bjacobi(local=bilu0)", world(), Backend::host)->updates_in_place());
  EXPECT_FALSE(make_distributed_solver("fgmres+asm(overlap=1,local=block_jacobi)", world())->updates_in_place());
  EXPECT_FALSE(make_distributed_solver("fgmres+bjacobi(local=block_jacobi)", world())->updates_in_place());
  EXPECT_TRUE(
      make_distributed_solver("fgmres+bjacobi(local=block_jacobi)", world(), Backend::host)->updates_in_place());
}

// A decomposed run's LinearSolver takes vectors of the resident backend
// where they are (CompleteSolver::solves_on) and gives the host's solution.
TEST(ResidentSolve, APartitionedSolverSolvesVectorsWhereTheyAre) {
  if (ranks() == 1) GTEST_SKIP() << "one rank: make_partitioned_solver is make_solver";
  const BsrMatrix a = system_matrix();
  const auto rows = dist::RowDistribution::balanced(a.block_rows, ranks());
  const std::string spec = "bicgstab(rtol=1e-10,maxit=300)+bjacobi(local=bilu0)";
  auto host = make_partitioned_solver(spec);
  host->setup(dist::rows_of(a, rows, me()));
  const std::vector<double> b = my_rhs(a, rows);
  std::vector<double> x_host(b.size(), 0.0);
  const SolveStats st = host->solve(b, x_host);
  ASSERT_TRUE(st.converged()) << st.line();
  // make_partitioned_solver makes a resident solver from a method's backend=cuda; the host stands in here.
  auto resident = make_distributed_solver(spec, world(), Backend::host);
  resident->setup(dist::rows_of(a, rows, me()), rows);
  const Vector bv(Backend::host, std::span<const double>(b));
  Vector xv(Backend::host, b.size());
  xv.set_zero();
  EXPECT_EQ(resident->solve(bv, xv).iterations, st.iterations);
  EXPECT_EQ(xv.to_host(), x_host);
}

// What a resident CG solve moves between the backend and MPI: one exchange
// per product (the initial residual, one per iteration, the final residual
// check), each the send and receive items of the plan, 8 bytes a double; on
// the host backend nothing is a transfer between host and device. On a device
// the transfers are these bytes and the method's scalars (the GPU test bounds them).
TEST(ResidentSolve, StagesTheHaloOfEachProductAndNothingElse) {
  const BsrMatrix a = system_matrix(true);
  for (const auto& rows : layouts(a.block_rows)) {
    auto solver = make_distributed_solver("cg(rtol=1e-10,maxit=500)+jacobi", world(), Backend::host);
    solver->choose_halo_path(dist::HaloPath::staged);
    solver->setup(dist::rows_of(a, rows, me()), rows);
    EXPECT_STREQ(solver->halo_transport(), "staged");
    const auto blocks = dist::RankBlocks::split(a, rows, me());
    const HaloPlan plan = dist::matrix_halo_plan(world()->comm(), rows, blocks.ghost_columns);
    const std::uint64_t per_product = (plan.send_items.size() + plan.recv_items.size()) * std::size_t(a.block_size) * 8;
    const std::vector<double> b = my_rhs(a, rows);
    const Vector bv(Backend::host, std::span<const double>(b));
    Vector xv(Backend::host, b.size());
    xv.set_zero();
    const std::uint64_t staged_before = solver->halo_bytes_staged();
    const transfers::Totals before = transfers::totals();
    const SolveStats st = solver->solve(bv, xv);
    const transfers::Totals moved = transfers::since(before);
    ASSERT_TRUE(st.converged()) << st.line();
    EXPECT_EQ(solver->halo_bytes_staged() - staged_before, std::uint64_t(st.iterations + 2) * per_product);
    EXPECT_EQ(moved.to_device.bytes + moved.to_host.bytes, 0u);
    if (me() == 0)
      std::printf(
          "[ resident ] %d ranks, CG %d iterations: %llu halo bytes staged per solve on rank 0 (%llu a product)\n",
          ranks(), st.iterations, static_cast<unsigned long long>(solver->halo_bytes_staged() - staged_before),
          static_cast<unsigned long long>(per_product));
  }
}

// Restricted additive Schwarz stays on the host, and a local solver without
// kernels on the backend is refused: each error names the specification.
TEST(ResidentSolve, WhatCannotBeResidentIsRefusedNamingTheSpec) {
  const auto what = [](const std::string& spec, std::optional<Backend> resident) {
    try {
      make_distributed_solver(spec, world(), resident);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  const std::string asm1 = "fgmres+asm(overlap=1,local=bilu0)";
  EXPECT_NE(what(asm1, Backend::host).find("spec '" + asm1 + "'"), std::string::npos) << what(asm1, Backend::host);
  EXPECT_NE(what(asm1, Backend::host).find("overlap 1"), std::string::npos);
  const std::string on_cuda = "fgmres(backend=cuda)+asm(local=block_jacobi)";  // asm's overlap is 1 by default
  EXPECT_NE(what(on_cuda, std::nullopt).find("overlap 1) runs on the host only; on cuda"), std::string::npos)
      << what(on_cuda, std::nullopt);
  const std::string bilu0 = "fgmres(backend=cuda)+bjacobi(local=bilu0)";
  EXPECT_NE(what(bilu0, std::nullopt).find("the local solver has no cuda kernels"), std::string::npos)
      << what(bilu0, std::nullopt);
  EXPECT_EQ(what("fgmres+asm(overlap=1,local=bilu0)", std::nullopt), "accepted");  // on the host, as before
}

}  // namespace
}  // namespace tb
