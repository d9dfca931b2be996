#include "physics/immersed/body.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include "solvers/core/error.hpp"

namespace tb::immersed {

double norm(const Vec3& a) { return std::sqrt(dot(a, a)); }

namespace {

// Latitude-longitude triangulation of the unit sphere mapped by `map`.
template <class Map>
std::vector<Triangle> lat_long(const Map& map) {
  constexpr int nlat = 16, nlon = 32;
  std::vector<Triangle> t;
  auto point = [&](int i, int j) {
    const double th = std::numbers::pi * i / nlat, ph = 2.0 * std::numbers::pi * j / nlon;
    return map(Vec3{std::sin(th) * std::cos(ph), std::sin(th) * std::sin(ph), std::cos(th)});
  };
  for (int i = 0; i < nlat; ++i)
    for (int j = 0; j < nlon; ++j) {
      const Vec3 a = point(i, j), b = point(i + 1, j), c = point(i + 1, j + 1), d = point(i, j + 1);
      if (i > 0) t.push_back({{a, b, d}});
      if (i + 1 < nlat) t.push_back({{b, c, d}});
    }
  return t;
}

}  // namespace

Sphere::Sphere(const Vec3& centre, double radius) : centre_(centre), radius_(radius) {
  TB_REQUIRE(radius > 0.0, "body.radius must be positive, not " + std::to_string(radius));
}

bool Sphere::inside(const Vec3& x) const { return dot(x - centre_, x - centre_) < radius_ * radius_; }

SurfacePoint Sphere::closest(const Vec3& x) const {
  Vec3 r = x - centre_;
  const double len = norm(r);
  const Vec3 n = len > 0.0 ? (1.0 / len) * r : Vec3{1.0, 0.0, 0.0};
  return {centre_ + radius_ * n, n};
}

std::vector<Triangle> Sphere::triangulation() const {
  return lat_long([&](const Vec3& u) { return centre_ + radius_ * u; });
}

Ellipsoid::Ellipsoid(const Vec3& centre, const Vec3& semi_axes) : centre_(centre), a_(semi_axes) {
  for (int d = 0; d < 3; ++d)
    TB_REQUIRE(a_[d] > 0.0, "the ellipsoid's semi-axes must be positive (axis " + std::to_string(d) + ")");
}

bool Ellipsoid::inside(const Vec3& x) const {
  double s = 0.0;
  for (int d = 0; d < 3; ++d) s += (x[d] - centre_[d]) * (x[d] - centre_[d]) / (a_[d] * a_[d]);
  return s < 1.0;
}

// The closest point q_d = a_d^2 p_d / (a_d^2 + t) where t solves
// F(t) = sum_d (a_d p_d / (a_d^2 + t))^2 - 1 = 0 (the Lagrange condition); F
// falls monotonically on t > -min a_d^2, so bisection on a bracket is safe.
SurfacePoint Ellipsoid::closest(const Vec3& x) const {
  Vec3 p = x - centre_;
  const double amin = std::min({a_[0], a_[1], a_[2]}), amax = std::max({a_[0], a_[1], a_[2]});
  for (int d = 0; d < 3; ++d)
    if (std::abs(p[d]) < 1e-12 * amax) p[d] = 1e-12 * amax;  // the centre and the axes' planes are degenerate
  auto f = [&](double t) {
    double s = 0.0;
    for (int d = 0; d < 3; ++d) s += std::pow(a_[d] * p[d] / (a_[d] * a_[d] + t), 2);
    return s - 1.0;
  };
  double lo = -amin * amin, hi = norm(p) * amax + amax * amax;
  for (int it = 0; it < 200 && hi - lo > 1e-15 * (std::abs(hi) + amax * amax); ++it) {
    const double mid = 0.5 * (lo + hi);
    (f(mid) > 0.0 ? lo : hi) = mid;
  }
  const double t = 0.5 * (lo + hi);
  Vec3 q, n;
  for (int d = 0; d < 3; ++d) {
    q[d] = a_[d] * a_[d] * p[d] / (a_[d] * a_[d] + t);
    n[d] = q[d] / (a_[d] * a_[d]);
  }
  return {centre_ + q, (1.0 / norm(n)) * n};
}

std::vector<Triangle> Ellipsoid::triangulation() const {
  return lat_long([&](const Vec3& u) { return centre_ + Vec3{a_[0] * u[0], a_[1] * u[1], a_[2] * u[2]}; });
}

PulsatingEllipsoid::PulsatingEllipsoid(const Vec3& centre, const Vec3& semi_axes0, double eps, double frequency)
    : Ellipsoid(centre, semi_axes0), a0_(semi_axes0), eps_(eps), frequency_(frequency) {
  TB_REQUIRE(std::abs(eps) < 1.0, "body.pulse_eps must lie in (-1, 1), not " + std::to_string(eps));
  TB_REQUIRE(frequency >= 0.0, "body.pulse_frequency must not be negative");
  move_to(0.0);
}

bool PulsatingEllipsoid::move_to(double t) {
  const double w = 2.0 * std::numbers::pi * frequency_;
  const double s = 1.0 + eps_ * std::sin(w * t);
  for (int d = 0; d < 3; ++d) a_[d] = a0_[d] * s;
  rate_ = eps_ * w * std::cos(w * t) / s;
  return true;
}

Vec3 PulsatingEllipsoid::velocity(const Vec3& surface_point) const { return rate_ * (surface_point - centre_); }

TriangulatedBody::TriangulatedBody(std::vector<Triangle> triangles) : triangles_(std::move(triangles)) {
  TB_REQUIRE(!triangles_.empty(), "a triangulated body needs at least one triangle");
  box_lo_ = box_hi_ = triangles_[0].v[0];
  for (std::size_t t = 0; t < triangles_.size(); ++t) {
    const auto& v = triangles_[t].v;
    const Vec3 n = cross(v[1] - v[0], v[2] - v[0]);
    const double len = norm(n);
    TB_REQUIRE(len > 0.0, "triangle " + std::to_string(t + 1) + " of the body is degenerate (zero area)");
    unit_normals_.push_back((1.0 / len) * n);
    for (const Vec3& p : v)
      for (int d = 0; d < 3; ++d) {
        box_lo_[d] = std::min(box_lo_[d], p[d]);
        box_hi_[d] = std::max(box_hi_[d], p[d]);
      }
  }
}

// Winding number by the solid angles of Van Oosterom & Strackee (1983): 1
// inside a closed surface, 0 outside, whatever the triangle order.
bool TriangulatedBody::inside(const Vec3& x) const {
  for (int d = 0; d < 3; ++d)
    if (x[d] < box_lo_[d] || x[d] > box_hi_[d]) return false;
  double omega = 0.0;
  for (const Triangle& t : triangles_) {
    const Vec3 a = t.v[0] - x, b = t.v[1] - x, c = t.v[2] - x;
    const double la = norm(a), lb = norm(b), lc = norm(c);
    const double num = dot(a, cross(b, c));
    const double den = la * lb * lc + dot(a, b) * lc + dot(b, c) * la + dot(c, a) * lb;
    omega += 2.0 * std::atan2(num, den);
  }
  return std::abs(omega) > 2.0 * std::numbers::pi;
}

SurfacePoint TriangulatedBody::closest(const Vec3& x) const {
  double best = INFINITY;
  SurfacePoint out{};
  for (std::size_t t = 0; t < triangles_.size(); ++t) {
    const Vec3 q = closest_point_on_triangle(x, triangles_[t]);
    const double d = dot(x - q, x - q);
    if (d < best) {
      best = d;
      out = {q, unit_normals_[t]};
    }
  }
  return out;
}

Vec3 closest_point_on_triangle(const Vec3& p, const Triangle& t) {
  const Vec3 &a = t.v[0], &b = t.v[1], &c = t.v[2];
  const Vec3 ab = b - a, ac = c - a, ap = p - a;
  const double d1 = dot(ab, ap), d2 = dot(ac, ap);
  if (d1 <= 0.0 && d2 <= 0.0) return a;
  const Vec3 bp = p - b;
  const double d3 = dot(ab, bp), d4 = dot(ac, bp);
  if (d3 >= 0.0 && d4 <= d3) return b;
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) return a + (d1 / (d1 - d3)) * ab;
  const Vec3 cp = p - c;
  const double d5 = dot(ab, cp), d6 = dot(ac, cp);
  if (d6 >= 0.0 && d5 <= d6) return c;
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) return a + (d2 / (d2 - d6)) * ac;
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0) return b + ((d4 - d3) / ((d4 - d3) + (d5 - d6))) * (c - b);
  const double denom = 1.0 / (va + vb + vc);
  return a + (vb * denom) * ab + (vc * denom) * ac;
}

}  // namespace tb::immersed
