#include "physics/compressible/gradients.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "mesh/mesh_graph.hpp"
#include "solvers/core/error.hpp"

namespace tb::compressible {

GradientStencil parse_gradient_stencil(const std::string& name) {
  if (name == "faces") return GradientStencil::Faces;
  if (name == "nodes") return GradientStencil::Nodes;
  if (name == "triangle_nodes") return GradientStencil::TriangleNodes;
  throw Error("'" + name + "': expected faces, nodes or triangle_nodes");
}

namespace {

// Per cell the cells its gradient reads, ascending (CSR in a Graph's layout;
// not symmetric for TriangleNodes: a quadrilateral beside a triangle's corner
// is read by the triangle, not the other way).
Graph stencil_lists(const Mesh2D& mesh, GradientStencil stencil) {
  if (stencil == GradientStencil::Faces) return cell_graph(mesh);
  Graph nodes = cell_graph_through_nodes(mesh);
  if (stencil == GradientStencil::Nodes) return nodes;
  const Graph faces = cell_graph(mesh);
  Graph lists;
  for (index_t c = 0; c < mesh.num_cells(); ++c) {
    const Graph& g = mesh.cell_type(c) == CellType::Triangle ? nodes : faces;
    lists.col_idx.insert(lists.col_idx.end(), g.begin(c), g.end(c));
    lists.row_ptr.push_back(index_t(lists.col_idx.size()));
  }
  return lists;
}

}  // namespace

Graph reconstruction_graph(const Mesh2D& mesh, GradientStencil stencil) {
  if (stencil != GradientStencil::TriangleNodes) return stencil_lists(mesh, stencil);
  const Graph lists = stencil_lists(mesh, stencil);
  std::vector<std::pair<index_t, index_t>> edges;
  for (index_t c = 0; c < lists.size(); ++c)
    for (const index_t* j = lists.begin(c); j != lists.end(c); ++j) edges.push_back({c, *j});
  return graph_from_edges(mesh.num_cells(), edges);
}

LeastSquaresGradients::LeastSquaresGradients(const Mesh2D& mesh, const MeshGeometry& geometry,
                                             std::vector<Vec2> ghost_offsets, GradientStencil stencil)
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
  // TriangleNodes on a mesh without triangles is Faces: summed face by face, as
  // before the stencils, so that quadrilateral meshes keep their results bit for bit.
  bool triangles = false;
  for (index_t c = 0; c < mesh.num_cells() && !triangles; ++c) triangles = mesh.cell_type(c) == CellType::Triangle;
  if (stencil == GradientStencil::Faces || (stencil == GradientStencil::TriangleNodes && !triangles)) {
    for (index_t f = 0; f < mesh.num_interior_faces; ++f) {
      const Face& face = mesh.faces[std::size_t(f)];
      const Vec2 a = geometry.cell_centroid[std::size_t(face.left)],
                 b = geometry.cell_centroid[std::size_t(face.right)];
      add(face.left, b.x - a.x, b.y - a.y);
      add(face.right, b.x - a.x, b.y - a.y);
    }
  } else {
    Graph lists = stencil_lists(mesh, stencil);
    stencil_ptr_ = std::move(lists.row_ptr), stencil_cells_ = std::move(lists.col_idx);
    stencil_weighted_.resize(stencil_cells_.size());
    for (index_t c = 0; c < mesh.num_cells(); ++c)
      for (index_t k = stencil_ptr_[std::size_t(c)]; k < stencil_ptr_[std::size_t(c) + 1]; ++k) {
        const Vec2 a = geometry.cell_centroid[std::size_t(c)],
                   b = geometry.cell_centroid[std::size_t(stencil_cells_[std::size_t(k)])];
        const double dx = b.x - a.x, dy = b.y - a.y, w2 = 1.0 / (dx * dx + dy * dy);
        add(c, dx, dy);
        stencil_weighted_[std::size_t(k)] = {w2 * dx, w2 * dy};
      }
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
  if (stencil_ptr_.empty())
    add_face_neighbours(q, grad);
  else
    add_stencil(q, grad);
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

void LeastSquaresGradients::add_face_neighbours(const std::vector<State>& q, std::vector<Gradient>& grad) const {
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
}

void LeastSquaresGradients::add_stencil(const std::vector<State>& q, std::vector<Gradient>& grad) const {
  for (std::size_t c = 0; c < q.size(); ++c)
    for (index_t k = stencil_ptr_[c]; k < stencil_ptr_[c + 1]; ++k) {
      const std::size_t j = std::size_t(stencil_cells_[std::size_t(k)]);
      const Vec2 wd = stencil_weighted_[std::size_t(k)];
      for (int v = 0; v < num_vars; ++v) {
        const double dq = q[j][std::size_t(v)] - q[c][std::size_t(v)];
        grad[c][2 * v] += wd.x * dq, grad[c][2 * v + 1] += wd.y * dq;
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
