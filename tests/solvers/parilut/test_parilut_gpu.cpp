// The CUDA kernels of ParILUT against their host twins: the residual of Fig. 7
// (same arithmetic, so equal to round-off), the asynchronous sweep of Fig. 6
// (converging to ILU(0) like the host's), and the shared-memory-atomic
// classification of Fig. 5 (oracles and counts exactly), and Sampleselect on
// the device (Fig. 3): its splitters and bucket filter against the host's, its
// exact selection against std::nth_element and its approximate threshold
// against the host's. Skips with the reason when no device is visible.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "../../common/systems.hpp"
#include "selection_data.hpp"
#include "solvers/core/array.hpp"
#include "solvers/core/backend.hpp"
#include "solvers/core/cuda_call.hpp"
#include "solvers/core/error.hpp"
#include "solvers/matrix/anisotropic_diffusion.hpp"
#include "solvers/parilut/cuda/kernels.hpp"
#include "solvers/parilut/device_sample_select.hpp"
#include "solvers/parilut/kernels.hpp"
#include "solvers/parilut/parilut.hpp"
#include "solvers/parilut/sample_select.hpp"
#include "solvers/parilut/splitter_tree.hpp"
#include "solvers/parilut/step_pipeline.hpp"

namespace tb::parilut {
namespace {

class ParilutGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    if (cuda_device_count() == 0)
      GTEST_SKIP() << "no CUDA device visible: the ParILUT kernels and the device Sampleselect were not run";
  }
};

std::vector<index_t> row_of_each_entry(const CsrMatrix& m) {
  std::vector<index_t> rows;
  for (index_t i = 0; i < m.rows; ++i)
    for (index_t p = m.row_ptr[i]; p < m.row_ptr[i + 1]; ++p) rows.push_back(i);
  return rows;
}

template <class T>
Array<T> on_device(const std::vector<T>& v) {
  return Array<T>(Backend::cuda, std::span<const T>(v));
}

// A, L, U and U's columns copied to the device, with the view kernels read.
struct DeviceFactors {
  Array<index_t> a_ptr, a_col, l_ptr, l_col, u_ptr, u_col, uc_ptr, uc_row, uc_pos, l_row, u_row;
  Array<double> a_val, l_val, u_val;
  DeviceFactors(const CsrMatrix& a, const IluFactors& f)
      : a_ptr(on_device(a.row_ptr)),
        a_col(on_device(a.col_idx)),
        l_ptr(on_device(f.l.row_ptr)),
        l_col(on_device(f.l.col_idx)),
        u_ptr(on_device(f.u.row_ptr)),
        u_col(on_device(f.u.col_idx)),
        uc_ptr(on_device(f.u_cols.col_ptr)),
        uc_row(on_device(f.u_cols.row_idx)),
        uc_pos(on_device(f.u_cols.csc_to_csr)),
        l_row(on_device(row_of_each_entry(f.l))),
        u_row(on_device(row_of_each_entry(f.u))),
        a_val(on_device(a.values)),
        l_val(on_device(f.l.values)),
        u_val(on_device(f.u.values)) {}
  FactorView view() {
    return {a_ptr.data(), a_col.data(), a_val.data(), l_ptr.data(),  l_col.data(),  l_val.data(),
            u_ptr.data(), u_col.data(), u_val.data(), uc_ptr.data(), uc_row.data(), uc_pos.data()};
  }
};

CsrMatrix anisotropic(index_t nx, index_t ny) {
  AnisotropicDiffusionParams p;
  p.nx = nx, p.ny = ny;
  return generate_anisotropic_diffusion(p);
}

TEST_F(ParilutGpu, ResidualsEqualTheHost) {
  const CsrMatrix a = anisotropic(40, 30);
  ParilutOptions o;
  o.steps = 1, o.fill = 3.0, o.kernel = Kernel::ref;
  IluFactors f = parilut_factor(a, o);
  CsrMatrix c = kernels::ref::find_candidates(a, f);
  kernels::ref::candidate_residuals(a, f, c);
  DeviceFactors d(a, f);
  Array<index_t> c_row = on_device(row_of_each_entry(c)), c_col = on_device(c.col_idx);
  Array<double> r(Backend::cuda, c.values.size());
  TB_CUDA_CALL(kernels::cuda::candidate_residuals(d.view(), c_row.data(), c_col.data(), c.nnz(), r.data()));
  EXPECT_LT(test::max_abs_diff(r.to_host(), c.values), 1e-14 * test::max_abs(c.values));
}

