// The CUDA kernels of ParILUT against their host twins: the residual of Fig. 7
// (same arithmetic, so equal to round-off), the asynchronous sweep of Fig. 6
// (converging to ILU(0) like the host's), and the shared-memory-atomic
// classification of Fig. 5 (oracles and counts exactly). Skips with the
// reason when no device is visible.
#include <gtest/gtest.h>

#include <random>

#include "../../common/systems.hpp"
#include "solvers/core/array.hpp"
#include "solvers/core/backend.hpp"
#include "solvers/matrix/anisotropic_diffusion.hpp"
#include "solvers/parilut/candidates.hpp"
#include "solvers/parilut/cuda/parilut_kernels.hpp"
#include "solvers/parilut/parilut.hpp"
#include "solvers/parilut/splitter_tree.hpp"

namespace tb::parilut {
namespace {

class ParilutGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device visible: the ParILUT kernels were not run";
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
  CsrMatrix c = find_candidates_ref(a, f);
  candidate_residuals_ref(a, f, c);
  DeviceFactors d(a, f);
  Array<index_t> c_row = on_device(row_of_each_entry(c)), c_col = on_device(c.col_idx);
  Array<double> r(Backend::cuda, c.values.size());
  cuda::candidate_residuals(d.view(), c_row.data(), c_col.data(), c.nnz(), r.data());
  EXPECT_LT(test::max_abs_diff(r.to_host(), c.values), 1e-14 * test::max_abs(c.values));
}

TEST_F(ParilutGpu, AsynchronousSweepsConvergeToILU0) {
  // 20 x 15 nodes: fewer wavefront levels than sweeps, so even Jacobi-like sweeps reach the fixed point.
  const CsrMatrix a = anisotropic(20, 15);
  const IluFactors exact = parilu_factor(a, 1, Kernel::ref);  // one in-place sequential sweep is ILU(0)
  IluFactors f = initial_factors(a);
  DeviceFactors d(a, f);
  for (int s = 0; s < 60; ++s) cuda::sweep(d.view(), d.l_row.data(), f.l.nnz(), d.u_row.data(), f.u.nnz());
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
  const BucketCounts expected = classify_ref(data, tree, oracles);
  Array<double> d_data = on_device(data), d_tree = on_device(std::vector<double>(tree.begin(), tree.end()));
  Array<std::uint8_t> d_oracles(Backend::cuda, data.size());
  Array<unsigned long long> d_counts(Backend::cuda, select_buckets);
  cuda::classify(d_data.data(), data.size(), d_tree.data(), d_oracles.data(), d_counts.data());
  EXPECT_EQ(d_oracles.to_host(), oracles);
  const std::vector<unsigned long long> counts = d_counts.to_host();
  for (int b = 0; b < select_buckets; ++b) EXPECT_EQ(counts[b], expected[b]) << "bucket " << b;
}

}  // namespace
}  // namespace tb::parilut
