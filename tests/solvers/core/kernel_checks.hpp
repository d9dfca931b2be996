#pragma once
// The core room's kernels (TB_CORE_KERNELS) of one backend against their
// sequential twins kernels::ref, shared by the host and the GPU typed tests.
// K names the backend (K::backend) and forwards each kernel. Arrays live on
// K::backend (Array<T> on Backend::host is plain host memory). Tolerances:
// reductions within the worst-case bound of a sum in any order (Higham, Eq.
// 3.4); element-wise results within a few ulps (the device may contract into
// FMAs); fill and all_finite exactly; the steps with their scalars in the
// vectors' memory bit for bit against their twins on the same backend.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <span>
#include <vector>

#include "../../common/random.hpp"
#include "solvers/core/array.hpp"
#include "solvers/core/kernels.hpp"

namespace tb::test {

inline double sum_bound(const std::vector<double>& x, const std::vector<double>& y) {
  double s = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) s += std::abs(x[i] * y[i]);
  return double(x.size() + 1) * std::numeric_limits<double>::epsilon() * s + 1e-300;
}

inline void expect_close(const std::vector<double>& got, const std::vector<double>& want, double ulps) {
  ASSERT_EQ(got.size(), want.size());
  const double eps = std::numeric_limits<double>::epsilon();
  for (std::size_t i = 0; i < got.size(); ++i)
    ASSERT_NEAR(got[i], want[i], ulps * eps * (1.0 + std::abs(want[i]))) << "entry " << i;
}

template <class K>
Vector on(const std::vector<double>& v) {
  return Vector(K::backend, std::span<const double>(v));
}

template <class K>
void check_core_kernels(std::size_t n) {
  const double eps = std::numeric_limits<double>::epsilon();
  const std::vector<double> x = random_vector(n, 1), y = random_vector(n, 2), z = random_vector(n, 3);
  const Vector xd = on<K>(x), yd = on<K>(y);

  EXPECT_NEAR(K::dot(xd.data(), yd.data(), n), kernels::ref::dot(x.data(), y.data(), n), sum_bound(x, y)) << n;

  std::vector<double> want = y;
  Vector got = on<K>(y);
  kernels::ref::axpby(0.7, x.data(), -1.3, want.data(), n);
  K::axpby(0.7, xd.data(), -1.3, got.data(), n);
  expect_close(got.to_host(), want, 8);

  want = z, got = on<K>(z);
  kernels::ref::axpbypcz(0.5, x.data(), 2.0, y.data(), -0.25, want.data(), n);
  K::axpbypcz(0.5, xd.data(), 2.0, yd.data(), -0.25, got.data(), n);
  expect_close(got.to_host(), want, 12);

  want = x, got = on<K>(x);
  kernels::ref::scale(-3.0, want.data(), n);
  K::scale(-3.0, got.data(), n);
  EXPECT_EQ(got.to_host(), want);  // one rounded product per entry on every backend

  want = x, got = on<K>(x);
  kernels::ref::fill(want.data(), 2.5, n);
  K::fill(got.data(), 2.5, n);
  EXPECT_EQ(got.to_host(), want);

  std::vector<double> bad = x;
  EXPECT_EQ(K::all_finite(xd.data(), n), kernels::ref::all_finite(x.data(), n));
  if (n > 0) {
    bad[n / 2] = std::numeric_limits<double>::quiet_NaN();
    EXPECT_FALSE(K::all_finite(on<K>(bad).data(), n));
    EXPECT_FALSE(kernels::ref::all_finite(bad.data(), n));
  }

  for (int k = 1; k <= 4; ++k) {
    std::vector<std::vector<double>> v;
    std::vector<Vector> vd;
    std::vector<const double*> p, pd;
    for (int i = 0; i < k; ++i) v.push_back(random_vector(n, 20 + unsigned(i)));
    for (const auto& e : v) vd.push_back(on<K>(e));
    for (int i = 0; i < k; ++i) p.push_back(v[std::size_t(i)].data()), pd.push_back(vd[std::size_t(i)].data());
    double got_dots[4], want_dots[4];
    kernels::ref::multi_dot(p.data(), k, z.data(), want_dots, n);
    K::multi_dot(pd.data(), k, on<K>(z).data(), got_dots, n);
    for (int i = 0; i < k; ++i)
      EXPECT_NEAR(got_dots[i], want_dots[i], sum_bound(v[std::size_t(i)], z)) << "k=" << k << " i=" << i;
    const double alpha[4] = {0.5, -1.25, 2.0, 0.125};
    want = y, got = on<K>(y);
    kernels::ref::multi_axpy(alpha, p.data(), k, want.data(), n);
    K::multi_axpy(alpha, pd.data(), k, got.data(), n);
    const std::vector<double> g = got.to_host();
    for (std::size_t i = 0; i < n; ++i) ASSERT_NEAR(g[i], want[i], 16 * eps * 5.0) << "k=" << k << " entry " << i;
  }
}

