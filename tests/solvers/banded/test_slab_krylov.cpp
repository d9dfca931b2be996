// The Foundation's Krylov methods on a DIA slab operator with the slab's own
// Jacobi (the building blocks of the distributed runs), on one rank: the same
// iterations as the BSR operator with point Jacobi.
#include <gtest/gtest.h>

#include "../../common/systems.hpp"
#include "banded_systems.hpp"
#include "solvers/banded/dia_operator.hpp"
#include "solvers/factory/registry.hpp"

namespace tb {
namespace {

TEST(SlabKrylov, SameIterationsAsTheBsrOperator) {
  const BsrMatrix a = test::poisson7(7, 6, 5, false);
  const auto b = test::sine_rhs(std::size_t(a.rows()));
  const banded::DiaMatrix d = banded::dia_from_bsr(a);
  const auto part = comm::balanced_partition(a.block_rows, 1);
  for (const char* method : {"bicgstab", "gmres"}) {
    auto bsr = make_solver(std::string(method) + "(rtol=1e-10)+jacobi");
    bsr->setup(a);
    std::vector<double> xb(b.size(), 0.0);
    const SolveStats sb = bsr->solve(b, xb);

    banded::DiaOperator op(d, *comm::self_communicator(), part, Backend::host);
    banded::SlabJacobi jac(d, Backend::host);
    StopCriteria stop;
    stop.rtol = 1e-10;
    auto krylov = std::string(method) == "gmres" ? make_gmres(stop, 30, false) : make_bicgstab(stop);
    Vector bv(Backend::host, std::span<const double>(b)), xv(Backend::host, b.size());
    xv.set_zero();
    const SolveStats sd = krylov->solve(op, jac, bv, xv);
    ASSERT_TRUE(sd.converged()) << method;
    EXPECT_EQ(sd.iterations, sb.iterations) << method;
    EXPECT_LT(test::max_abs_diff(xv.to_host(), xb), 1e-9 * test::max_abs(xb)) << method;
  }
  banded::SlabJacobi jac(d, Backend::host);
  EXPECT_THROW(jac.setup(a, Backend::host), Error);
}

}  // namespace
}  // namespace tb
