#include "physics/immersed/ghost_cells.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <deque>
#include <string>

#include "solvers/core/error.hpp"

namespace tb::immersed {

namespace {

using Basis = Eigen::Matrix<double, 8, 1>;

// The trilinear basis (1, x, y, z, xy, yz, zx, xyz) and its normal derivative.
Basis basis(const Vec3& x) {
  Basis b;
  b << 1.0, x[0], x[1], x[2], x[0] * x[1], x[1] * x[2], x[2] * x[0], x[0] * x[1] * x[2];
  return b;
}

Basis normal_derivative(const Vec3& x, const Vec3& n) {
  Basis b;
  b << 0.0, n[0], n[1], n[2], n[0] * x[1] + n[1] * x[0], n[1] * x[2] + n[2] * x[1], n[2] * x[0] + n[0] * x[2],
      n[0] * x[1] * x[2] + n[1] * x[0] * x[2] + n[2] * x[0] * x[1];
  return b;
}

std::array<index_t, 8> image_box(const CartesianGrid& grid, const Vec3& ip) {
  const index_t i = grid.bracket(0, ip[0]), j = grid.bracket(1, ip[1]), k = grid.bracket(2, ip[2]);
  std::array<index_t, 8> nodes{};
  for (int c = 0; c < 8; ++c) nodes[c] = grid.index(i + (c & 1), j + ((c >> 1) & 1), k + ((c >> 2) & 1));
  return nodes;
}

std::string cell_name(const CartesianGrid& grid, index_t cell) {
  const auto c = grid.ijk(cell);
  return "(" + std::to_string(c[0]) + ", " + std::to_string(c[1]) + ", " + std::to_string(c[2]) + ")";
}

// Rows of V: the basis at each node (coordinates about IP in units of `scale`),
// the boundary condition's row at B for G; weights solve V^T w = e_0, since
// phi(IP) = c_0 = e_0 . V^{-1} phi.
ImageInterpolation interpolation(const CartesianGrid& grid, const GhostCell& g, const std::array<index_t, 8>& box,
                                 double scale, bool neumann) {
  auto local = [&](const Vec3& x) { return (1.0 / scale) * (x - g.image_point); };
  Eigen::Matrix<double, 8, 8> v;
  ImageInterpolation out;
  int replaced = -1;
  for (int k = 0; k < 8; ++k) {
    out.nodes[k] = box[k];
    if (box[k] == g.cell) {
      replaced = k;
      out.nodes[k] = -1;
      v.row(k) = neumann ? Basis((1.0 / scale) * normal_derivative(local(g.boundary_point), g.normal))
                         : basis(local(g.boundary_point));
    } else {
      v.row(k) = basis(local(grid.centre(grid.ijk(box[k]))));
    }
  }
  Eigen::FullPivLU<Eigen::Matrix<double, 8, 8>> lu(v.transpose());
  if (!lu.isInvertible())
    throw Error("ghost cell " + cell_name(grid, g.cell) + ": the image-point interpolation is singular (" +
                (neumann ? "Neumann" : "Dirichlet") + "); refine the grid near the body");
  Basis e0 = Basis::Zero();
  e0[0] = 1.0;
  const Basis w = lu.solve(e0);
  for (int k = 0; k < 8; ++k) out.weights[k] = k == replaced ? 0.0 : w[k];
  out.boundary_weight = replaced >= 0 ? w[replaced] : 0.0;
  for (int k = 0; k < 8; ++k)
    if (!std::isfinite(w[k]) || std::abs(w[k]) > 1e3)
      throw Error("ghost cell " + cell_name(grid, g.cell) + ": image-point weight " + std::to_string(w[k]) +
                  " is not usable; refine the grid near the body");
  return out;
}

GhostCell locate(const CartesianGrid& grid, const Body& body, index_t cell) {
  GhostCell g;
  g.cell = cell;
  const auto c = grid.ijk(cell);
  const Vec3 x = grid.centre(c);
  const SurfacePoint s = body.closest(x);
  g.boundary_point = s.point;
  const Vec3 to_surface = s.point - x;
  const double d = norm(to_surface);
  // The direction G -> B is the surface normal for a smooth body; the body's own
  // normal only where G lies on the surface.
  g.normal = d > 1e-10 * grid.min_width(c) ? (1.0 / d) * to_surface : s.normal;
  g.image_point = s.point + d * g.normal;
  g.image_distance = 2.0 * d;
  return g;
}

// On a rank's piece of the grid (docs/distributed.md) only the ghost cells whose image
// box can reach an owned cell get image points and weights: a box spans at
// most image_reach planes from its ghost cell (|IP - G| = 2 |B - G| is at most
// two widths, and the box adds the next centre). The others are located but
// keep no stencil (nodes -1): their rows belong to other ranks.
constexpr index_t image_reach = 3;

bool resolved_on_this_piece(const CartesianGrid& grid, index_t cell) {
  if (!grid.is_piece()) return true;
  const index_t k = grid.ijk(cell)[2];
  return k + image_reach >= grid.planes().owned_begin && k < grid.planes().owned_end + image_reach;
}

// An image point below the first or above the last centre of the piece would
// be clamped to the wrong box: the ghost planes were too few for this body.
void check_inside_piece(const CartesianGrid& grid, const GhostCell& g) {
  const std::vector<double>& z = grid.axis(2).centres;
  const bool below = grid.is_interface(4) && g.image_point[2] < z.front();
  const bool above = grid.is_interface(5) && g.image_point[2] > z.back();
  if (below || above)
    throw Error("ghost cell " + cell_name(grid, g.cell) + ": its image point lies beyond this rank's " +
                std::to_string(grid.cells(2)) + " z planes; run on fewer ranks");
}

}  // namespace

std::vector<CellType> classify_cells(const CartesianGrid& grid, const Body& body) {
  const index_t n = grid.num_cells();
  std::vector<CellType> t(std::size_t(n), CellType::fluid);
#pragma omp parallel for schedule(static)
  for (index_t cell = 0; cell < n; ++cell)
    if (body.inside(grid.centre(grid.ijk(cell)))) t[cell] = CellType::solid;
  for (index_t cell = 0; cell < n; ++cell) {
    if (t[cell] != CellType::solid) continue;
    const auto c = grid.ijk(cell);
    for (int d = 0; d < 3; ++d)
      for (int s : {-1, 1}) {
        const index_t m = c[d] + s;
        if (m >= 0 && m < grid.cells(d) && t[cell + s * grid.stride(d)] == CellType::fluid) t[cell] = CellType::ghost;
      }
  }
  return t;
}

GhostCells build_ghost_cells(const CartesianGrid& grid, const Body& body) {
  GhostCells out;
  out.types = classify_cells(grid, body);
  out.ghost_of.assign(out.types.size(), -1);
  std::deque<index_t> pending;
  for (index_t cell = 0; cell < grid.num_cells(); ++cell)
    if (out.types[cell] == CellType::ghost) pending.push_back(cell);
  std::vector<std::array<index_t, 8>> boxes;
  while (!pending.empty()) {
    const index_t cell = pending.front();
    pending.pop_front();
    out.ghost_of[cell] = index_t(out.ghosts.size());
    out.ghosts.push_back(locate(grid, body, cell));
    if (!resolved_on_this_piece(grid, cell)) {
      boxes.push_back({-1, -1, -1, -1, -1, -1, -1, -1});
      continue;
    }
    check_inside_piece(grid, out.ghosts.back());
    boxes.push_back(image_box(grid, out.ghosts.back().image_point));
    for (index_t node : boxes.back())
      if (out.types[node] == CellType::solid) {
        out.types[node] = CellType::ghost;
        pending.push_back(node);
      }
  }
  for (std::size_t k = 0; k < out.ghosts.size(); ++k) {
    GhostCell& g = out.ghosts[k];
    if (boxes[k][0] < 0) {
      g.dirichlet.nodes.fill(-1);
      g.neumann.nodes.fill(-1);
      continue;
    }
    const double scale = grid.min_width(grid.ijk(g.cell));
    g.dirichlet = interpolation(grid, g, boxes[k], scale, false);
    g.neumann = interpolation(grid, g, boxes[k], scale, true);
  }
  return out;
}

void check_ghost_planes(const CartesianGrid& grid, const GhostCells& ib, const DomainShare& share) {
  std::vector<double> owners(ib.types.size());
  for (std::size_t c = 0; c < owners.size(); ++c) owners[c] = double(ib.types[c]);
  share.exchange(owners, 1);
  const index_t reach = image_reach * grid.stride(2);
  const index_t lo = std::max<index_t>(0, grid.owned_cell_begin() - reach);
  const index_t hi = std::min(grid.num_cells(), grid.owned_cell_end() + reach);
  index_t differ = -1;
  for (index_t c = lo; c < hi && differ < 0; ++c)
    if (owners[c] != double(ib.types[c])) differ = c;
  if (share.max(differ >= 0 ? 1.0 : 0.0) == 0.0) return;
  throw Error("the body's ghost cells reach further than the " + std::to_string(grid.cells(2)) +
              " z planes a rank holds (cell types differ across ranks" +
              (differ >= 0 ? " at z plane " + std::to_string(grid.planes().first + grid.ijk(differ)[2]) : "") +
              "); run on fewer ranks");
}

double dirichlet_ghost_rhs(const GhostCell& g, double value) { return (2.0 - g.dirichlet.boundary_weight) * value; }

double neumann_ghost_rhs(const GhostCell& g, double normal_derivative) {
  return (g.neumann.boundary_weight - g.image_distance) * normal_derivative;
}

}  // namespace tb::immersed
