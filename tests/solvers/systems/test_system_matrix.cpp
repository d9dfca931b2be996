// Where a system's values live and what moves between host and device
// (SystemMatrix, SystemSet's device path), with host memory standing in for a
// device: MemoryStorage counts its copies at the counting point the CUDA
// copies use (transfers::count), and the bookkeeping under test is the one a
// CUDA run goes through (SystemMatrix over cuda_storage()).
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "../../common/memory_storage.hpp"
#include "solvers/core/device_launches.hpp"
#include "solvers/core/timer.hpp"
#include "solvers/core/transfers.hpp"
#include "solvers/matrix/generate.hpp"
#include "solvers/systems/step_clock.hpp"
#include "solvers/systems/system_matrix.hpp"
#include "solvers/systems/system_set.hpp"

namespace tb {
namespace {

using namespace systems;
using test::MemoryStorage;

BsrMatrix test_matrix() {
  Stencil7Params p;
  p.nx = 4, p.ny = 3, p.nz = 2, p.block_size = 2;
  return generate_stencil7(p);
}

std::uint64_t pattern_bytes(const BsrMatrix& a) { return (a.row_ptr.size() + a.col_idx.size()) * sizeof(index_t); }
std::uint64_t value_bytes(const BsrMatrix& a) { return a.values.size() * sizeof(double); }

// The device's values set to a's, scaled, as a device assembly would write them.
void write_on_device(DeviceValues v, const BsrMatrix& a, double scale) {
  ASSERT_EQ(v.count, a.values.size());
  for (std::size_t k = 0; k < v.count; ++k) v.values[k] = scale * a.values[k];
}

TEST(SystemMatrix, ThePatternGoesToTheDeviceOncePerPattern) {
  MemoryStorage device;
  SystemMatrix m(device);
  const BsrMatrix a = test_matrix();
  transfers::Totals before = transfers::totals();
  m.set_pattern(a);
  transfers::Totals moved = transfers::since(before);
  EXPECT_EQ(moved.to_device.copies, 2u);
  EXPECT_EQ(moved.to_device.bytes, pattern_bytes(a));
  EXPECT_EQ(moved.to_host.copies, 0u);
  EXPECT_EQ(m.generations().pattern, 1u);
  before = transfers::totals();
  m.set_pattern(a);  // the same pattern: nothing
  moved = transfers::since(before);
  EXPECT_EQ(moved.to_device.copies + moved.to_host.copies, 0u);
  EXPECT_EQ(m.generations().pattern, 1u);
  BsrMatrix other = a;  // a block dropped: a new pattern
  other.col_idx.erase(other.col_idx.begin() + 1);
  other.row_ptr.back() -= 1;
  for (std::size_t r = 1; r + 1 < other.row_ptr.size(); ++r) other.row_ptr[r] -= 1;
  other.values.resize(other.values.size() - std::size_t(other.block_entries()));
  m.set_pattern(other);
  EXPECT_EQ(m.generations().pattern, 2u);
}

// A pattern that changes a little each step (a moving body's ghost rows)
// reuses the device memory it fits in: the first pattern is laid out exactly,
// a larger one grows a quarter beyond its need, a smaller or equal one
// allocates nothing; each still copies its own row offsets and columns.
TEST(SystemMatrix, APatternThatFitsReusesTheDevicesMemory) {
  MemoryStorage device;
  SystemMatrix m(device);
  const BsrMatrix a = test_matrix();
  BsrMatrix smaller = a;  // the last block dropped
  smaller.col_idx.pop_back();
  smaller.row_ptr.back() -= 1;
  smaller.values.resize(smaller.values.size() - std::size_t(smaller.block_entries()));
  Stencil7Params p;
  p.nx = 4, p.ny = 3, p.nz = 3, p.block_size = 2;
  const BsrMatrix larger = generate_stencil7(p);
  m.set_pattern(a);
  EXPECT_EQ(device.allocations, 3);  // row offsets, columns, values
  const transfers::Totals before = transfers::totals();
  m.set_pattern(smaller);
  EXPECT_EQ(transfers::since(before).to_device.bytes, pattern_bytes(smaller));
  EXPECT_EQ(m.device_values().count, smaller.values.size());
  m.set_pattern(a);
  EXPECT_EQ(device.allocations, 3) << "both fit in the first pattern's memory";
  m.set_pattern(larger);
  EXPECT_EQ(device.allocations, 6);
  m.set_pattern(a);
  m.set_pattern(larger);
  EXPECT_EQ(device.allocations, 6) << "the larger pattern's memory serves both";
  EXPECT_EQ(m.generations().pattern, 6u);
  write_on_device(m.device_values(), larger, 1.0);
  m.values_written_on_device();
  EXPECT_EQ(m.on_host().values, larger.values);
}

// Values written on the device and read there: nothing moves, step after step;
// read on the host: one copy back per change, never two.
TEST(SystemMatrix, ValuesWrittenOnTheDeviceMoveOnlyToAHostReader) {
  MemoryStorage device;
  SystemMatrix m(device);
  const BsrMatrix a = test_matrix();
  m.set_pattern(a);
  for (int step = 1; step <= 4; ++step) {
    const transfers::Totals before = transfers::totals();
    write_on_device(m.device_values(), a, double(step));
    m.values_written_on_device();
    EXPECT_EQ(m.generations().values, std::uint64_t(step));
    const BsrView v = m.on_device();
    EXPECT_EQ(v.values[3], double(step) * a.values[3]);
    const transfers::Totals moved = transfers::since(before);
    EXPECT_EQ(moved.to_device.copies + moved.to_host.copies, 0u) << "step " << step;
  }
  EXPECT_EQ(m.host_value_bytes(), 0u) << "no host copy of values the host never read";
  for (int step = 1; step <= 3; ++step) {
    const transfers::Totals before = transfers::totals();
    write_on_device(m.device_values(), a, 0.5 * step);
    m.values_written_on_device();
    EXPECT_EQ(m.on_host().values[5], 0.5 * step * a.values[5]);
    EXPECT_EQ(m.on_host().values[5], 0.5 * step * a.values[5]);  // read again: no second copy
    const transfers::Totals moved = transfers::since(before);
    EXPECT_EQ(moved.to_host.copies, 1u) << "step " << step;
    EXPECT_EQ(moved.to_host.bytes, value_bytes(a)) << "step " << step;
    EXPECT_EQ(moved.to_device.copies, 0u) << "step " << step;
  }
  EXPECT_EQ(m.host_value_bytes(), value_bytes(a));
}

// Values filled on the host: read there, nothing moves; read on the device,
// one copy there per change.
TEST(SystemMatrix, ValuesFilledOnTheHostMoveOnlyToADeviceReader) {
  MemoryStorage device;
  SystemMatrix m(device);
  BsrMatrix a = test_matrix();
  m.values_written_on_host(a);  // the first: the pattern too
  for (int step = 1; step <= 3; ++step) {
    for (double& v : a.values) v *= 1.5;
    transfers::Totals before = transfers::totals();
    m.values_written_on_host(a);
    EXPECT_EQ(m.on_host().values[2], a.values[2]);
    transfers::Totals moved = transfers::since(before);
    EXPECT_EQ(moved.to_device.copies + moved.to_host.copies, 0u);
    before = transfers::totals();
    EXPECT_EQ(m.on_device().values[2], a.values[2]);
    EXPECT_EQ(m.on_device().values[2], a.values[2]);
    moved = transfers::since(before);
    EXPECT_EQ(moved.to_device.copies, 1u);
    EXPECT_EQ(moved.to_device.bytes, value_bytes(a));
  }
}

// Split rows (a decomposed run's piece): the off-rank blocks are laid out
// beside the values and move with them, on the same side at the same time:
// written on the device, nothing moves until a host reader takes both, once.
TEST(SystemMatrix, SplitRowsOffRankBlocksMoveWithTheValues) {
  MemoryStorage device;
  SystemMatrix m(device);
  const BsrMatrix a = test_matrix();
  BsrMatrix off;  // three ghost columns, blocks in rows 0 and 5
  off.block_size = a.block_size, off.block_rows = a.block_rows, off.block_cols = 3;
  off.row_ptr.assign(std::size_t(a.block_rows) + 1, 0);
  for (std::size_t r = 1; r < off.row_ptr.size(); ++r) off.row_ptr[r] = r > 5 ? 3 : r > 0 ? 2 : 0;
  off.col_idx = {0, 2, 1};
  off.values.assign(3 * std::size_t(off.block_entries()), 0.0);
  m.set_pattern(a, off);
  EXPECT_EQ(device.allocations, 4);  // row offsets, columns, values, off-rank values
  ASSERT_EQ(m.device_values().off_rank_count, off.values.size());
  EXPECT_EQ(m.off_rank_on_device(), m.device_values().off_rank_values);
  EXPECT_EQ(m.off_rank_on_host().col_idx, off.col_idx);
  for (int step = 1; step <= 3; ++step) {
    transfers::Totals before = transfers::totals();
    const DeviceValues v = m.device_values();
    write_on_device(v, a, double(step));
    for (std::size_t k = 0; k < v.off_rank_count; ++k) v.off_rank_values[k] = double(step) * double(k + 1);
    m.values_written_on_device();
    EXPECT_EQ(m.on_device().values[1], double(step) * a.values[1]);
    transfers::Totals moved = transfers::since(before);
    EXPECT_EQ(moved.to_device.copies + moved.to_host.copies, 0u) << "step " << step;
    before = transfers::totals();
    EXPECT_EQ(m.on_host().values[1], double(step) * a.values[1]);
    EXPECT_EQ(m.off_rank_on_host().values.back(), double(step) * double(off.values.size())) << "step " << step;
    m.on_host();  // read again: nothing
    moved = transfers::since(before);
    EXPECT_EQ(moved.to_host.copies, 2u) << "step " << step;
    EXPECT_EQ(moved.to_host.bytes, value_bytes(a) + value_bytes(off)) << "step " << step;
  }
  m.set_pattern(a);  // the rows no longer split: no off-rank values
  EXPECT_EQ(m.device_values().off_rank_count, 0u);
  EXPECT_EQ(m.generations().pattern, 2u);
}

// A symmetric M-matrix on test_matrix()'s pattern: CG converges on it.
BsrMatrix heat_matrix() {
  BsrMatrix a = test_matrix();
  for (double& v : a.values) v = -std::abs(v);
  for (index_t i = 0; i < a.block_rows; ++i) {
    const index_t d = a.find_block(i, i);
    for (index_t c = 0; c < a.block_size; ++c) a.block(d)[c * a.block_size + c] = 20.0;
  }
  return a;
}

// Solves the "heat" system of `set` written on its device for steps 1..4
// (each step's values a's times 1 + 0.1 step), checking every solution, and
// returns each step's transfers.
std::vector<transfers::Totals> solve_steps_written_on_device(SystemSet& set, SystemId heat, const BsrMatrix& a) {
  const std::vector<double> b(std::size_t(a.rows()), 1.0);
  std::vector<transfers::Totals> moved;
  for (long step = 1; step <= 4; ++step) {
    set.begin_step(step);
    const transfers::Totals before = transfers::totals();
    if (step == 1) set.set_pattern(heat, a);
    write_on_device(set.device_values(heat), a, 1.0 + 0.1 * double(step));
    set.values_written(heat);
    std::vector<double> x(b.size(), 0.0);
    const SolveStats st = set.solve(heat, b, x);
    EXPECT_TRUE(st.converged()) << st.line();
    moved.push_back(transfers::since(before));
    // The solution is of the values written this step.
    BsrMatrix scaled = a;
    for (double& v : scaled.values) v *= 1.0 + 0.1 * double(step);
    std::vector<double> ax(b.size());
    spmv(scaled, x.data(), ax.data());
    for (std::size_t i = 0; i < b.size(); ++i) EXPECT_NEAR(ax[i], b[i], 1e-9) << "step " << step;
  }
  return moved;
}

// The systems' device path with a driver that refreshes in place (CG +
// point Jacobi; FGMRES + seed 001's asynchronous block ILU, tb-comp2d's GPU
// flow solver; each on the side the device's values are read on): the
// pattern goes to the device once; Jacobi sets up where the values are (none
// come back), the asynchronous ILU reads them on the host once for the
// symbolic set-up of the first step; after it, nothing moves at all.
TEST(SystemSet, ValuesWrittenOnTheDeviceAreReadInPlaceByADriverThatCan) {
  for (const char* spec : {"cg(rtol=1e-12,maxit=500)+jacobi",
                           "fgmres(restart=30,rtol=1e-12,maxit=300)+async_bilu(build_sweeps=1,apply_sweeps=3)"}) {
    MemoryStorage device;
    SystemSet set({.specs = {{"heat", spec}}, .device_storage = &device});
    const SystemId heat = set.declare(SystemDeclaration::named("heat"));
    const BsrMatrix a = heat_matrix();
    const std::vector<transfers::Totals> moved = solve_steps_written_on_device(set, heat, a);
    EXPECT_EQ(moved[0].to_device.bytes, pattern_bytes(a)) << spec;
    // Jacobi sets up where the values are; the asynchronous ILU's symbolic set-up reads them on the host once.
    const bool sets_up_in_place = std::string(spec).find("jacobi") != std::string::npos;
    EXPECT_EQ(moved[0].to_host.bytes, sets_up_in_place ? 0u : value_bytes(a)) << spec;
    for (std::size_t step = 1; step < moved.size(); ++step) {
      EXPECT_EQ(moved[step].to_device.bytes, 0u) << spec << ", step " << step + 1;
      EXPECT_EQ(moved[step].to_host.bytes, 0u) << spec << ", step " << step + 1;
    }
  }
}

// A driver that reads its values on the host (sequential BILU(0)) costs one
// copy of the values back per change of values, the same every step after
// the first (which also lays out the pattern), and nothing else moves.
TEST(SystemSet, ValuesWrittenOnTheDeviceComeBackOncePerChangeToAHostReader) {
  MemoryStorage device;
  SystemSet set({.specs = {{"heat", "cg(rtol=1e-12,maxit=500)+bilu0"}}, .device_storage = &device});
  const SystemId heat = set.declare(SystemDeclaration::named("heat"));
  const BsrMatrix a = heat_matrix();
  const std::vector<transfers::Totals> moved = solve_steps_written_on_device(set, heat, a);
  for (std::size_t step = 0; step < moved.size(); ++step) {
    EXPECT_EQ(moved[step].to_device.bytes, step == 0 ? pattern_bytes(a) : 0u) << "step " << step + 1;
    EXPECT_EQ(moved[step].to_host.bytes, value_bytes(a)) << "step " << step + 1;
    EXPECT_EQ(moved[step].to_host.copies, 1u) << "step " << step + 1;
  }
}

// Values changed on the device but not declared written: no new generation,
// so the solvers neither compare nor refresh, and nothing moves.
TEST(SystemSet, ValuesNotDeclaredWrittenAreNotRefreshed) {
  for (const char* spec : {"cg(rtol=1e-12,maxit=500)+jacobi", "cg(rtol=1e-12,maxit=500)+bilu0"}) {
    MemoryStorage device;
    SystemSet set({.specs = {{"heat", spec}}, .device_storage = &device});
    const SystemId heat = set.declare(SystemDeclaration::named("heat"));
    const BsrMatrix a = heat_matrix();
    solve_steps_written_on_device(set, heat, a);
    set.begin_step(5);
    write_on_device(set.device_values(heat), a, 9.0);
    const transfers::Totals before = transfers::totals();
    const std::vector<double> b(std::size_t(a.rows()), 1.0);
    std::vector<double> x(b.size(), 0.0);
    const SolveStats st = set.solve(heat, b, x);
    const transfers::Totals moved = transfers::since(before);
    EXPECT_EQ(moved.to_device.copies + moved.to_host.copies, 0u) << spec;
    EXPECT_EQ(st.setup_seconds, 0.0) << spec;  // no refresh
    // The preconditioner is step 4's; CG still solves the matrix it applies.
    ASSERT_TRUE(st.converged()) << spec << ": " << st.line();
  }
}

// b and x on the storage's side (Vectors): a driver there solves them where they are.
TEST(SystemSet, VectorsOnTheDeviceAreSolvedWhereTheyAre) {
  MemoryStorage device;
  SystemSet set({.specs = {{"heat", "bicgstab(rtol=1e-12,maxit=500)+block_jacobi"}}, .device_storage = &device});
  const SystemId heat = set.declare(SystemDeclaration::named("heat"));
  const BsrMatrix a = heat_matrix();
  set.set_pattern(heat, a);
  write_on_device(set.device_values(heat), a, 1.0);
  set.values_written(heat);
  std::vector<double> ones(std::size_t(a.rows()), 1.0);
  const Vector b(Backend::host, std::span<const double>(ones));
  Vector x(Backend::host, ones.size());
  x.set_zero();
  ASSERT_TRUE(set.solve(heat, b, x).converged());
  const transfers::Totals before = transfers::totals();
  write_on_device(set.device_values(heat), a, 2.0);
  set.values_written(heat);
  x.set_zero();
  ASSERT_TRUE(set.solve(heat, b, x).converged());
  EXPECT_EQ(transfers::since(before).to_host.bytes + transfers::since(before).to_device.bytes, 0u);
  std::vector<double> ax(ones.size());
  spmv(a, x.data(), ax.data());
  for (std::size_t i = 0; i < ones.size(); ++i) EXPECT_NEAR(2.0 * ax[i], 1.0, 1e-9);
  EXPECT_EQ(set.driver_records().size(), 2u);
}

// The clock's accounts and the transfers made in them add up to the time it ran.
TEST(StepClock, AccountsAndTransfersAddUpToTheWallTime) {
  StepClock clock;
  WallTimer wall;
  clock.start(Account::harness);
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  double solve_alone = 0.0;  // the solve's time outside the probe, as this test saw it
  {
    const StepClock::Scope solve(clock, Account::linear_solve);
    const WallTimer own;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    transfers::count(transfers::Direction::to_device, 64, 0.004);  // 4 ms of it a copy
    solve_alone = own.seconds();
    {
      const StepClock::Scope held(clock, Account::probe, true);
      clock.enter(Account::linear_setup);  // held: still the probe's
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  const StepAccounts a = clock.read();
  const double elapsed = wall.seconds();
  EXPECT_NEAR(a.total(), elapsed, 1e-3);
  EXPECT_GE(a[Account::harness], 0.0095);
  // Less the copy; measured against the scope's own time, not the sleep's,
  // which a loaded machine stretches.
  EXPECT_NEAR(a[Account::linear_solve], solve_alone - 0.004, 1e-3);
  EXPECT_GE(a[Account::probe], 0.0045);
  EXPECT_EQ(a[Account::linear_setup], 0.0);
  EXPECT_EQ(a.transfers.to_device.bytes, 64u);
  EXPECT_DOUBLE_EQ(a.transfers.to_device.seconds, 0.004);
  EXPECT_EQ(clock.current(), Account::harness);
}

// A step's launches are its own: take() starts the next step's count.
TEST(StepClock, CountsTheDeviceLaunchesOfEachStep) {
  StepClock clock;
  clock.start(Account::harness);
  count_device_launch();
  count_device_launch();
  EXPECT_EQ(clock.read().launches, 2);
  EXPECT_EQ(clock.take().launches, 2);
  count_device_launch();
  EXPECT_EQ(clock.take().launches, 1);
  EXPECT_EQ(clock.read().launches, 0);
}

}  // namespace
}  // namespace tb
