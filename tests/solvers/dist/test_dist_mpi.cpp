// Distributed banded solves (seed 004 §III-A..C) on the ranks of mpiexec -n 2,
// each checked against the same solve on MPI_COMM_SELF inside the same run:
// equal iteration counts and solutions within 1e-10, also when a rank owns
// no rows or fewer rows than the band.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>
#include <string>

#include "dist_runs.hpp"
#include "solvers/banded/complete_solvers.hpp"
#include "solvers/banded/dia_operator.hpp"
#include "solvers/dist/world.hpp"
#include "solvers/factory/registry.hpp"

namespace tb {
namespace {

using comm::RowPartition;
using namespace test::dist;

TEST(DistMpi, RunsOnTwoRanks) {
  EXPECT_EQ(world()->size(), 2);
  EXPECT_EQ(dist::world_or_self()->size(), 2);
}

TEST(DistMpi, ReduceSumsAndMaximaInOneCall) {
  const int me = world()->rank();
  double sums[2] = {1.0 + me, 10.0 * me};
  double maxima[1] = {me == 0 ? 5.0 : 3.0};
  world()->space().reduce(sums, 2, maxima, 1);
  EXPECT_EQ(sums[0], 3.0);
  EXPECT_EQ(sums[1], 10.0);
  EXPECT_EQ(maxima[0], 5.0);
}

TEST(DistMpi, GhostZonesHoldTheNeighboursEntries) { expect_ghost_zones_filled(Backend::host); }

constexpr banded::GbcgVariant gbcg_variants[] = {banded::GbcgVariant::one_reduction, banded::GbcgVariant::classic};

const char* name(banded::GbcgVariant v) { return v == banded::GbcgVariant::classic ? "classic" : "one reduction"; }

TEST(DistMpi, GbcgGivesTheOneRankIterationsAndSolution) {
  const BsrMatrix a = test::poisson7(9, 8, 7, false);
  const auto b = test::sine_rhs(std::size_t(a.rows()));
  for (const auto v : gbcg_variants) {
    SCOPED_TRACE(name(v));
    const Result one = gbcg(a, b, self(), comm::balanced_partition(a.block_rows, 1), 0.0, v);
    const Result two = gbcg(a, b, world(), comm::balanced_partition(a.block_rows, 2), 0.0, v);
    expect_same(two, one);
    // Three MPI_Allreduce per iteration, or one (plus the one that tests the
    // last iterate), besides r0's and the two reported residuals.
    EXPECT_EQ(two.reductions,
              v == banded::GbcgVariant::classic ? 3 * two.stats.iterations + 3 : two.stats.iterations + 4);
    // Uneven slabs, one thinner than the band (72 rows): its ghosts span both ranks' rows.
    expect_same(gbcg(a, b, world(), comm::partition_from_sizes({40, a.block_rows - 40}), 0.0, v), one);
  }
}

// Sparse far diagonals kept as the DIA remainder: they widen the band, so the
// ghost zones must carry the entries their rows read across the slab boundary.
TEST(DistMpi, GbcgWithASparseRemainderGivesTheOneRankRun) {
  const BsrMatrix a = test::banded_with_sparse_diagonals(120, {-10, -1, 0, 1, 10}, {-23, -21, 19, 22}, 7, 3);
  const auto b = test::sine_rhs(120);
  for (const auto v : gbcg_variants) {
    SCOPED_TRACE(name(v));
    const Result one = gbcg(a, b, self(), comm::balanced_partition(120, 1), 0.5, v);
    expect_same(gbcg(a, b, world(), comm::balanced_partition(120, 2), 0.5, v), one);
    expect_same(gbcg(a, b, world(), comm::partition_from_sizes({13, 107}), 0.5, v), one);
    // Pure DIA on the same system: the same solution.
    const Result pure = gbcg(a, b, self(), comm::balanced_partition(120, 1), 0.0, v);
    EXPECT_LT(test::max_abs_diff(pure.x, one.x), 1e-10 * std::max(1.0, test::max_abs(one.x)));
  }
}

TEST(DistMpi, GbcgWithARankOwningNoRows) {
  const BsrMatrix a = test::random_banded(50, {-6, -1, 0, 1, 6}, 4);
  const auto b = test::sine_rhs(50);
  for (const auto v : gbcg_variants) {
    SCOPED_TRACE(name(v));
    const Result one = gbcg(a, b, self(), comm::balanced_partition(50, 1), 0.0, v);
    expect_same(gbcg(a, b, world(), comm::partition_from_sizes({50, 0}), 0.0, v), one);
    expect_same(gbcg(a, b, world(), comm::partition_from_sizes({0, 50}), 0.0, v), one);
    // Fewer rows than ranks: the balanced split leaves rank 1 empty.
    const BsrMatrix tiny = test::random_banded(1, {0}, 2);
    const std::vector<double> tb{3.0};
    const Result t = gbcg(tiny, tb, world(), comm::balanced_partition(1, 2), 0.0, v);
    EXPECT_TRUE(t.stats.converged());
    EXPECT_NEAR(t.x[0], 3.0 / tiny.values[0], 1e-14);
  }
}

TEST(DistMpi, GscgGivesTheOneRankIterationsAndSolution) {
  const BsrMatrix a = test::poisson7(8, 7, 9);
  const auto c = banded::stencil_from_bsr(a, 8, 7, 9);
  const auto b = test::sine_rhs(std::size_t(a.rows()));
  for (const auto variant : {banded::GscgVariant::one_reduction, banded::GscgVariant::classic}) {
    const bool classic = variant == banded::GscgVariant::classic;
    SCOPED_TRACE(classic ? "classic" : "one reduction");
    const Result one = gscg(c, b, self(), comm::balanced_partition(a.block_rows, 1), variant);
    const Result two = gscg(c, b, world(), comm::balanced_partition(a.block_rows, 2), variant);
    expect_same(two, one);
    // Each reduction is one MPI_Allreduce: one per iteration (two classic),
    // plus r0's check and the two reported residuals.
    EXPECT_EQ(two.reductions, (classic ? 2 : 1) * two.stats.iterations + 3);
    expect_same(gscg(c, b, world(), comm::partition_from_sizes({a.block_rows, 0}), variant), one);
    expect_same(gscg(c, b, world(), comm::partition_from_sizes({30, a.block_rows - 30}), variant), one);
  }
}

TEST(DistMpi, FoundationKrylovMethodsRunDistributed) {
  const BsrMatrix nonsymmetric = test::poisson7(8, 6, 6, false), spd = test::poisson7(8, 6, 6, true);
  const auto b = test::sine_rhs(std::size_t(spd.rows()));
  for (const char* method : {"bicgstab", "gmres", "cg"}) {
    SCOPED_TRACE(method);
    const BsrMatrix& a = std::string(method) == "cg" ? spd : nonsymmetric;
    StopCriteria stop;
    stop.rtol = 1e-11;
    Result res[2];
    for (int d = 0; d < 2; ++d) {
      std::shared_ptr<const comm::Communicator> comm = d ? std::shared_ptr<const comm::Communicator>(world()) : self();
      const RowPartition part = comm::balanced_partition(a.block_rows, comm->size());
      const int me = comm->rank();
      const banded::DiaMatrix slab = banded::dia_from_bsr(a, part.first(me), part.rows(me));
      banded::DiaOperator op(slab, *comm, part, Backend::host);
      banded::SlabJacobi jac(slab, Backend::host);
      auto k = std::string(method) == "bicgstab" ? make_bicgstab(stop)
               : std::string(method) == "gmres"  ? make_gmres(stop, 20, false)
                                                 : make_cg(stop);
      k->set_vector_space(&comm->space());
      Vector bv(Backend::host,
                std::span<const double>(b).subspan(std::size_t(part.first(me)), std::size_t(part.rows(me))));
      Vector xv(Backend::host, std::size_t(part.rows(me)));
      xv.set_zero();
      res[d].stats = k->solve(op, jac, bv, xv);
      res[d].x.resize(b.size());
      comm->allgather(part, xv.data(), res[d].x.data());
    }
    expect_same(res[1], res[0]);
  }
}

TEST(DistMpi, RegistrySolversSliceTheirSlabAndReturnTheFullSolution) {
  const BsrMatrix a = test::poisson7(9, 7, 6);
  const auto b = test::sine_rhs(std::size_t(a.rows()));
  for (const char* spec : {"bicgstab_dia(rtol=1e-12)", "cg_stencil(nx=9,ny=7,nz=6,rtol=1e-12)"}) {
    auto s = make_solver(spec);
    s->setup(a);
    std::vector<double> x(b.size(), 0.0);
    const SolveStats st = s->solve(b, x);
    ASSERT_TRUE(st.converged()) << spec;
    EXPECT_LT(test::max_abs_diff(x, test::direct_solve(a, b)), 1e-9) << spec;
    // Every rank holds the same full solution.
    std::vector<double> other(x.size());
    MPI_Allreduce(x.data(), other.data(), int(x.size()), MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    EXPECT_EQ(other, x) << spec;
    EXPECT_NEAR(st.final_residual, residual_norm(a, x, b), 1e-12 * st.initial_residual) << spec;
  }
  auto keep = make_solver("bicgstab_dia(rtol=1e-8)");
  keep->setup(a);
  std::vector<double> x(b.size(), 0.0);
  keep->solve(b, x);
  // The time split the benchmark reads: both communications took time.
  const auto* typed = dynamic_cast<const banded::DiaBicgstabSolver*>(keep->complete());
  ASSERT_NE(typed, nullptr);
  EXPECT_GT(typed->times().halo, 0.0);
  EXPECT_GT(typed->times().reduction, 0.0);
}

// relative_to=b: the target is rtol times the whole system's ||b||, reduced
// over the ranks (each rank's slab alone holds about half of it).
TEST(DistMpi, RtolRelativeToTheRightHandSideUsesTheWholeSystemsNorm) {
  const BsrMatrix a = test::poisson7(9, 7, 6);
  const auto b = test::sine_rhs(std::size_t(a.rows()));
  double bnorm = 0.0;
  for (double v : b) bnorm += v * v;
  bnorm = std::sqrt(bnorm);
  std::vector<double> x0 = test::direct_solve(a, b);
  for (std::size_t i = 0; i < x0.size(); ++i) x0[i] *= 1.0 + 1e-4 * std::sin(0.37 * double(i));
  for (const char* spec :
       {"bicgstab_dia(rtol=1e-6,relative_to=b)", "cg_stencil(nx=9,ny=7,nz=6,rtol=1e-6,relative_to=b)"}) {
    auto s = make_solver(spec);
    s->setup(a);
    std::vector<double> x = x0;
    const SolveStats st = s->solve(b, x);
    ASSERT_TRUE(st.converged()) << st.line();
    EXPECT_NEAR(st.target_residual, 1e-6 * bnorm, 1e-12 * bnorm) << st.line();
    EXPECT_LE(st.residual_history.back(), st.target_residual) << st.line();
    EXPECT_GT(st.residual_history[st.residual_history.size() - 2], st.target_residual) << st.line();
  }
}

}  // namespace
}  // namespace tb

int main(int argc, char** argv) { return tb::test::dist::run_mpi_tests(argc, argv); }
