#include "physics/compressible/gradients.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "solvers/core/error.hpp"

namespace tb::compressible {

LeastSquaresGradients::LeastSquaresGradients(const Mesh2D& mesh, const MeshGeometry& geometry,
                                             std::vector<Vec2> ghost_offsets)
    : mesh_(mesh),
      geometry_(geometry),
      ghost_offsets_(std::move(ghost_offsets)),
      inverse_(std::size_t(mesh.num_cells())) {
  const index_t boundary_faces = mesh.num_faces() - mesh.num_interior_faces;
  if (!ghost_offsets_.empty() && index_t(ghost_offsets_.size()) != boundary_faces)
    throw Error("LeastSquaresGradients: " + std::to_string(ghost_offsets_.size()) + " ghost offsets for " +
                std::to_string(boundary_faces) + " boundary faces");
  std::vector<std::array<double, 3>> normal(std::size_t(mesh.num_cells()), {0.0, 0.0, 0.0});
  const auto add = [&](index_t c, double dx, double dy) {
    const double w2 = 1.0 / (dx * dx + dy * dy);
    auto& m = normal[std::size_t(c)];
    m[0] += w2 * dx * dx, m[1] += w2 * dx * dy, m[2] += w2 * dy * dy;
  };
  for (index_t f = 0; f < mesh.num_interior_faces; ++f) {
    const Face& face = mesh.faces[std::size_t(f)];
    const Vec2 a = geometry.cell_centroid[std::size_t(face.left)], b = geometry.cell_centroid[std::size_t(face.right)];
    add(face.left, b.x - a.x, b.y - a.y);
    add(face.right, b.x - a.x, b.y - a.y);
  }
  for (std::size_t b = 0; b < ghost_offsets_.size(); ++b)
    add(mesh.faces[std::size_t(mesh.num_interior_faces) + b].left, ghost_offsets_[b].x, ghost_offsets_[b].y);
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
  if (has_ghosts()) throw Error("LeastSquaresGradients::compute: these gradients need the ghost values");
  compute(q, {}, grad);
}

void LeastSquaresGradients::compute(const std::vector<State>& q, const std::vector<State>& ghost,
                                    std::vector<Gradient>& grad) const {
  if (ghost.size() != ghost_offsets_.size())
    throw Error("LeastSquaresGradients::compute: " + std::to_string(ghost.size()) + " ghost values for " +
                std::to_string(ghost_offsets_.size()) + " ghosts");
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
  for (std::size_t b = 0; b < ghost.size(); ++b) {
    const std::size_t c = std::size_t(mesh_.faces[std::size_t(mesh_.num_interior_faces) + b].left);
    const double dx = ghost_offsets_[b].x, dy = ghost_offsets_[b].y, w2 = 1.0 / (dx * dx + dy * dy);
    for (int k = 0; k < num_vars; ++k) {
      const double dq = w2 * (ghost[b][std::size_t(k)] - q[c][std::size_t(k)]);
      grad[c][2 * k] += dx * dq, grad[c][2 * k + 1] += dy * dq;
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

VenkatakrishnanLimiter::VenkatakrishnanLimiter(const Mesh2D& mesh, const MeshGeometry& geometry, double k)
    : mesh_(mesh), geometry_(geometry), eps2_(geometry.cell_area.size()) {
  for (std::size_t c = 0; c < eps2_.size(); ++c) eps2_[c] = std::pow(k * std::sqrt(geometry.cell_area[c]), 3);
}

void VenkatakrishnanLimiter::compute(const std::vector<State>& q, const std::vector<Gradient>& grad,
                                     std::vector<State>& phi) {
  qmin_.assign(q.begin(), q.end());
  qmax_.assign(q.begin(), q.end());
  for (index_t f = 0; f < mesh_.num_interior_faces; ++f) {
    const Face& face = mesh_.faces[std::size_t(f)];
    const std::size_t l = std::size_t(face.left), r = std::size_t(face.right);
    for (std::size_t v = 0; v < num_vars; ++v) {
      qmin_[l][v] = std::min(qmin_[l][v], q[r][v]), qmax_[l][v] = std::max(qmax_[l][v], q[r][v]);
      qmin_[r][v] = std::min(qmin_[r][v], q[l][v]), qmax_[r][v] = std::max(qmax_[r][v], q[l][v]);
    }
  }
  phi.assign(q.size(), State{1.0, 1.0, 1.0, 1.0});
  auto limit_side = [&](std::size_t c, const Vec2& mid) {
    const Vec2 x = geometry_.cell_centroid[c];
    for (std::size_t v = 0; v < num_vars; ++v) {
      const double d2 = grad[c][2 * v] * (mid.x - x.x) + grad[c][2 * v + 1] * (mid.y - x.y);
      double psi = 1.0;
      if (d2 > 0.0)
        psi = venkat(qmax_[c][v] - q[c][v], d2, eps2_[c]);
      else if (d2 < 0.0)
        psi = venkat(qmin_[c][v] - q[c][v], d2, eps2_[c]);
      phi[c][v] = std::min(phi[c][v], std::clamp(psi, 0.0, 1.0));
    }
  };
  for (index_t f = 0; f < mesh_.num_faces(); ++f) {
    const Face& face = mesh_.faces[std::size_t(f)];
    const Vec2 mid = geometry_.face_midpoint[std::size_t(f)];
    limit_side(std::size_t(face.left), mid);
    if (!face.is_boundary()) limit_side(std::size_t(face.right), mid);
  }
}

}  // namespace tb::compressible
