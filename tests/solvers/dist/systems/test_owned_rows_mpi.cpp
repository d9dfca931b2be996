// Seed 004's GBCG on rows the ranks assembled apart (docs/distributed.md), under
// mpiexec -n 2 and -n 3: the slabs each rank builds from its own rows (A's
// and A^T's, the latter from entries other ranks send) are those cut from the
// whole matrix, before and after an update; bicgstab_dia over owned rows
// repeats the replicated solver's iterations and solution bit for bit, on
// even and uneven splits and with a rank that owns nothing.
#include <gtest/gtest.h>
#include <mpi.h>

#include <string>
#include <vector>

#include "../../banded/banded_systems.hpp"
#include "../dist_runs.hpp"
#include "solvers/banded/complete_solvers.hpp"
#include "solvers/banded/owned_rows.hpp"
#include "solvers/dist/row_distribution.hpp"
#include "solvers/factory/partitioned_solver.hpp"
#include "solvers/factory/registry.hpp"

namespace tb {
namespace {

using test::dist::world;

// Even shares, then uneven ones where (with three ranks) the middle rank owns nothing.
std::vector<std::vector<index_t>> splits(index_t n) {
  const int ranks = world()->size();
  const auto balanced = comm::balanced_partition(n, ranks);
  std::vector<index_t> even, uneven(std::size_t(ranks), 0);
  for (int q = 0; q < ranks; ++q) even.push_back(balanced.rows(q));
  uneven.front() = n / 3;
  uneven.back() = n - n / 3;
  return {even, uneven};
}

BsrMatrix my_rows(const BsrMatrix& a, const std::vector<index_t>& counts) {
  return dist::rows_of(a, dist::RowDistribution::from_counts(counts), world()->rank());
}

// Sparse far diagonals (an immersed boundary's interpolation rows) reach
// past the neighbouring rank's rows when a slab is thin.
BsrMatrix immersed_like() { return test::banded_with_sparse_diagonals(150, {-12, -1, 0, 1, 12}, {-47, -25, 31}, 4, 6); }

TEST(OwnedRowsDia, SlabsEqualThoseOfTheWholeMatrix) {
  BsrMatrix a = immersed_like();
  for (const auto& counts : splits(a.block_rows)) {
    const int me = world()->rank();
    const auto part = comm::partition_from_sizes(counts);
    banded::OwnedRowsDia owned(my_rows(a, counts), *world(), 0.5, true);
    EXPECT_EQ(owned.partition().starts, part.starts);
    for (int round = 0; round < 2; ++round) {
      SCOPED_TRACE(std::string(round ? "after an update" : "at set-up") + ", rank " + std::to_string(me) + " of " +
                   std::to_string(world()->size()) + ", " + std::to_string(counts.front()) + " rows on rank 0");
      banded::DiaMap map;
      test::expect_same_dia(owned.slab(), banded::dia_from_bsr(a, part.first(me), part.rows(me), nullptr, 0.5));
      test::expect_same_dia(owned.transposed_slab(),
                            banded::transposed_dia_from_bsr(a, part.first(me), part.rows(me), map, 0.5));
      for (std::size_t k = 0; k < a.values.size(); ++k) a.values[k] *= 1.0 + 0.02 * double(k % 3);
      owned.update_values(my_rows(a, counts), *world());
    }
    // The far diagonals reach other ranks' rows: A^T's entries did travel.
    unsigned long received = owned.received_entries();
    MPI_Allreduce(MPI_IN_PLACE, &received, 1, MPI_UNSIGNED_LONG, MPI_SUM, MPI_COMM_WORLD);
    EXPECT_GT(received, 0u);
  }
}

// The one-reduction and classic variants, as the registry builds them.
TEST(OwnedRowsDia, BicgstabDiaOnOwnedRowsRepeatsTheReplicatedSolve) {
  const BsrMatrix a = immersed_like();
  const auto b = test::sine_rhs(std::size_t(a.block_rows));
  for (const char* spec : {"bicgstab_dia(rtol=1e-10)", "bicgstab_dia(rtol=1e-10,reductions=classic,min_fill=0)"}) {
    // The replicated solver cuts balanced slabs; a solver on owned rows of the
    // same split must do exactly the same arithmetic.
    auto replicated = make_solver(spec);
    replicated->setup(a);
    std::vector<double> x_whole(b.size(), 0.0);
    const SolveStats whole = replicated->solve(b, x_whole);
    ASSERT_TRUE(whole.converged()) << whole.line();
    for (const auto& counts : splits(a.block_rows)) {
      SCOPED_TRACE(std::string(spec) + ", " + std::to_string(counts.front()) + " rows on rank 0");
      const auto rows = dist::RowDistribution::from_counts(counts);
      const int me = world()->rank();
      auto owned = make_partitioned_solver(spec);
      ASSERT_NE(owned->complete(), nullptr);
      EXPECT_TRUE(owned->complete()->spans_ranks());
      owned->setup(my_rows(a, counts));
      const auto first = std::ptrdiff_t(rows.first(me)), mine = std::ptrdiff_t(rows.owned(me));
      const std::vector<double> b_mine(b.begin() + first, b.begin() + first + mine);
      std::vector<double> x(std::size_t(mine), 0.0);
      const SolveStats st = owned->solve(b_mine, x);
      ASSERT_TRUE(st.converged()) << st.line();
      if (counts == splits(a.block_rows).front()) {
        EXPECT_EQ(st.iterations, whole.iterations);
        EXPECT_EQ(st.final_residual, whole.final_residual);
        for (std::ptrdiff_t i = 0; i < mine; ++i) EXPECT_EQ(x[std::size_t(i)], x_whole[std::size_t(first + i)]) << i;
      } else {
        // Another split sums the dots in another order: the same solution to the tolerance.
        const auto exact = test::direct_solve(a, b);
        for (std::ptrdiff_t i = 0; i < mine; ++i)
          EXPECT_NEAR(x[std::size_t(i)], exact[std::size_t(first + i)], 1e-8 * test::max_abs(exact)) << i;
      }
    }
  }
}

// The immersed-like system over the uneven split: this rank's share of it.
struct RankShare {
  BsrMatrix a = immersed_like();
  std::vector<double> b = test::sine_rhs(std::size_t(a.block_rows));
  std::vector<index_t> counts = splits(a.block_rows).back();
  dist::RowDistribution rows = dist::RowDistribution::from_counts(counts);
  int me = world()->rank();
  std::ptrdiff_t first = std::ptrdiff_t(rows.first(me)), mine = std::ptrdiff_t(rows.owned(me));
  std::vector<double> b_mine{b.begin() + first, b.begin() + first + mine};
};

// A time loop's second step: new values on the same pattern, then a new pattern.
TEST(OwnedRowsDia, UpdateAndANewPatternFollowTheMatrix) {
  RankShare share;
  auto& [a, b, counts, rows, me, first, mine, b_mine] = share;
  auto solver = make_partitioned_solver("bicgstab_dia(rtol=1e-11)");
  solver->setup(my_rows(a, counts));
  for (double& v : a.values) v *= 2.0;
  BsrMatrix other = test::banded_with_sparse_diagonals(150, {-3, 0, 3}, {29}, 5, 7);
  for (const BsrMatrix* m : {&a, &other}) {
    if (m == &a)
      solver->update(my_rows(a, counts));
    else
      solver->setup(my_rows(other, counts));
    std::vector<double> x(std::size_t(mine), 0.0);
    const SolveStats st = solver->solve(b_mine, x);
    ASSERT_TRUE(st.converged()) << st.line();
    const auto exact = test::direct_solve(*m, b);
    for (std::ptrdiff_t i = 0; i < mine; ++i)
      EXPECT_NEAR(x[std::size_t(i)], exact[std::size_t(first + i)], 1e-8 * test::max_abs(exact)) << i;
  }
  // A pattern that differs on one rank only is refused on every rank (none waits).
  BsrMatrix changed = my_rows(other, counts);
  if (me == 0 && !changed.col_idx.empty()) {
    changed.col_idx.pop_back();
    changed.values.pop_back();
    changed.row_ptr.back() -= 1;
  }
  EXPECT_THROW(solver->update(changed), Error);
}

// A physics that assembles its rows split (tb-incomp's slabs) hands
// bicgstab_dia the local block and the off-rank rows (take_split_rows): the
// solver joins them into global columns and solves as on the rows themselves,
// bit for bit, through an update too.
TEST(OwnedRowsDia, SplitRowsAreJoinedForTheBandedSolver) {
  RankShare share;
  auto& [a, b, counts, rows, me, first, mine, b_mine] = share;
  dist::RankBlocks split = dist::RankBlocks::split(a, rows, me);
  auto joined = make_partitioned_solver("bicgstab_dia(rtol=1e-11)");
  auto plain = make_partitioned_solver("bicgstab_dia(rtol=1e-11)");
  ASSERT_EQ(take_split_rows(*joined, {&split.off_rank, split.ghost_columns}), world()->size() > 1);
  joined->setup(world()->size() > 1 ? split.local : my_rows(a, counts));
  plain->setup(my_rows(a, counts));
  for (int round = 0; round < 2; ++round) {
    std::vector<double> x_joined(std::size_t(mine), 0.0), x_plain(std::size_t(mine), 0.0);
    const SolveStats st = joined->solve(b_mine, x_joined);
    ASSERT_TRUE(st.converged()) << st.line();
    EXPECT_EQ(plain->solve(b_mine, x_plain).iterations, st.iterations);
    EXPECT_EQ(x_joined, x_plain) << "round " << round;
    for (double& v : a.values) v *= 2.0;
    split.refresh_values(a);
    joined->update(world()->size() > 1 ? split.local : my_rows(a, counts));
    plain->update(my_rows(a, counts));
  }
}

}  // namespace
}  // namespace tb
