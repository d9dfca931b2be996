// The numeric refresh from values already on the solver's backend
// (Preconditioner::update_in_place, LinearSolver::update(BsrView)): on the
// host it must give the bits of the refresh from a host matrix, for every
// preconditioner that offers it (identity, point and block Jacobi, FGBILU's
// host variants and its ACC variant's host loops), and the kernels it runs
// (invert_diagonal, gather_blocks) their sequential twins' bits.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "../../common/bits.hpp"
#include "solvers/core/error.hpp"
#include "solvers/factory/registry.hpp"
#include "solvers/fgbilu/kernels.hpp"
#include "solvers/matrix/generate.hpp"
#include "solvers/matrix/stencil7_matrix.hpp"
#include "solvers/precond/kernels.hpp"

namespace tb {
namespace {

using test::same_bits;

BsrMatrix generated(index_t nx, index_t ny, index_t nz, index_t n, unsigned seed) {
  Stencil7Params p;
  p.nx = nx, p.ny = ny, p.nz = nz, p.block_size = n, p.seed = seed;
  return generate_stencil7(p);
}

struct Specs : ::testing::TestWithParam<const char*> {};

// Set up on one matrix, refreshed to another of the same pattern: from the
// host matrix (update) and from its arrays in place (update(BsrView)); the
// solves of the two are the same bits, iteration for iteration, and those of
// a fresh set-up on the second matrix.
TEST_P(Specs, InPlaceRefreshGivesTheHostRefreshsBits) {
  const BsrMatrix first = generated(12, 10, 9, 3, 5), second = generated(12, 10, 9, 3, 6);
  const std::string spec = std::string("bicgstab(rtol=1e-10,maxit=300)+") + GetParam();
  auto by_host = make_solver(spec), in_place = make_solver(spec);
  ASSERT_TRUE(in_place->updates_in_place()) << spec;
  by_host->setup(first);
  in_place->setup(first);
  by_host->update(second);
  in_place->update(view(second));
  const std::vector<double> b(std::size_t(second.rows()), 1.0);
  std::vector<double> x_host(b.size(), 0.0), x_in_place(b.size(), 0.0);
  const SolveStats a = by_host->solve(b, x_host), c = in_place->solve(b, x_in_place);
  ASSERT_TRUE(a.converged()) << a.line();
  EXPECT_EQ(a.iterations, c.iterations) << spec;
  EXPECT_TRUE(same_bits(x_host, x_in_place)) << spec;
  // And the bits of a fresh set-up on the second values.
  auto fresh = make_solver(spec);
  fresh->setup(second);
  std::vector<double> x_fresh(b.size(), 0.0);
  EXPECT_EQ(fresh->solve(b, x_fresh).iterations, c.iterations) << spec;
  EXPECT_TRUE(same_bits(x_fresh, x_in_place)) << spec;
  // A refresh to the first values again, in place: the solve is of them (not of second's).
  in_place->update(view(first));
  std::vector<double> x(b.size(), 0.0), ax(b.size());
  ASSERT_TRUE(in_place->solve(b, x).converged());
  spmv(first, x.data(), ax.data());
  for (std::size_t i = 0; i < b.size(); i += 17) EXPECT_NEAR(ax[i], 1.0, 1e-8);
}

INSTANTIATE_TEST_SUITE_P(UpdateInPlace, Specs,
                         ::testing::Values("identity", "jacobi", "block_jacobi", "fgbilu(variant=seq)",
                                           "fgbilu(variant=omp)", "fgbilu(variant=acc)"));

TEST(UpdateInPlace, ASingularDiagonalIsNamedByItsBlockRow) {
  BsrMatrix a = generated(6, 5, 4, 2, 3);
  auto solver = make_solver("cg+block_jacobi");
  solver->setup(a);
  BsrMatrix bad = a;
  const index_t d = bad.find_block(17, 17);
  for (index_t k = 0; k < 4; ++k) bad.block(d)[k] = 0.0;
  try {
    solver->update(view(bad));
    FAIL() << "a singular diagonal block was inverted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("block row 17"), std::string::npos) << e.what();
  }
}

TEST(UpdateInPlace, HostReadersSayTheyCannot) {
  const BsrMatrix a = generated(5, 4, 3, 2, 1);
  auto solver = make_solver("cg+bilu0");
  solver->setup(a);
  EXPECT_FALSE(solver->updates_in_place());
  EXPECT_THROW(solver->update(view(a)), Error);
}

// Above the OpenMP grain: 40 x 40 x 14 cells, n = 3 (201,600 diagonal entries).
TEST(UpdateInPlaceKernels, InvertDiagonalGivesTheSequentialBits) {
  const BsrMatrix a = generated(40, 40, 14, 3, 9);
  const std::vector<index_t> diag = a.diagonal_positions();
  for (bool whole : {true, false}) {
    std::vector<double> ref(std::size_t(a.block_rows) * 9, 0.0), omp = ref;
    EXPECT_EQ(precond::kernels::ref::invert_diagonal(view(a), diag.data(), whole, ref.data(), nullptr), -1);
    EXPECT_EQ(precond::kernels::omp::invert_diagonal(view(a), diag.data(), whole, omp.data(), nullptr), -1);
    EXPECT_TRUE(same_bits(ref, omp)) << (whole ? "block" : "point");
  }
  BsrMatrix bad = a;
  bad.block(diag[4321])[4] = std::nan("");  // the middle entry of block row 4321's diagonal
  std::vector<double> out(std::size_t(a.block_rows) * 9);
  EXPECT_EQ(precond::kernels::omp::invert_diagonal(view(bad), diag.data(), false, out.data(), nullptr), 4321);
  EXPECT_EQ(precond::kernels::ref::invert_diagonal(view(bad), diag.data(), true, out.data(), nullptr), 4321);
}

TEST(UpdateInPlaceKernels, GatherBlocksGivesTheSequentialBitsAndTheConversionsLayout) {
  const BsrMatrix a = generated(30, 24, 20, 2, 4);
  fgbilu::Stencil7Map map;
  const fgbilu::Stencil7Matrix s = fgbilu::stencil7_from_bsr(a, fgbilu::infer_grid_shape(a), &map);
  std::vector<double> ref(s.values.size(), -1.0), omp(s.values.size(), -2.0);
  fgbilu::kernels::ref::gather_blocks(map.bsr_block.data(), index_t(map.bsr_block.size()), 4, a.values.data(),
                                      ref.data());
  fgbilu::kernels::omp::gather_blocks(map.bsr_block.data(), index_t(map.bsr_block.size()), 4, a.values.data(),
                                      omp.data());
  EXPECT_TRUE(same_bits(ref, omp));
  EXPECT_TRUE(same_bits(ref, s.values));  // the host conversion's layout, zeros off the grid included
}

}  // namespace
}  // namespace tb