TEST_F(ParilutGpu, AsynchronousSweepsConvergeToILU0) {
  // 20 x 15 nodes: fewer wavefront levels than sweeps, so even Jacobi-like sweeps reach the fixed point.
  const CsrMatrix a = anisotropic(20, 15);
  const IluFactors exact = parilu_factor(a, 1, Kernel::ref);  // one in-place sequential sweep is ILU(0)
  IluFactors f = initial_factors(a);
  DeviceFactors d(a, f);
  for (int s = 0; s < 60; ++s)
    TB_CUDA_CALL(kernels::cuda::sweep(d.view(), d.l_row.data(), f.l.nnz(), d.u_row.data(), f.u.nnz()));
  EXPECT_LT(test::max_abs_diff(d.l_val.to_host(), exact.l.values), 1e-10 * test::max_abs(exact.l.values));
  EXPECT_LT(test::max_abs_diff(d.u_val.to_host(), exact.u.values), 1e-10 * test::max_abs(exact.u.values));
}

TEST_F(ParilutGpu, ClassificationEqualsTheHost) {
  std::mt19937_64 gen(9);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<double> data(3'000'001);
  for (double& e : data) e = u(gen) * u(gen);
  std::vector<double> sample;
  const SplitterTree tree = pick_splitters(data, sample);
  std::vector<std::uint8_t> oracles;
  const BucketCounts expected = kernels::ref::classify(data, tree, oracles);
  Array<double> d_data = on_device(data), d_tree = on_device(std::vector<double>(tree.begin(), tree.end()));
  Array<std::uint8_t> d_oracles(Backend::cuda, data.size());
  Array<unsigned long long> d_counts(Backend::cuda, select_buckets);
  TB_CUDA_CALL(kernels::cuda::classify(d_data.data(), data.size(), d_tree.data(), d_oracles.data(), d_counts.data()));
  EXPECT_EQ(d_oracles.to_host(), oracles);
  const std::vector<unsigned long long> counts = d_counts.to_host();
  for (int b = 0; b < select_buckets; ++b) EXPECT_EQ(counts[b], expected[b]) << "bucket " << b;
}

using test::magnitudes;
using test::nth;

void expect_exact(DeviceSampleSelect& select, const std::vector<double>& v, std::size_t k) {
  const Selection s = select.exact(on_device(v), k);
  const Selection r = rank_of(v, nth(v, k));
  EXPECT_EQ(s.value, r.value) << "n = " << v.size() << ", k = " << k;
  EXPECT_EQ(s.below, r.below) << "n = " << v.size() << ", k = " << k;
  EXPECT_EQ(s.not_above, r.not_above) << "n = " << v.size() << ", k = " << k;
}

TEST_F(ParilutGpu, SplittersEqualTheHost) {
  for (std::size_t n : {std::size_t(1), std::size_t(7), std::size_t(5000), std::size_t(3'000'001)}) {
    const std::vector<double> v = magnitudes(n, 1 << 30, unsigned(n));
    std::vector<double> sample;
    const SplitterTree tree = pick_splitters(v, sample);
    const Array<double> d_v = on_device(v);
    Array<double> d_tree(Backend::cuda, tree_splitters), d_splitters(Backend::cuda, tree_splitters);
    TB_CUDA_CALL(kernels::cuda::pick_splitters(d_v.data(), n, d_tree.data(), d_splitters.data()));
    EXPECT_EQ(d_tree.to_host(), std::vector<double>(tree.begin(), tree.end())) << "n = " << n;
    EXPECT_EQ(d_splitters.to_host(), sorted_splitters(tree)) << "n = " << n;
  }
}

TEST_F(ParilutGpu, BucketExtractionKeepsTheInputOrder) {
  const std::vector<double> v = magnitudes(1'000'003, 1 << 30, 3);
  std::vector<double> sample;
  const SplitterTree tree = pick_splitters(v, sample);
  std::vector<std::uint8_t> oracles;
  const BucketCounts counts = kernels::ref::classify(v, tree, oracles);
  const int fullest = int(std::max_element(counts.begin(), counts.end()) - counts.begin());
  Array<double> d_v = on_device(v), d_out(Backend::cuda, v.size());
  Array<std::uint8_t> d_oracles = on_device(oracles);
  Array<unsigned long long> scratch(Backend::cuda, kernels::cuda::filter_block_limit);
  for (int bucket : {0, 17, fullest, select_buckets - 1}) {
    std::vector<double> expected;
    for (std::size_t i = 0; i < v.size(); ++i)
      if (oracles[i] == bucket) expected.push_back(v[i]);
    ASSERT_EQ(expected.size(), counts[std::size_t(bucket)]);
    TB_CUDA_CALL(
        kernels::cuda::extract_bucket(d_v.data(), d_oracles.data(), v.size(), bucket, d_out.data(), scratch.data()));
    std::vector<double> got = d_out.to_host();
    got.resize(expected.size());
    EXPECT_EQ(got, expected) << "bucket " << bucket;
  }
}

