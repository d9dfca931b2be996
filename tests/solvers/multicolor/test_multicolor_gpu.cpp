// The CUDA kernels of the multicolour solver (Table I SpMV, warp-per-block
// substitution, the one-thread-per-row twin, the cuSPARSE/cuBLAS baseline,
// the one-launch fused sweep)
// against the host reference, for block sizes on both sides of each kernel's
// limits (16/17 for the SpMV, 32/33 for the substitution). Skips with the reason
// when no device is visible.
#include <gtest/gtest.h>

#include <string>

#include "../../common/systems.hpp"
#include "mesh/io/gmsh_reader.hpp"
#include "mesh/mesh_graph.hpp"
#include "multicolor_fixtures.hpp"
#include "solvers/core/array.hpp"
#include "solvers/core/backend.hpp"
#include "solvers/core/error.hpp"
#include "solvers/factory/registry.hpp"
#include "solvers/matrix/dominant_blocks.hpp"
#include "solvers/matrix/tetrahedral_box.hpp"
#include "solvers/multicolor/point_implicit.hpp"

namespace tb {
namespace {

using multicolor::Kernel;
using multicolor::Precision;
using test::apply_on;

class MulticolorGpu : public ::testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device visible: the multicolor kernels were not run";
  }
};

// Every CUDA kernel, both precisions, two sweeps, against the host reference.
void expect_kernels_equal_host(const BsrMatrix& a) {
  const index_t nb = a.block_size;
  const std::vector<double> r = test::sine_rhs(std::size_t(a.rows()));
  for (Precision precision : {Precision::fp64, Precision::mixed}) {
    multicolor::Options o;
    o.sweeps = 2, o.precision = precision, o.kernel = Kernel::ref;
    const std::vector<double> expected = apply_on(Backend::host, a, r, o);
    for (Kernel kernel : {Kernel::ref, Kernel::tuned, Kernel::library, Kernel::fused}) {
      if (kernel == Kernel::library && precision == Precision::mixed) continue;
      o.kernel = kernel;
      if (kernel == Kernel::fused && nb > 32) {  // a warp per block row at most
        EXPECT_THROW(apply_on(Backend::cuda, a, r, o), Error) << "nb = " << nb;
        continue;
      }
      const std::vector<double> got = apply_on(Backend::cuda, a, r, o);
      EXPECT_LT(test::max_abs_diff(got, expected), 1e-11 * test::max_abs(expected))
          << "nb = " << nb << ", kernel " << int(kernel) << ", precision " << int(precision);
    }
  }
}

TEST_P(MulticolorGpu, KernelsEqualTheHostReference) {
  TetrahedralBoxParams p;
  p.nx = 6, p.ny = 5, p.nz = 4, p.block_size = GetParam(), p.seed = 3;
  expect_kernels_equal_host(generate_tetrahedral_box(p));
}

INSTANTIATE_TEST_SUITE_P(BlockSizes, MulticolorGpu,
                         ::testing::Values(1, 2, 3, 4, 5, 6, 8, 9, 13, 16, 17, 31, 32, 33, 40, 64));

// The shipped Gmsh sphere's node graph: rows of 7 to 21 blocks where the boxes
// have 8 to 15, so the SpMV's row groups and the fused sweep's lane groups
// meet uneven rows.
TEST(MulticolorGpuMesh, KernelsEqualTheHostReferenceOnAnUnstructuredMesh) {
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device visible: the multicolor kernels were not run";
  const Graph g = node_graph(read_gmsh_tetrahedra(std::string(TB_SOURCE_DIR) + "/inputs/meshes/tet_sphere_coarse.msh"));
  for (index_t nb : {1, 4, 5, 8, 17}) expect_kernels_equal_host(dominant_block_matrix(g.row_ptr, g.col_idx, nb, 5));
}

// kernel=fused runs a sweep in one launch, 338 to 5,400 workgroups waiting on
// the colours before theirs: the colour order must hold and the launch must
// end whatever order the hardware starts them in. Repeated, since a missing
// fence shows up only now and then.
TEST(MulticolorGpuFused, ManyWorkgroupsInFlightGiveTheHostResult) {
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device visible: the fused kernel was not run";
  for (const index_t nb : {1, 4, 7, 13}) {
    TetrahedralBoxParams p;
    p.nx = 40, p.ny = 36, p.nz = 30, p.block_size = nb, p.seed = 11;
    const BsrMatrix a = generate_tetrahedral_box(p);
    const std::vector<double> r = test::sine_rhs(std::size_t(a.rows()));
    multicolor::Options o;
    o.sweeps = 3, o.precision = Precision::mixed, o.kernel = Kernel::ref;
    const std::vector<double> expected = apply_on(Backend::host, a, r, o);
    o.kernel = Kernel::fused;
    auto m = multicolor::make_preconditioner(o);
    m->setup(a, Backend::cuda);
    Vector rv(Backend::cuda, r), z(Backend::cuda, r.size());
    for (int rep = 0; rep < 5; ++rep) {
      m->apply(rv, z);
      EXPECT_LT(test::max_abs_diff(z.to_host(), expected), 1e-11 * test::max_abs(expected))
          << "nb = " << nb << ", repetition " << rep;
    }
  }
}

TEST(MulticolorGpuSolve, GmresWithTheTunedKernelsConvergesOnTheDevice) {
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device visible";
  TetrahedralBoxParams p;
  p.nx = p.ny = p.nz = 8, p.block_size = 5;
  const BsrMatrix a = generate_tetrahedral_box(p);
  const std::vector<double> b = test::sine_rhs(std::size_t(a.rows()));
  auto s = make_solver("gmres(backend=cuda,rtol=1e-10)+multicolor(sweeps=2)");
  s->setup(a);
  std::vector<double> x(b.size(), 0.0);
  const SolveStats st = s->solve(b, x);
  ASSERT_TRUE(st.converged()) << st.line();
  const std::vector<double> exact = test::direct_solve(a, b);
  EXPECT_LT(test::max_abs_diff(x, exact), 1e-8 * test::max_abs(exact));
}

}  // namespace
}  // namespace tb
