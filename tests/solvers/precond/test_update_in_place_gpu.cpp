// The numeric refresh on the device from values already there
// (LinearSolver::update(BsrView) on backend=cuda): the same solves as the
// refresh from a host matrix, with nothing but a few bytes of flags moving
// between host and device; and the CUDA kernels it runs against their
// sequential twins, bit for bit (invert_diagonal is compiled without FMA
// contraction; gather_blocks only copies). Skips with the reason when no
// device is visible.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "../../common/bits.hpp"
#include "solvers/core/array.hpp"
#include "solvers/core/cuda_call.hpp"
#include "solvers/core/transfers.hpp"
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

// A BSR matrix's arrays on the device, as a device-assembled system holds them.
struct DeviceMatrix {
  explicit DeviceMatrix(const BsrMatrix& a)
      : shape(a),
        row_ptr(Backend::cuda, std::span<const index_t>(a.row_ptr)),
        col_idx(Backend::cuda, std::span<const index_t>(a.col_idx)),
        values(Backend::cuda, std::span<const double>(a.values)) {}
  BsrView view() const {
    return {shape.block_size, shape.block_rows, shape.block_cols, row_ptr.data(), col_idx.data(), values.data()};
  }
  const BsrMatrix& shape;
  Array<index_t> row_ptr, col_idx;
  Array<double> values;
};

struct Specs : ::testing::TestWithParam<const char*> {
  void SetUp() override {
    if (const std::string why = cuda_unavailable_reason(); !why.empty()) GTEST_SKIP() << why;
  }
};

TEST_P(Specs, DeviceRefreshSolvesAsTheHostRefreshAndMovesNoValues) {
  const BsrMatrix first = generated(24, 20, 18, 3, 5), second = generated(24, 20, 18, 3, 6);
  const std::string spec = std::string("bicgstab(rtol=1e-10,maxit=300,backend=cuda)+") + GetParam();
  auto by_host = make_solver(spec), in_place = make_solver(spec);
  ASSERT_TRUE(in_place->updates_in_place()) << spec;
  by_host->setup(first);
  in_place->setup(first);
  by_host->update(second);
  const DeviceMatrix dev(second);
  const transfers::Totals before = transfers::totals();
  in_place->update(dev.view());
  const transfers::Totals moved = transfers::since(before);
  EXPECT_LE(moved.to_device.bytes + moved.to_host.bytes, 64u) << spec << ": only flags move";
  const std::vector<double> b(std::size_t(second.rows()), 1.0);
  std::vector<double> x_host(b.size(), 0.0), x_dev(b.size(), 0.0);
  const SolveStats a = by_host->solve(b, x_host), c = in_place->solve(b, x_dev);
  ASSERT_TRUE(a.converged()) << a.line();
  ASSERT_TRUE(c.converged()) << c.line();
  EXPECT_EQ(a.iterations, c.iterations) << spec;
  for (std::size_t i = 0; i < b.size(); ++i) ASSERT_NEAR(x_dev[i], x_host[i], 1e-10 * (1.0 + std::abs(x_host[i])));
}

INSTANTIATE_TEST_SUITE_P(UpdateInPlaceGpu, Specs,
                         ::testing::Values("jacobi", "block_jacobi", "fgbilu(variant=acc)", "fgbilu(variant=cl)"));

TEST(UpdateInPlaceKernelsGpu, InvertDiagonalAndGatherGiveTheSequentialBits) {
  if (const std::string why = cuda_unavailable_reason(); !why.empty()) GTEST_SKIP() << why;
  const BsrMatrix a = generated(40, 40, 14, 3, 9);
  const DeviceMatrix dev(a);
  const std::vector<index_t> diag = a.diagonal_positions();
  const Array<index_t> diag_dev(Backend::cuda, std::span<const index_t>(diag));
  Array<index_t> flag(Backend::cuda, 1);
  for (bool whole : {true, false}) {
    std::vector<double> ref(std::size_t(a.block_rows) * 9, 0.0);
    Vector out(Backend::cuda, ref.size());
    out.set_zero();
    EXPECT_EQ(precond::kernels::ref::invert_diagonal(view(a), diag.data(), whole, ref.data(), nullptr), -1);
    EXPECT_EQ(TB_CUDA_CALL(
                  precond::kernels::cuda::invert_diagonal(dev.view(), diag_dev.data(), whole, out.data(), flag.data())),
              -1);
    EXPECT_TRUE(same_bits(ref, out.to_host())) << (whole ? "block" : "point");
  }
  fgbilu::Stencil7Map map;
  const fgbilu::Stencil7Matrix s = fgbilu::stencil7_from_bsr(a, fgbilu::infer_grid_shape(a), &map);
  const Array<index_t> map_dev(Backend::cuda, std::span<const index_t>(map.bsr_block));
  Vector coef(Backend::cuda, s.values.size());
  TB_CUDA_CALL(fgbilu::kernels::cuda::gather_blocks(map_dev.data(), index_t(map.bsr_block.size()), 9, dev.values.data(),
                                                    coef.data()));
  EXPECT_TRUE(same_bits(s.values, coef.to_host()));
}

}  // namespace
}  // namespace tb
