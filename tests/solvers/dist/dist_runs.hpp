#pragma once
// The distributed banded solves the MPI tests run, on either backend: each
// rank solves its slab, and the full solution is gathered on every rank so that
// a run on the world and one on MPI_COMM_SELF can be compared in one program.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <memory>
#include <span>
#include <vector>

#include "../../common/systems.hpp"
#include "../banded/banded_systems.hpp"
#include "solvers/banded/gbcg.hpp"
#include "solvers/banded/gscg.hpp"
#include "solvers/core/memory.hpp"
#include "solvers/dist/mpi_communicator.hpp"

namespace tb::test::dist {

inline std::shared_ptr<const tb::dist::MpiCommunicator> world() {
  static auto w = std::make_shared<const tb::dist::MpiCommunicator>(MPI_COMM_WORLD);
  return w;
}
inline std::shared_ptr<const tb::dist::MpiCommunicator> self() {
  static auto s = std::make_shared<const tb::dist::MpiCommunicator>(MPI_COMM_SELF);
  return s;
}

struct Result {
  SolveStats stats;
  std::vector<double> x;  // the full solution
  long reductions = 0;    // global reductions of the solve
};

// This rank's rows of b on the backend.
inline Vector local_rows(const std::vector<double>& b, const comm::RowPartition& part, int me, Backend backend) {
  return Vector(backend, std::span<const double>(b).subspan(std::size_t(part.first(me)), std::size_t(part.rows(me))));
}

inline std::vector<double> gather(const comm::Communicator& comm, const comm::RowPartition& part, const Vector& x,
                                  std::size_t n) {
  const std::vector<double> mine = x.to_host();
  std::vector<double> all(n);
  comm.allgather(part, mine.data(), all.data());
  return all;
}

// One solve from x0 = 0 of this rank's rows, the full solution gathered.
template <class Solver>
Result solve_slab(Solver& solver, const std::vector<double>& b, const comm::Communicator& comm,
                  const comm::RowPartition& part, Backend backend) {
  const int me = comm.rank();
  const Vector bv = local_rows(b, part, me, backend);
  Vector xv(backend, std::size_t(part.rows(me)));
  xv.set_zero();
  Result r;
  r.stats = solver.solve(bv, xv);
  r.reductions = solver.times().reductions;
  r.x = gather(comm, part, xv, b.size());
  return r;
}

// GBCG on the slab a partition gives this rank of comm; the one-reduction
// variant cuts this rank's rows of A^T as well.
inline Result gbcg(const BsrMatrix& a, const std::vector<double>& b, std::shared_ptr<const comm::Communicator> comm,
                   const comm::RowPartition& part, double min_fill = 0.0,
                   banded::GbcgVariant variant = banded::GbcgVariant::one_reduction, Backend backend = Backend::host) {
  banded::BandedStop stop;
  stop.krylov.rtol = 1e-12;
  const int me = comm->rank();
  const banded::DiaMatrix slab = banded::dia_from_bsr(a, part.first(me), part.rows(me), nullptr, min_fill);
  banded::DiaMap map;
  const banded::DiaMatrix transposed =
      variant == banded::GbcgVariant::one_reduction
          ? banded::transposed_dia_from_bsr(a, part.first(me), part.rows(me), map, min_fill)
          : banded::DiaMatrix{};
  banded::Gbcg solver = variant == banded::GbcgVariant::one_reduction
                            ? banded::Gbcg(slab, transposed, comm, part, stop, backend)
                            : banded::Gbcg(slab, comm, part, stop, backend);
  return solve_slab(solver, b, *comm, part, backend);
}

inline Result gscg(const banded::StencilCoefficients& c, const std::vector<double>& b,
                   std::shared_ptr<const comm::Communicator> comm, const comm::RowPartition& part,
                   banded::GscgVariant variant = banded::GscgVariant::one_reduction, Backend backend = Backend::host) {
  banded::BandedStop stop;
  stop.krylov.rtol = 1e-12;
  banded::Gscg solver(c, comm, part, stop, backend, variant);
  return solve_slab(solver, b, *comm, part, backend);
}

// On two ranks of the world, evenly and unevenly split, with x on the backend:
// after the exchange each rank's extended vector holds its owned rows, the
// ghost rows from the other rank and zeros beyond the global ends (entry value
// = 100 + global row).
inline void expect_ghost_zones_filled(Backend backend) {
  const index_t n = 20, band = 4;
  for (const comm::RowPartition& part : {comm::balanced_partition(n, 2), comm::partition_from_sizes({3, 17})}) {
    const int me = world()->rank();
    auto ex = world()->make_exchange(part, band, backend);
    comm::GhostedVector x(backend, part.rows(me), band);
    std::vector<double> owned(std::size_t(part.rows(me)));
    for (index_t i = 0; i < part.rows(me); ++i) owned[i] = 100.0 + part.first(me) + i;
    memory::copy(x.owned(), backend, owned.data(), Backend::host, owned.size() * sizeof(double));
    for (int k = 0; k < ex->phases(); ++k) ex->post(k, x), ex->complete(k, x);
    std::vector<double> ext(std::size_t(part.rows(me) + 2 * band));
    memory::copy(ext.data(), Backend::host, x.ext(), backend, ext.size() * sizeof(double));
    for (index_t e = 0; e < index_t(ext.size()); ++e) {
      const index_t g = part.first(me) - band + e;
      EXPECT_EQ(ext[e], g < 0 || g >= n ? 0.0 : 100.0 + g) << "rank " << me << " global row " << g;
    }
  }
}

inline void expect_same(const Result& dist, const Result& one) {
  ASSERT_TRUE(one.stats.converged()) << one.stats.line();
  EXPECT_EQ(dist.stats.reason, one.stats.reason);
  EXPECT_EQ(dist.stats.iterations, one.stats.iterations);
  EXPECT_LT(test::max_abs_diff(dist.x, one.x), 1e-10 * std::max(1.0, test::max_abs(one.x)));
}

// gtest under MPI: every rank runs every test; the exit status is a failure
// when any rank failed.
inline int run_mpi_tests(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  const int failed = RUN_ALL_TESTS();
  int any = 0;
  MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return any;
}

}  // namespace tb::test::dist
