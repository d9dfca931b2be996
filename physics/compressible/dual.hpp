#pragma once
// Forward-mode differentiation for the numerical fluxes: a value with its
// derivatives along N directions. The fluxes are written once as templates on
// the scalar type; with double they are the residual's fluxes, with Dual<8>
// seeded on the four left and four right conserved variables they return the
// flux and its exact derivatives (every branch, Harten's entropy fix and the
// wave-speed choices as the double evaluation takes them), to rounding.
#include <array>
#include <cmath>

#include "solvers/core/host_device.hpp"

namespace tb::compressible {

template <int N>
struct Dual {
  double v = 0.0;
  std::array<double, N> d{};

  Dual() = default;
  TB_HOST_DEVICE Dual(double value) : v(value) {}  // NOLINT: a constant converts implicitly

  TB_HOST_DEVICE static Dual seed(double value, int direction) {
    Dual x(value);
    x.d[std::size_t(direction)] = 1.0;
    return x;
  }
};

template <int N>
TB_HOST_DEVICE inline Dual<N> operator+(const Dual<N>& a, const Dual<N>& b) {
  Dual<N> r(a.v + b.v);
  for (int i = 0; i < N; ++i) r.d[i] = a.d[i] + b.d[i];
  return r;
}
template <int N>
TB_HOST_DEVICE inline Dual<N> operator-(const Dual<N>& a, const Dual<N>& b) {
  Dual<N> r(a.v - b.v);
  for (int i = 0; i < N; ++i) r.d[i] = a.d[i] - b.d[i];
  return r;
}
template <int N>
TB_HOST_DEVICE inline Dual<N> operator-(const Dual<N>& a) {
  Dual<N> r(-a.v);
  for (int i = 0; i < N; ++i) r.d[i] = -a.d[i];
  return r;
}
template <int N>
TB_HOST_DEVICE inline Dual<N> operator*(const Dual<N>& a, const Dual<N>& b) {
  Dual<N> r(a.v * b.v);
  for (int i = 0; i < N; ++i) r.d[i] = a.d[i] * b.v + a.v * b.d[i];
  return r;
}
template <int N>
TB_HOST_DEVICE inline Dual<N> operator/(const Dual<N>& a, const Dual<N>& b) {
  const double inv = 1.0 / b.v;
  Dual<N> r(a.v * inv);
  for (int i = 0; i < N; ++i) r.d[i] = (a.d[i] - r.v * b.d[i]) * inv;
  return r;
}
template <int N>
TB_HOST_DEVICE inline Dual<N> operator+(const Dual<N>& a, double b) {
  Dual<N> r = a;
  r.v += b;
  return r;
}
template <int N>
TB_HOST_DEVICE inline Dual<N> operator+(double a, const Dual<N>& b) {
  return b + a;
}
template <int N>
TB_HOST_DEVICE inline Dual<N> operator-(const Dual<N>& a, double b) {
  Dual<N> r = a;
  r.v -= b;
  return r;
}
template <int N>
TB_HOST_DEVICE inline Dual<N> operator-(double a, const Dual<N>& b) {
  Dual<N> r = -b;
  r.v += a;
  return r;
}
template <int N>
TB_HOST_DEVICE inline Dual<N> operator*(const Dual<N>& a, double b) {
  Dual<N> r(a.v * b);
  for (int i = 0; i < N; ++i) r.d[i] = a.d[i] * b;
  return r;
}
template <int N>
TB_HOST_DEVICE inline Dual<N> operator*(double a, const Dual<N>& b) {
  return b * a;
}
template <int N>
TB_HOST_DEVICE inline Dual<N> operator/(const Dual<N>& a, double b) {
  return a * (1.0 / b);
}
template <int N>
TB_HOST_DEVICE inline Dual<N> operator/(double a, const Dual<N>& b) {
  return Dual<N>(a) / b;
}

template <int N>
TB_HOST_DEVICE inline Dual<N> sqrt(const Dual<N>& a) {
  Dual<N> r(std::sqrt(a.v));
  const double k = 0.5 / r.v;
  for (int i = 0; i < N; ++i) r.d[i] = a.d[i] * k;
  return r;
}
// d|x| = sign(x) dx, 0 at x = 0 (as spectral_radius_gradient takes it).
template <int N>
TB_HOST_DEVICE inline Dual<N> abs(const Dual<N>& a) {
  return a.v > 0.0 ? a : (a.v < 0.0 ? -a : Dual<N>(0.0));
}

TB_HOST_DEVICE inline double value(double x) { return x; }
template <int N>
TB_HOST_DEVICE inline double value(const Dual<N>& x) {
  return x.v;
}

}  // namespace tb::compressible
