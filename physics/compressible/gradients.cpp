#include "physics/compressible/gradients.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tb::compressible {

LeastSquaresGradients::LeastSquaresGradients(const Mesh2D& mesh, const MeshGeometry& geometry)
    : mesh_(mesh), geometry_(geometry), inverse_(std::size_t(mesh.num_cells())) {
  std::vector<std::array<double, 3>> normal(std::size_t(mesh.num_cells()), {0.0, 0.0, 0.0});
  for (index_t f = 0; f < mesh.num_interior_faces; ++f) {
    const Face& face = mesh.faces[std::size_t(f)];
    const Vec2 a = geometry.cell_centroid[std::size_t(face.left)], b = geometry.cell_centroid[std::size_t(face.right)];
    const double dx = b.x - a.x, dy = b.y - a.y, w2 = 1.0 / (dx * dx + dy * dy);
    for (index_t c : {face.left, face.right}) {
      auto& m = normal[std::size_t(c)];
      m[0] += w2 * dx * dx, m[1] += w2 * dx * dy, m[2] += w2 * dy * dy;
    }
  }
  for (std::size_t c = 0; c < normal.size(); ++c) {
    const auto& m = normal[c];
    const double det = m[0] * m[2] - m[1] * m[1];
    // The weighted normal matrix is dimensionless (unit weighted directions), so
    // an absolute threshold separates "spans the plane" from "degenerate".
    inverse_[c] =
        det > 1e-10 ? std::array<double, 3>{m[2] / det, -m[1] / det, m[0] / det} : std::array<double, 3>{0.0, 0.0, 0.0};
  }
}

void LeastSquaresGradients::compute(const std::vector<State>& q, std::vector<Gradient>& grad) const {
  grad.assign(q.size(), Gradient{});
  for (index_t f = 0; f < mesh_.num_interior_faces; ++f) {
    const Face& face = mesh_.faces[std::size_t(f)];
    const std::size_t l = std::size_t(face.left), r = std::size_t(face.right);
    const Vec2 a = geometry_.cell_centroid[l], b = geometry_.cell_centroid[r];
    const double dx = b.x - a.x, dy = b.y - a.y, w2 = 1.0 / (dx * dx + dy * dy);
    for (int k = 0; k < num_vars; ++k) {
      const double dq = w2 * (q[r][std::size_t(k)] - q[l][std::size_t(k)]);
      // The same term for both cells: (-d)(-dq) = d dq.
      grad[l][2 * k] += dx * dq, grad[l][2 * k + 1] += dy * dq;
      grad[r][2 * k] += dx * dq, grad[r][2 * k + 1] += dy * dq;
    }
  }
  for (std::size_t c = 0; c < grad.size(); ++c) {
    const auto& inv = inverse_[c];
    for (int k = 0; k < num_vars; ++k) {
      const double bx = grad[c][2 * k], by = grad[c][2 * k + 1];
      grad[c][2 * k] = inv[0] * bx + inv[1] * by;
      grad[c][2 * k + 1] = inv[1] * bx + inv[2] * by;
    }
  }
}

namespace {

// Venkatakrishnan (1995): psi = (d1^2 + eps2 + 2 d1 d2) / (d1^2 + 2 d2^2 + d1 d2 + eps2),
// d1 the allowed excursion, d2 the unlimited one.
double venkat(double d1, double d2, double eps2) {
  return (d1 * d1 + eps2 + 2.0 * d1 * d2) / (d1 * d1 + 2.0 * d2 * d2 + d1 * d2 + eps2);
}

}  // namespace

void venkatakrishnan_limiter(const Mesh2D& mesh, const MeshGeometry& geometry, const std::vector<State>& q,
                             const std::vector<Gradient>& grad, double k, std::vector<State>& phi) {
  const std::size_t n = q.size();
  std::vector<State> qmin(q), qmax(q);
  for (index_t f = 0; f < mesh.num_interior_faces; ++f) {
    const Face& face = mesh.faces[std::size_t(f)];
    const std::size_t l = std::size_t(face.left), r = std::size_t(face.right);
    for (std::size_t v = 0; v < num_vars; ++v) {
      qmin[l][v] = std::min(qmin[l][v], q[r][v]), qmax[l][v] = std::max(qmax[l][v], q[r][v]);
      qmin[r][v] = std::min(qmin[r][v], q[l][v]), qmax[r][v] = std::max(qmax[r][v], q[l][v]);
    }
  }
  phi.assign(n, State{1.0, 1.0, 1.0, 1.0});
  auto limit_side = [&](std::size_t c, const Vec2& mid) {
    const Vec2 x = geometry.cell_centroid[c];
    const double h = std::sqrt(geometry.cell_area[c]), eps2 = std::pow(k * h, 3);
    for (std::size_t v = 0; v < num_vars; ++v) {
      const double d2 = grad[c][2 * v] * (mid.x - x.x) + grad[c][2 * v + 1] * (mid.y - x.y);
      double psi = 1.0;
      if (d2 > 0.0)
        psi = venkat(qmax[c][v] - q[c][v], d2, eps2);
      else if (d2 < 0.0)
        psi = venkat(qmin[c][v] - q[c][v], d2, eps2);
      phi[c][v] = std::min(phi[c][v], std::clamp(psi, 0.0, 1.0));
    }
  };
  for (index_t f = 0; f < mesh.num_faces(); ++f) {
    const Face& face = mesh.faces[std::size_t(f)];
    const Vec2 mid = geometry.face_midpoint[std::size_t(f)];
    limit_side(std::size_t(face.left), mid);
    if (!face.is_boundary()) limit_side(std::size_t(face.right), mid);
  }
}

}  // namespace tb::compressible