// The steps with their scalars in the vectors' memory (kernels.hpp: dot_to,
// multi_dot_to, multi_axpy_from, axpy_from, scale_by_inverse) on backend b
// give the bits of their twins with the scalars on the host, groups past four
// vectors included; keep_if_zero leaves x as it is where the scalar is 0.
inline void check_scalar_place_kernels(Backend b, std::size_t n) {
  const auto vec = [&](unsigned seed) { return Vector(b, std::span<const double>(random_vector(n, seed))); };
  const Vector x = vec(1), w = vec(2);
  Vector scalars(b, 6);
  kernels::dot_to(x, w, scalars.data());
  EXPECT_EQ(scalars.to_host()[0], kernels::dot(x, w)) << "dot_to, n=" << n;

  std::vector<Vector> v;
  for (unsigned i = 0; i < 6; ++i) v.push_back(vec(20 + i));
  std::vector<const Vector*> p;
  for (const Vector& e : v) p.push_back(&e);
  const double alpha[6] = {0.5, -1.25, 2.0, 0.125, 3.5, -0.75};
  const Vector alpha_there(b, std::span<const double>(alpha, 6));
  for (int k = 1; k <= 6; ++k) {
    double want[6];
    kernels::multi_dot(p.data(), k, w, want);
    kernels::multi_dot_to(p.data(), k, w, scalars.data());
    const std::vector<double> got = scalars.to_host();
    for (int i = 0; i < k; ++i) EXPECT_EQ(got[std::size_t(i)], want[i]) << "multi_dot_to, k=" << k << " i=" << i;
    Vector from = vec(3), twin = vec(3);
    kernels::multi_axpy_from(alpha_there.data(), p.data(), k, from);
    kernels::multi_axpy(alpha, p.data(), k, twin);
    EXPECT_EQ(from.to_host(), twin.to_host()) << "multi_axpy_from, k=" << k << " n=" << n;
  }

  Vector from = vec(3), twin = vec(3);
  kernels::axpy_from(alpha_there.data() + 1, x, from);
  kernels::axpy(alpha[1], x, twin);
  EXPECT_EQ(from.to_host(), twin.to_host()) << "axpy_from, n=" << n;

  const Vector s(b, std::span<const double>(std::vector<double>{3.7, 0.0}));
  for (const bool keep : {false, true}) {
    Vector scaled = vec(4), by_inverse = vec(4);
    kernels::scale_by_inverse(s.data(), by_inverse, keep);
    kernels::scale(1.0 / 3.7, scaled);
    EXPECT_EQ(by_inverse.to_host(), scaled.to_host()) << "scale_by_inverse, keep_if_zero=" << keep << " n=" << n;
  }
  Vector kept = vec(4);
  kernels::scale_by_inverse(s.data() + 1, kept, true);
  EXPECT_EQ(kept.to_host(), random_vector(n, 4)) << "scale_by_inverse of 0, kept, n=" << n;
}

}  // namespace tb::test
