// Distributed solves resident on each rank's GPU (docs/distributed.md, "On a
// backend"), under mpiexec -n 2 and -n 3 (ranks share a GPU where there are
// fewer): the halo's received buffer on the device holds the ghost columns'
// values on the path this MPI gives (staged or CUDA-aware), and a resident
// solve on Backend::cuda gives the host path's solution, with no more crossing
// the bus than the staged halo and the method's scalars. Skipped, with the
// reason, where no GPU is visible.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "../dist_runs.hpp"
#include "solvers/core/array.hpp"
#include "solvers/core/transfers.hpp"
#include "solvers/dist/backend_halo_exchange.hpp"
#include "solvers/dist/halo_exchange.hpp"
#include "solvers/dist/world.hpp"
#include "solvers/factory/distributed_solver.hpp"
#include "solvers/matrix/generate.hpp"

namespace tb {
namespace {

using test::dist::world;

int me() { return world()->rank(); }
int ranks() { return world()->size(); }

class ResidentSolveGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    if (cuda_device_count() == 0)
      GTEST_SKIP() << cuda_unavailable_reason() << ": the resident distributed solve on cuda was not run";
    dist::bind_device_to_local_rank();
  }
};

BsrMatrix system_matrix(bool symmetric) {
  Stencil7Params p;
  p.nx = 12;
  p.ny = 10;
  p.nz = 8;
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

TEST_F(ResidentSolveGpu, TheReceivedBufferOnTheDeviceIsTheGhostColumnsValues) {
  const BsrMatrix a = system_matrix(false);
  const index_t bs = a.block_size;
  const auto rows = dist::RowDistribution::balanced(a.block_rows, ranks());
  const auto blocks = dist::RankBlocks::split(a, rows, me());
  const HaloPlan plan = dist::matrix_halo_plan(world()->comm(), rows, blocks.ghost_columns);
  std::vector<dist::HaloPath> paths{dist::HaloPath::staged};
  if (dist::mpi_takes_device_pointers()) paths.push_back(dist::HaloPath::cuda_aware);
  if (me() == 0)
    std::printf("[ resident ] default halo path on cuda: %s\n", to_string(dist::default_halo_path(Backend::cuda)));
  for (const auto path : paths) {
    dist::BackendHaloExchange halo(world()->comm(), plan, bs, Backend::cuda, path);
    std::vector<double> mine(std::size_t(rows.owned(me()) * bs));
    for (std::size_t i = 0; i < mine.size(); ++i) mine[i] = double(rows.first(me()) * bs + index_t(i));
    const Vector x(Backend::cuda, std::span<const double>(mine));
    halo.begin(x.data());
    const double* got = halo.end();
    std::vector<double> received(halo.received_items() * std::size_t(bs));
    memory::copy(received.data(), Backend::host, got, Backend::cuda, received.size() * sizeof(double));
    for (std::size_t g = 0; g < blocks.ghost_columns.size(); ++g)
      for (index_t c = 0; c < bs; ++c)
        ASSERT_EQ(received[g * std::size_t(bs) + std::size_t(c)], double(blocks.ghost_columns[g] * bs + c))
            << dist::to_string(path) << ", ghost " << g;
  }
}

// The device's reductions sum in another order than the host's: the
// iteration count may move by a few and the solutions agree to the reach of
// the tolerance (both solved to 1e-10 of the initial residual).
TEST_F(ResidentSolveGpu, ASolveOnTheDeviceGivesTheHostRun) {
  const std::vector<std::pair<std::string, bool>> cases{
      {"cg(rtol=1e-10,maxit=1000)+jacobi", true},
      {"bicgstab(rtol=1e-10,maxit=1000)+bjacobi(local=block_jacobi)", false},
      {"fgmres(restart=30,rtol=1e-10,maxit=1000)+bjacobi(local=multicolor)", false}};
  for (const auto& [spec, symmetric] : cases) {
    SCOPED_TRACE(spec);
    const BsrMatrix a = system_matrix(symmetric);
    const auto rows = dist::RowDistribution::balanced(a.block_rows, ranks());
    const std::vector<double> b = my_rhs(a, rows);
    auto host = make_distributed_solver(spec, world());
    host->setup(dist::rows_of(a, rows, me()), rows);
    std::vector<double> x_host(b.size(), 0.0);
    const SolveStats hs = host->solve(b, x_host);
    ASSERT_TRUE(hs.converged()) << hs.line();

    auto device = make_distributed_solver(spec, world(), Backend::cuda);
    device->setup(dist::rows_of(a, rows, me()), rows);
    if (me() == 0) std::printf("[ resident ] %s: halo %s\n", spec.c_str(), device->halo_transport());
    const Vector bv(Backend::cuda, std::span<const double>(b));
    Vector xv(Backend::cuda, b.size());
    xv.set_zero();
    const std::uint64_t staged_before = device->halo_bytes_staged();
    const transfers::Totals before = transfers::totals();
    const SolveStats ds = device->solve(bv, xv);
    const transfers::Totals moved = transfers::since(before);
    ASSERT_TRUE(ds.converged()) << ds.line();
    EXPECT_LE(std::abs(ds.iterations - hs.iterations), std::max(2, hs.iterations / 10));
    const std::vector<double> x_device = xv.to_host();
    EXPECT_LT(test::max_abs_diff(x_device, x_host), 1e-8 * std::max(1.0, test::max_abs(x_host)));
    // Across the bus: the staged halo, and per iteration the method's scalars:
    // its dots and norms, FGMRES(30)'s orthogonalisation at most 31 of them,
    // so 40 doubles an iteration bound every method here.
    const std::uint64_t staged = device->halo_bytes_staged() - staged_before;
    const std::uint64_t crossed = moved.to_device.bytes + moved.to_host.bytes;
    EXPECT_GE(crossed, staged);
    EXPECT_LE(crossed, staged + 40u * 8u * std::uint64_t(ds.iterations + 8));
    if (me() == 0)
      std::printf("[ resident ] %d iterations (host %d), %llu bytes crossed, %llu of them the staged halo\n",
                  ds.iterations, hs.iterations, static_cast<unsigned long long>(crossed),
                  static_cast<unsigned long long>(staged));
  }
}

// Split rows whose values are written on the device (a resident physics'
// Jacobian in the systems' SystemMatrix): the refresh in place moves nothing
// across the bus but the asynchronous ILU's singular-row flag back, and the
// solve of the new values gives the host's solution.
TEST_F(ResidentSolveGpu, SplitRowsOnTheDeviceRefreshInPlace) {
  const std::string spec =
      "fgmres(restart=30,rtol=1e-10,maxit=1000)+bjacobi(local=async_bilu(build_sweeps=2,apply_sweeps=3))";
  const BsrMatrix a = system_matrix(false);
  const auto rows = dist::RowDistribution::balanced(a.block_rows, ranks());
  const dist::RankBlocks split = dist::RankBlocks::split(a, rows, me());
  // The local block on the device as the SystemMatrix keeps it, and the off-rank values beside it.
  const Array<index_t> row_ptr(Backend::cuda, std::span<const index_t>(split.local.row_ptr));
  const Array<index_t> col_idx(Backend::cuda, std::span<const index_t>(split.local.col_idx));
  Vector local_on_device(Backend::cuda, std::span<const double>(split.local.values));
  Vector off_on_device(Backend::cuda, std::span<const double>(split.off_rank.values));
  auto device = make_distributed_solver(spec, world(), Backend::cuda);
  ASSERT_TRUE(device->updates_in_place());
  device->setup(split.local, {&split.off_rank, split.ghost_columns, off_on_device.data()}, rows);
  // New values, written on the device; the host's blocks keep the old ones.
  BsrMatrix next = a;
  for (double& x : next.values) x = 1.5 * x + 1e-3 * std::sin(x);
  const dist::RankBlocks next_split = dist::RankBlocks::split(next, rows, me());
  local_on_device.copy_from_host(next_split.local.values);
  off_on_device.copy_from_host(next_split.off_rank.values);
  const BsrView v{split.local.block_size, split.local.block_rows, split.local.block_cols,
                  row_ptr.data(),         col_idx.data(),         local_on_device.data()};
  const transfers::Totals before = transfers::totals();
  device->update_in_place(v);
  const transfers::Totals moved = transfers::since(before);
  EXPECT_LE(moved.to_device.bytes + moved.to_host.bytes, sizeof(index_t))
      << "the refresh in place moved more than the singular check's flag";

  auto host = make_distributed_solver(spec, world());
  host->setup(dist::rows_of(next, rows, me()), rows);
  const std::vector<double> b = my_rhs(next, rows);
  std::vector<double> x_host(b.size(), 0.0);
  const SolveStats hs = host->solve(b, x_host);
  ASSERT_TRUE(hs.converged()) << hs.line();
  const Vector bv(Backend::cuda, std::span<const double>(b));
  Vector xv(Backend::cuda, b.size());
  xv.set_zero();
  const SolveStats ds = device->solve(bv, xv);
  ASSERT_TRUE(ds.converged()) << ds.line();
  const std::vector<double> x_device = xv.to_host();
  EXPECT_LT(test::max_abs_diff(x_device, x_host), 1e-8 * std::max(1.0, test::max_abs(x_host)));
}

}  // namespace
}  // namespace tb
int main(int argc, char** argv) { return tb::test::dist::run_mpi_tests(argc, argv); }
