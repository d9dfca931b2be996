// Every OpenMP banded kernel against its sequential reference twin, on inputs
// long enough (above openmp_min_length) that the OpenMP loops really split.
// Element-wise kernels must agree bit for bit; reductions to round-off.
#include <gtest/gtest.h>

#include <cmath>

#include "../../common/random.hpp"
#include "banded_systems.hpp"
#include "solvers/banded/kernels.hpp"

namespace tb {
namespace {

namespace ref = banded::kernels::ref;
namespace omp = banded::kernels::omp;
using test::random_vector;

constexpr index_t n = 3 * 16384 + 17;

void expect_partials_near(const banded::Partials& a, const banded::Partials& b) {
  for (int j = 0; j < 3; ++j) EXPECT_NEAR(a.sum[j], b.sum[j], 1e-11 * (1 + std::abs(b.sum[j]))) << "sum " << j;
  EXPECT_EQ(a.max_abs, b.max_abs);
}

TEST(BandedKernels, DiaSpmvOmpEqualsRef) {
  const BsrMatrix a = test::random_banded(n, {-200, -13, -1, 0, 1, 13, 200}, 2);
  const banded::DiaMatrix d = banded::dia_from_bsr(a);
  const auto x = random_vector(std::size_t(n + 2 * d.band()), 3);
  std::vector<double> y_ref(std::size_t(n), 0.0), y_omp(std::size_t(n), 0.0);
  ref::dia_spmv(view(d), 5, n - 3, x.data(), y_ref.data());
  omp::dia_spmv(view(d), 5, n - 3, x.data(), y_omp.data());
  EXPECT_EQ(y_ref, y_omp);
  EXPECT_EQ(y_ref[4], 0.0);  // outside the row range: untouched
  EXPECT_NE(y_ref[5], 0.0);
}

TEST(BandedKernels, DiaSpmvWithRemainderOmpEqualsRef) {
  const BsrMatrix a = test::banded_with_sparse_diagonals(n, {-200, -1, 0, 1, 200}, {-401, -13, 13, 399}, 17, 5);
  const banded::DiaMatrix d = banded::dia_from_bsr(a, nullptr, 0.5);
  ASSERT_FALSE(d.rest_offsets.empty());
  const auto x = random_vector(std::size_t(n + 2 * d.band()), 7);
  std::vector<double> y_ref(std::size_t(n), 0.0), y_omp(std::size_t(n), 0.0);
  ref::dia_spmv(view(d), 0, n, x.data(), y_ref.data());
  omp::dia_spmv(view(d), 0, n, x.data(), y_omp.data());
  EXPECT_EQ(y_ref, y_omp);
}

TEST(BandedKernels, StencilSpmvOmpEqualsRefAndTheStoredMatrix) {
  banded::StencilCoefficients c{40, 37, 35, 1.1, 0.9, 0.7, 0.3, 2.0};
  const index_t cells = c.cells();
  const banded::StencilSlab slab{c, 0, c.band()};
  const auto x = random_vector(std::size_t(cells + 2 * c.band()), 4);
  std::vector<double> x_ext = x;
  std::fill(x_ext.begin(), x_ext.begin() + c.band(), 0.0);
  std::fill(x_ext.end() - c.band(), x_ext.end(), 0.0);
  const std::size_t m = static_cast<std::size_t>(cells);
  std::vector<double> y_ref(m), y_omp(m), y_bsr(m);
  ref::stencil_spmv(slab, 0, cells, x_ext.data(), y_ref.data());
  omp::stencil_spmv(slab, 0, cells, x_ext.data(), y_omp.data());
  EXPECT_EQ(y_ref, y_omp);
  spmv_ref(banded::stencil_to_bsr(c), x_ext.data() + c.band(), y_bsr.data());
  for (index_t i = 0; i < cells; i += 97) EXPECT_NEAR(y_ref[std::size_t(i)], y_bsr[std::size_t(i)], 1e-13) << i;
}

TEST(BandedKernels, FusedBicgUpdatesOmpEqualRef) {
  std::vector<std::vector<double>> ref_v, omp_v;
  for (unsigned s = 0; s < 11; ++s) ref_v.push_back(random_vector(std::size_t(n), 20 + s));
  for (auto& v : ref_v[0]) v = 1.0 / (2.0 + v);  // dinv
  omp_v = ref_v;
  auto vectors = [](std::vector<std::vector<double>>& v) {
    return banded::BicgVectors{v[0].data(), v[1].data(), v[2].data(), v[3].data(), v[4].data(), v[5].data(),
                               v[6].data(), v[7].data(), v[8].data(), v[9].data(), v[10].data()};
  };
  const banded::BicgVectors wr = vectors(ref_v), wo = vectors(omp_v);
  ref::bicg_direction(n, 0.7, 0.3, wr);
  omp::bicg_direction(n, 0.7, 0.3, wo);
  ref::bicg_half_step(n, 1.3, wr);
  omp::bicg_half_step(n, 1.3, wo);
  expect_partials_near(omp::bicg_stabiliser_dots(n, wo), ref::bicg_stabiliser_dots(n, wr));
  const banded::BicgMergedDots mo = omp::bicg_merged_dots(n, wo), mr = ref::bicg_merged_dots(n, wr);
  for (int j = 0; j < banded::BicgMergedDots::count; ++j)
    EXPECT_NEAR(mo.sum[j], mr.sum[j], 1e-11 * (1 + std::abs(mr.sum[j]))) << "merged sum " << j;
  // Against their definitions (BicgMergedDots), written out.
  double def[banded::BicgMergedDots::count] = {};
  for (std::size_t i = 0; i < std::size_t(n); ++i) {
    const double kt = wr.dinv[i] * wr.t[i];
    def[0] += kt * wr.z[i], def[1] += kt * kt, def[2] += wr.r0hat[i] * wr.s[i], def[3] += wr.r0hat[i] * wr.t[i];
    def[4] += wr.f[i] * wr.s[i], def[5] += wr.f[i] * wr.t[i], def[6] += wr.f[i] * wr.v[i];
  }
  for (int j = 0; j < banded::BicgMergedDots::count; ++j)
    EXPECT_NEAR(mr.sum[j], def[j], 1e-11 * (1 + std::abs(def[j]))) << "merged sum " << j;
  expect_partials_near(omp::bicg_solution_update(n, 0.4, 0.6, wo), ref::bicg_solution_update(n, 0.4, 0.6, wr));
  EXPECT_EQ(ref_v, omp_v);
  // The update's reductions are those of the vectors it wrote.
  const banded::Partials p = ref::bicg_solution_update(n, 0.0, 0.0, wr);
  double r0r = 0.0, rmax = 0.0;
  for (index_t i = 0; i < n; ++i) {
    r0r += wr.r0hat[i] * wr.r[i];
    rmax = std::max(rmax, std::abs(wr.r[i]));
  }
  EXPECT_NEAR(p.sum[0], r0r, 1e-11 * std::abs(r0r));
  EXPECT_EQ(p.max_abs, rmax);
}

TEST(BandedKernels, CgKernelsOmpEqualRef) {
  std::vector<std::vector<double>> a, b;
  for (unsigned s = 0; s < 6; ++s) a.push_back(random_vector(std::size_t(n), 40 + s));
  b = a;
  expect_partials_near(
      omp::cg_solution_update(n, 0.8, b[0].data(), b[1].data(), b[2].data(), b[3].data(), b[4].data(), b[5].data()),
      ref::cg_solution_update(n, 0.8, a[0].data(), a[1].data(), a[2].data(), a[3].data(), a[4].data(), a[5].data()));
  ref::cg_direction(n, 0.25, a[5].data(), a[1].data());
  omp::cg_direction(n, 0.25, b[5].data(), b[1].data());
  ref::jacobi_apply(n, a[0].data(), a[1].data(), a[2].data());
  omp::jacobi_apply(n, b[0].data(), b[1].data(), b[2].data());
  EXPECT_EQ(a, b);
  const banded::StencilSlab slab{{50, 40, 30, 1.0, 2.0, 3.0, 0.5, 2.0}, 1000, 2000};
  ref::stencil_inverse_diagonal(slab, n, a[3].data());
  omp::stencil_inverse_diagonal(slab, n, b[3].data());
  EXPECT_EQ(a[3], b[3]);
  EXPECT_DOUBLE_EQ(a[3][0], 1.0 / banded::stencil_diagonal(slab.c, 1000));
}

TEST(BandedKernels, CgRecurrenceUpdateOmpEqualsRefAndItsDefinition) {
  std::vector<std::vector<double>> a, b;
  for (unsigned s = 0; s < 7; ++s) a.push_back(random_vector(std::size_t(n), 60 + s));
  const std::vector<std::vector<double>> before = a;
  b = a;
  auto vectors = [](std::vector<std::vector<double>>& v) {
    return banded::CgRecurrenceVectors{v[0].data(), v[1].data(), v[2].data(), v[3].data(),
                                       v[4].data(), v[5].data(), v[6].data()};
  };
  const banded::Partials pr = ref::cg_recurrence_update(n, 0.7, 0.35, vectors(a));
  expect_partials_near(omp::cg_recurrence_update(n, 0.7, 0.35, vectors(b)), pr);
  EXPECT_EQ(a, b);
  double ru = 0.0, rr = 0.0, rmax = 0.0;
  for (std::size_t i = 0; i < std::size_t(n); ++i)
    ru += a[6][i] * a[2][i], rr += a[6][i] * a[6][i], rmax = std::max(rmax, std::abs(a[6][i]));
  EXPECT_NEAR(pr.sum[0], ru, 1e-11 * std::abs(ru));
  EXPECT_NEAR(pr.sum[1], rr, 1e-11 * rr);
  EXPECT_EQ(pr.max_abs, rmax);
  // dinv, w, u, p, q, x, r: the row that the kernel must produce, written out.
  for (std::size_t i = 0; i < std::size_t(n); i += 1013) {
    const double p = before[2][i] + 0.35 * before[3][i], q = before[1][i] + 0.35 * before[4][i];
    const double r = before[6][i] - 0.7 * q;
    EXPECT_EQ(a[3][i], p);
    EXPECT_EQ(a[4][i], q);
    EXPECT_EQ(a[5][i], before[5][i] + 0.7 * p);
    EXPECT_EQ(a[6][i], r);
    EXPECT_EQ(a[2][i], before[0][i] * r);
  }
}

TEST(BandedKernels, DotsAndMaxOmpEqualsRefAndTheDefinition) {
  const auto x = random_vector(std::size_t(n), 50), y = random_vector(std::size_t(n), 51);
  const double* xs[3] = {x.data(), y.data(), x.data()};
  const double* ys[3] = {y.data(), y.data(), x.data()};
  const banded::Partials r = ref::dots_and_max(n, 3, xs, ys, y.data());
  expect_partials_near(omp::dots_and_max(n, 3, xs, ys, y.data()), r);
  double xy = 0.0, ymax = 0.0;
  for (index_t i = 0; i < n; ++i)
    xy += x[std::size_t(i)] * y[std::size_t(i)], ymax = std::max(ymax, std::abs(y[std::size_t(i)]));
  EXPECT_NEAR(r.sum[0], xy, 1e-11 * std::abs(xy));
  EXPECT_EQ(r.max_abs, ymax);
  const banded::Partials one = ref::dots_and_max(n, 1, xs, ys, nullptr);
  EXPECT_EQ(one.sum[1], 0.0);
  EXPECT_EQ(one.max_abs, 0.0);
}

}  // namespace
}  // namespace tb
