// The ParILUT step pipeline's host twin (step_pipeline.hpp): its sequential
// kernels reproduce the host ParILUT (parilut_factor with kernel=ref) bit for
// bit, its level-scheduled substitutions ilu_apply_ref; the workspace is what
// the plan says and linear in the fill budget; bad input fails as the host's.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "solvers/core/error.hpp"
#include "solvers/matrix/anisotropic_diffusion.hpp"
#include "solvers/matrix/bsr.hpp"
#include "solvers/parilut/parilut.hpp"
#include "solvers/parilut/step_pipeline.hpp"

namespace tb::parilut {
namespace {

// The 2D five-point (nz = 1) or 3D seven-point Laplacian.
CsrMatrix poisson(index_t nx, index_t ny, index_t nz) {
  CsrMatrix a;
  a.rows = a.cols = nx * ny * nz;
  a.row_ptr.assign(1, 0);
  auto id = [&](index_t x, index_t y, index_t z) { return (z * ny + y) * nx + x; };
  for (index_t z = 0; z < nz; ++z)
    for (index_t y = 0; y < ny; ++y)
      for (index_t x = 0; x < nx; ++x) {
        auto add = [&](index_t col, double v) { a.col_idx.push_back(col), a.values.push_back(v); };
        if (z > 0) add(id(x, y, z - 1), -1.0);
        if (y > 0) add(id(x, y - 1, z), -1.0);
        if (x > 0) add(id(x - 1, y, z), -1.0);
        add(id(x, y, z), nz > 1 ? 6.0 : 4.0);
        if (x + 1 < nx) add(id(x + 1, y, z), -1.0);
        if (y + 1 < ny) add(id(x, y + 1, z), -1.0);
        if (z + 1 < nz) add(id(x, y, z + 1), -1.0);
        a.row_ptr.push_back(index_t(a.col_idx.size()));
      }
  return a;
}

CsrMatrix anisotropic(index_t nx, index_t ny) {
  AnisotropicDiffusionParams p;
  p.nx = nx, p.ny = ny;
  return generate_anisotropic_diffusion(p);
}

void expect_same_factors(const IluFactors& want, const IluFactors& got) {
  EXPECT_EQ(want.l.row_ptr, got.l.row_ptr);
  EXPECT_EQ(want.l.col_idx, got.l.col_idx);
  EXPECT_EQ(want.l.values, got.l.values);  // bit for bit: the same arithmetic in the same order
  EXPECT_EQ(want.u.row_ptr, got.u.row_ptr);
  EXPECT_EQ(want.u.col_idx, got.u.col_idx);
  EXPECT_EQ(want.u.values, got.u.values);
  EXPECT_EQ(want.u_cols.row_idx, got.u_cols.row_idx);
}

struct Case {
  const char* name;
  CsrMatrix a;
};

std::vector<Case> cases() {
  // ANI 40 x 40: over 2048 magnitudes per factor, so the approximate
  // selection takes its one-level path rather than the exact fallback.
  return {{"ani-9x7", anisotropic(9, 7)},
          {"ani-40x40", anisotropic(40, 40)},
          {"poisson-2d", poisson(12, 10, 1)},
          {"poisson-3d", poisson(6, 5, 4)}};
}

TEST(ParilutPipeline, TwinReproducesHostParilutBitForBit) {
  for (const Case& c : cases())
    for (bool exact : {true, false})
      for (double fill : {1.0, 2.0}) {
        SCOPED_TRACE(std::string(c.name) + (exact ? " exact" : " approx") + " fill " + std::to_string(fill));
        ParilutOptions o;
        o.fill = fill, o.steps = 3, o.sweeps = 2, o.exact_select = exact, o.kernel = Kernel::ref;
        std::vector<StepReport> host_steps, twin_steps;
        const IluFactors host = parilut_factor(c.a, o, &host_steps);
        StepPipeline twin(c.a, o, Backend::host);
        twin.factor(c.a, &twin_steps);
        expect_same_factors(host, twin.factors());
        ASSERT_EQ(host_steps.size(), twin_steps.size());
        for (std::size_t s = 0; s < host_steps.size(); ++s) {
          EXPECT_EQ(host_steps[s].candidates, twin_steps[s].candidates);
          EXPECT_EQ(host_steps[s].candidate_residual, twin_steps[s].candidate_residual);
          EXPECT_EQ(host_steps[s].nnz_after_add, twin_steps[s].nnz_after_add);
          EXPECT_EQ(host_steps[s].nnz_after_remove, twin_steps[s].nnz_after_remove);
        }
        EXPECT_GT(host_steps.back().candidates, 0);
      }
}

// A second factorisation on new values reuses the workspace and again equals the host.
TEST(ParilutPipeline, RefactorsNewValuesInTheSameWorkspace) {
  CsrMatrix a = anisotropic(20, 15);
  ParilutOptions o;
  o.kernel = Kernel::ref, o.steps = 2;
  StepPipeline twin(a, o, Backend::host);
  twin.factor(a);
  for (double& v : a.values) v *= 1.5;
  for (index_t i = 0; i < a.rows; ++i) a.values[a.row_ptr[i]] += 0.25;  // a change the pattern follows
  twin.factor(a);
  expect_same_factors(parilut_factor(a, o), twin.factors());
}

TEST(ParilutPipeline, LevelScheduledApplyEqualsSequentialSubstitution) {
  for (const Case& c : cases()) {
    SCOPED_TRACE(c.name);
    ParilutOptions o;
    o.kernel = Kernel::ref, o.steps = 2;
    StepPipeline twin(c.a, o, Backend::host);
    twin.factor(c.a);
    std::mt19937 gen(7);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    std::vector<double> r(std::size_t(c.a.rows)), want(r.size()), got(r.size());
    for (double& x : r) x = u(gen);
    ilu_apply_ref(twin.factors(), r.data(), want.data());
    twin.apply(r.data(), got.data());
    EXPECT_EQ(want, got);
    EXPECT_LT(twin.levels(), 2 * c.a.rows);
  }
}

// The OpenMP kernels sweep asynchronously; converged sweeps reach the twin's
// fixed point, and with it the same patterns.
TEST(ParilutPipeline, OpenMpPipelineConvergesToTheTwin) {
  for (const Case& c : cases()) {
    SCOPED_TRACE(c.name);
    ParilutOptions o;
    o.steps = 2, o.sweeps = 40, o.exact_select = true;
    o.kernel = Kernel::ref;
    StepPipeline twin(c.a, o, Backend::host);
    twin.factor(c.a);
    o.kernel = Kernel::omp;
    StepPipeline omp(c.a, o, Backend::host);
    omp.factor(c.a);
    const IluFactors want = twin.factors(), got = omp.factors();
    ASSERT_EQ(want.l.col_idx, got.l.col_idx);
    ASSERT_EQ(want.u.col_idx, got.u.col_idx);
    for (std::size_t p = 0; p < want.l.values.size(); ++p) EXPECT_NEAR(want.l.values[p], got.l.values[p], 1e-10);
    for (std::size_t p = 0; p < want.u.values.size(); ++p)
      EXPECT_NEAR(want.u.values[p], got.u.values[p], 1e-10 * std::abs(want.u.values[p]) + 1e-12);
  }
}

// The plan counts every array the pipeline allocates, and it grows linearly
// with the budget: per budgeted entry (plus one per row) at most 2 x 2 factor
// buffers and the candidates, each with room candidate_room + 2 times over.
TEST(ParilutPipeline, WorkspaceIsLinearInTheFillBudget) {
  const CsrMatrix a = anisotropic(40, 40);
  for (double fill : {1.0, 2.0, 4.0})
    for (double room : {1.0, 4.0}) {
      const PipelinePlan p = plan_pipeline(a, fill, room);
      const double units = double(p.budget_l + p.budget_u + p.n);
      const double per_entry = 2.0 * sizeof(index_t) + sizeof(double);
      EXPECT_LE(double(p.workspace_bytes()), (4.0 + 1.0) * (room + 2.0) * units * per_entry + 64.0 * units);
      EXPECT_GE(p.candidate_capacity, room * double(p.budget_l + p.budget_u));
    }
  const PipelinePlan one = plan_pipeline(a, 1.0, 4.0), two = plan_pipeline(a, 2.0, 4.0);
  EXPECT_GT(two.workspace_bytes(), one.workspace_bytes());
  EXPECT_LT(double(two.workspace_bytes()), 2.0 * double(one.workspace_bytes()));
}

TEST(ParilutPipeline, TooManyCandidatesNameTheParameter) {
  const CsrMatrix a = anisotropic(20, 15);
  ParilutOptions o;
  o.kernel = Kernel::ref, o.candidate_room = 0.01;
  StepPipeline twin(a, o, Backend::host);
  try {
    twin.factor(a);
    FAIL() << "expected the candidate room to overflow";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("raise candidate_room"), std::string::npos) << e.what();
  }
}

TEST(ParilutPipeline, ZeroPivotFailsAsTheHost) {
  CsrMatrix a = poisson(5, 4, 1);
  for (index_t p = a.row_ptr[3]; p < a.row_ptr[4]; ++p)
    if (a.col_idx[p] == 3) a.values[p] = 0.0;
  ParilutOptions o;
  o.kernel = Kernel::ref;
  StepPipeline twin(a, o, Backend::host);
  EXPECT_THROW(
      {
        try {
          twin.factor(a);
        } catch (const Error& e) {
          EXPECT_NE(std::string(e.what()).find("row 3 has a zero diagonal"), std::string::npos) << e.what();
          throw;
        }
      },
      Error);
}

// A tiny but nonzero pivot where the host converges: the twin's factors are
// finite and the host's.
TEST(ParilutPipeline, TinyPivotStaysFinite) {
  CsrMatrix a = poisson(6, 6, 1);
  for (index_t i = 0; i < a.rows; ++i)
    for (index_t p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p)
      if (a.col_idx[p] == i && i == 0) a.values[p] = 1e-8;
  ParilutOptions o;
  o.kernel = Kernel::ref, o.steps = 3;
  StepPipeline twin(a, o, Backend::host);
  twin.factor(a);
  const IluFactors f = twin.factors();
  for (double v : f.l.values) EXPECT_TRUE(std::isfinite(v));
  for (double v : f.u.values) EXPECT_TRUE(std::isfinite(v));
  expect_same_factors(parilut_factor(a, o), f);
}

TEST(ParilutPipeline, PatternChangeIsRefused) {
  const CsrMatrix a = poisson(4, 4, 1), b = poisson(5, 4, 1);
  ParilutOptions o;
  StepPipeline twin(a, o, Backend::host);
  EXPECT_THROW(twin.factor(b), Error);
  o.candidate_room = 0.0;
  EXPECT_THROW(StepPipeline(a, o, Backend::host), Error);
}

// parilut on the cuda backend: without a device the preconditioner refuses
// with the reason (tb::Unsupported, the command line's exit 2).
TEST(ParilutPipeline, CudaBackendWithoutDeviceIsRefused) {
  if (cuda_device_count() > 0) GTEST_SKIP() << "a CUDA device is visible: test_parilut_gpu runs the pipeline";
  auto p = make_parilut(ParilutOptions{});
  EXPECT_TRUE(p->supports(Backend::cuda));
  const BsrMatrix a = csr_to_bsr(poisson(4, 4, 1), 1);
  try {
    p->setup(a, Backend::cuda);
    FAIL() << "expected tb::Unsupported";
  } catch (const Unsupported& e) {
    EXPECT_NE(std::string(e.what()).find("parilut(backend=cuda)"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tb::parilut
