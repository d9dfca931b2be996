#pragma once
// Immersed bodies: what the ghost-cell method asks of a surface (seed 004's
// ref [1], Mittal et al. 2008 §2): an inside test for classifying cells, the
// closest surface point (the boundary intercept) with its outward normal, the
// surface velocity there, and a triangulation for output. Analytic sphere and
// ellipsoid, the pulsating ellipsoid of the moving case, and triangulated
// surfaces (STL, stl_reader.hpp).
#include <memory>
#include <vector>

#include "physics/immersed/cartesian_grid.hpp"

namespace tb::immersed {

struct Triangle {
  std::array<Vec3, 3> v;
};

struct SurfacePoint {
  Vec3 point;
  Vec3 normal;  // outward unit normal (into the fluid)
};

class Body {
 public:
  virtual ~Body() = default;
  virtual bool inside(const Vec3& x) const = 0;
  virtual SurfacePoint closest(const Vec3& x) const = 0;
  // Velocity of the surface at a surface point (zero for a body at rest).
  virtual Vec3 velocity(const Vec3& surface_point) const {
    (void)surface_point;
    return {0.0, 0.0, 0.0};
  }
  // Whether the body never moves: move_to never changes it, its surface velocity stays.
  virtual bool at_rest() const { return true; }
  // Places a moving body at time t; false (and nothing changes) for a body at rest.
  virtual bool move_to(double t) {
    (void)t;
    return false;
  }
  virtual std::vector<Triangle> triangulation() const = 0;
};

class Sphere final : public Body {
 public:
  Sphere(const Vec3& centre, double radius);
  bool inside(const Vec3& x) const override;
  SurfacePoint closest(const Vec3& x) const override;
  std::vector<Triangle> triangulation() const override;
  const Vec3& centre() const { return centre_; }
  double radius() const { return radius_; }

 private:
  Vec3 centre_;
  double radius_;
};

// Axis-aligned ellipsoid sum_d ((x_d - c_d) / a_d)^2 = 1.
class Ellipsoid : public Body {
 public:
  Ellipsoid(const Vec3& centre, const Vec3& semi_axes);
  bool inside(const Vec3& x) const override;
  SurfacePoint closest(const Vec3& x) const override;
  std::vector<Triangle> triangulation() const override;
  const Vec3& semi_axes() const { return a_; }

 protected:
  Vec3 centre_, a_;
};

// The moving case's stand-in for the paper's ventricle: semi-axes
// a(t) = a0 (1 + eps sin(2 pi f t)), a uniform dilatation about the centre, so
// the surface velocity at x is (x - c) a'(t) / a(t) component by component.
class PulsatingEllipsoid final : public Ellipsoid {
 public:
  PulsatingEllipsoid(const Vec3& centre, const Vec3& semi_axes0, double eps, double frequency);
  Vec3 velocity(const Vec3& surface_point) const override;
  bool move_to(double t) override;
  bool at_rest() const override { return false; }

 private:
  Vec3 a0_;
  double eps_, frequency_, rate_ = 0.0;  // rate_ = a'(t) / a(t), the same for every axis
};

// A closed, consistently oriented triangle surface. The inside test sums the
// solid angles of the triangles (the winding number); the closest point is the
// nearest of every triangle's closest points (bodies of a few thousand triangles).
class TriangulatedBody final : public Body {
 public:
  // Throws tb::Error when empty or when a triangle is degenerate (naming it).
  explicit TriangulatedBody(std::vector<Triangle> triangles);
  bool inside(const Vec3& x) const override;
  SurfacePoint closest(const Vec3& x) const override;
  std::vector<Triangle> triangulation() const override { return triangles_; }

 private:
  std::vector<Triangle> triangles_;
  std::vector<Vec3> unit_normals_;
  Vec3 box_lo_, box_hi_;
};

// Closest point of triangle t to x (Ericson, Real-Time Collision Detection §5.1.5).
Vec3 closest_point_on_triangle(const Vec3& x, const Triangle& t);

// Vector helpers shared by the room.
inline Vec3 operator-(const Vec3& a, const Vec3& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
inline Vec3 operator+(const Vec3& a, const Vec3& b) { return {a[0] + b[0], a[1] + b[1], a[2] + b[2]}; }
inline Vec3 operator*(double s, const Vec3& a) { return {s * a[0], s * a[1], s * a[2]}; }
inline double dot(const Vec3& a, const Vec3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
inline Vec3 cross(const Vec3& a, const Vec3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
double norm(const Vec3& a);

}  // namespace tb::immersed