TEST_F(ParilutGpu, ExactSelectionEqualsNthElement) {
  // Sizes below one level (<= select_base_case), just above it, and several levels deep.
  const std::size_t sizes[] = {1, 100, select_base_case, select_base_case + 1, 5000, 300'000, 3'000'001};
  DeviceSampleSelect select(3'000'001);
  for (std::size_t n : sizes)
    for (int distinct : {3, 1000, 1 << 30}) {
      const std::vector<double> v = magnitudes(n, distinct, unsigned(n) + unsigned(distinct));
      for (std::size_t k : {std::size_t(0), n / 3, n / 2, n - 1}) expect_exact(select, v, k);
    }
}

TEST_F(ParilutGpu, ExactSelectionSplitsOffARepeatedMinimum) {
  // Ones, but for larger values at every 997th position that the first sample
  // misses: all splitters are 1, every element falls in the top bucket, and the
  // selection must split the ones off to make progress.
  const std::size_t n = 3'000'000;
  std::vector<double> v(n, 1.0);
  for (std::size_t i = 5; i < n; i += 997) v[i] = 1.0 + double(i % 4099);
  for (std::size_t j = 0; j < select_sample; ++j) v[sample_position(n, j)] = 1.0;
  std::vector<double> sample;
  const std::vector<double> s = sorted_splitters(pick_splitters(v, sample));
  ASSERT_EQ(s.front(), 1.0);
  ASSERT_EQ(s.back(), 1.0);
  DeviceSampleSelect select(n);
  for (std::size_t k : {std::size_t(0), n / 2, n - 2000, n - 100, n - 1}) expect_exact(select, v, k);
  const std::vector<double> equal(200'000, 3.0);
  expect_exact(select, equal, 12345);
  EXPECT_EQ(select.approx(on_device(equal), 12345).value, 3.0);
}

TEST_F(ParilutGpu, ApproximateThresholdEqualsTheHost) {
  DeviceSampleSelect select(3'000'001);
  for (std::size_t n : {std::size_t(1000), std::size_t(5000), std::size_t(400'000), std::size_t(3'000'001)})
    for (int distinct : {16, 1 << 30}) {
      const std::vector<double> v = magnitudes(n, distinct, unsigned(n) + 7);
      const Array<double> d_v = on_device(v);
      for (std::size_t k : {std::size_t(10), n / 4, n / 2, 3 * n / 4, n - 1}) {
        const Selection host = sample_select_approx(v, k), device = select.approx(d_v, k);
        EXPECT_EQ(device.value, host.value) << "n = " << n << ", distinct = " << distinct << ", k = " << k;
        EXPECT_EQ(device.below, host.below) << "n = " << n << ", distinct = " << distinct << ", k = " << k;
        EXPECT_EQ(device.not_above, host.not_above) << "n = " << n << ", distinct = " << distinct << ", k = " << k;
      }
    }
}

TEST_F(ParilutGpu, DeviceSelectionRefusesBadInput) {
  DeviceSampleSelect select(100);
  const Array<double> host(Backend::host, 10), too_long(Backend::cuda, 101), ten(Backend::cuda, 10);
  EXPECT_THROW(select.exact(host, 0), Error);
  EXPECT_THROW(select.exact(too_long, 0), Error);
  EXPECT_THROW(select.exact(ten, 10), Error);
  EXPECT_THROW(select.approx(ten, 10), Error);
}

// The first two steps of the case below add candidates and remove none (the
// fill budget is not reached): their patterns depend on no value, so the
// device's factors after each have the twin's row pointers and columns
// exactly, whatever its sweeps round. A difference here is a structural one
// (candidates, add, prune, U's columns), told apart from the sweeps'.
TEST_F(ParilutGpu, StepsWithoutRemovalGiveTheTwinsPatterns) {
  AnisotropicDiffusionParams ani;
  ani.nx = 60, ani.ny = 40;
  const CsrMatrix a = generate_anisotropic_diffusion(ani);
  for (int steps : {1, 2}) {
    SCOPED_TRACE(steps);
    ParilutOptions o;
    o.steps = steps, o.sweeps = 5, o.exact_select = true, o.kernel = Kernel::ref;
    std::vector<StepReport> host_steps, device_steps;
    StepPipeline twin(a, o, Backend::host), device(a, o, Backend::cuda);
    twin.factor(a, &host_steps);
    device.factor(a, &device_steps);
    for (std::size_t s = 0; s < host_steps.size(); ++s) {
      ASSERT_EQ(host_steps[s].nnz_after_add, host_steps[s].nnz_after_remove) << "the case removes at step " << s;
      EXPECT_EQ(host_steps[s].candidates, device_steps[s].candidates) << s;
      EXPECT_EQ(host_steps[s].nnz_after_add, device_steps[s].nnz_after_add) << s;
    }
    const IluFactors want = twin.factors(), got = device.factors();
    EXPECT_EQ(want.l.row_ptr, got.l.row_ptr);
    EXPECT_EQ(want.l.col_idx, got.l.col_idx);
    EXPECT_EQ(want.u.row_ptr, got.u.row_ptr);
    EXPECT_EQ(want.u.col_idx, got.u.col_idx);
  }
}

// The whole ParILUT step on the device against the host pipeline twin. The
// device sweeps asynchronously (an entry per thread), so with sweeps enough
// to converge the factors reach the twin's fixed point: the same patterns,
// values to 1e-9. Every other step (candidates, residuals, add, selection,
// remove, U's columns, the scans) is deterministic and runs the twin's
// bodies; nvcc's fused multiply-adds round differently from the host's. The
// off-diagonal values are perturbed (by up to 10 %) so that no two magnitudes
// tie: a rounding difference then cannot flip which of two equal entries drops.
TEST_F(ParilutGpu, StepPipelineMatchesTheHostTwin) {
  AnisotropicDiffusionParams ani;
  ani.nx = 60, ani.ny = 40;
  CsrMatrix a = generate_anisotropic_diffusion(ani);
  std::mt19937 perturb(11);
  std::uniform_real_distribution<double> factor(0.9, 1.1);
  for (index_t i = 0; i < a.rows; ++i)
    for (index_t p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p)
      if (a.col_idx[p] != i) a.values[p] *= factor(perturb);
  for (bool exact : {true, false}) {
    SCOPED_TRACE(exact ? "exact" : "approx");
    ParilutOptions o;
    // Sweeps enough for the fixed point: an entry-parallel sweep needs about as
    // many as the pattern has dependency levels (about 100 in a Jacobi order on
    // the third step's pattern here); after 30 its values are off by up to 10x
    // or overflow, and the device's thresholds, hence its patterns, differ.
    o.steps = 3, o.sweeps = 200, o.exact_select = exact, o.kernel = Kernel::ref;
    std::vector<StepReport> host_steps, device_steps;
    StepPipeline twin(a, o, Backend::host), device(a, o, Backend::cuda);
    twin.factor(a, &host_steps);
    device.factor(a, &device_steps);
    for (std::size_t s = 0; s < host_steps.size(); ++s) {
      EXPECT_EQ(host_steps[s].candidates, device_steps[s].candidates) << "step " << s;
      EXPECT_EQ(host_steps[s].nnz_after_add, device_steps[s].nnz_after_add) << "step " << s;
      EXPECT_EQ(host_steps[s].nnz_after_remove, device_steps[s].nnz_after_remove) << "step " << s;
    }
    const IluFactors want = twin.factors(), got = device.factors();
    ASSERT_EQ(want.l.col_idx, got.l.col_idx);
    ASSERT_EQ(want.u.col_idx, got.u.col_idx);
    for (std::size_t p = 0; p < want.l.values.size(); ++p) EXPECT_NEAR(want.l.values[p], got.l.values[p], 1e-9);
    for (std::size_t p = 0; p < want.u.values.size(); ++p)
      EXPECT_NEAR(want.u.values[p], got.u.values[p], 1e-9 * std::abs(want.u.values[p]));
    // The level-scheduled substitutions on the device against ilu_apply_ref on the device's factors.
    std::vector<double> r(std::size_t(a.rows)), z_host(r.size());
    std::mt19937 gen(3);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (double& x : r) x = u(gen);
    ilu_apply_ref(got, r.data(), z_host.data());
    Vector rd(Backend::cuda, std::span<const double>(r)), zd(Backend::cuda, r.size());
    device.apply(rd.data(), zd.data());
    const std::vector<double> z = zd.to_host();
    // The same operations per row; nvcc may fuse multiply-adds, hence the tolerance.
    for (std::size_t i = 0; i < z.size(); ++i) EXPECT_NEAR(z_host[i], z[i], 1e-12 * (1.0 + std::abs(z_host[i]))) << i;
  }
}

// gmres(backend=cuda)+parilut: the preconditioner sets up and applies on the device.
TEST_F(ParilutGpu, PreconditionerRunsOnTheDevice) {
  AnisotropicDiffusionParams ani;
  ani.nx = 30, ani.ny = 20;
  const BsrMatrix a = csr_to_bsr(generate_anisotropic_diffusion(ani), 1);
  auto device = make_parilut(ParilutOptions{});
  device->setup(a, Backend::cuda);
  Vector r(Backend::cuda, std::size_t(a.rows())), z(Backend::cuda, std::size_t(a.rows()));
  std::vector<double> ones(std::size_t(a.rows()), 1.0);
  r.copy_from_host(ones);
  device->apply(r, z);
  for (double x : z.to_host()) EXPECT_TRUE(std::isfinite(x));
}

}  // namespace
}  // namespace tb::parilut
