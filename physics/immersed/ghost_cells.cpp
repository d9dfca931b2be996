#include "physics/immersed/ghost_cells.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "solvers/core/error.hpp"

namespace tb::immersed {

namespace {

std::string cell_name(const CartesianGrid& grid, index_t cell) {
  const auto c = grid.ijk(cell);
  return "(" + std::to_string(c[0]) + ", " + std::to_string(c[1]) + ", " + std::to_string(c[2]) + ")";
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
  return g;
}

// The stencils of G: the wall fits at B evaluated at G's centre.
void fit(const CartesianGrid& grid, const std::vector<CellType>& types, GhostCell& g) {
  const Vec3 x = grid.centre(grid.ijk(g.cell));
  try {
    g.dirichlet = WallFit(grid, types, g.boundary_point, g.normal, WallCondition::dirichlet).value_at(x);
    g.neumann = WallFit(grid, types, g.boundary_point, g.normal, WallCondition::neumann).value_at(x);
  } catch (const Error& e) {
    throw Error("ghost cell " + cell_name(grid, g.cell) + ": " + e.what());
  }
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
  for (index_t cell = 0; cell < grid.num_cells(); ++cell)
    if (out.types[cell] == CellType::ghost) {
      out.ghost_of[cell] = index_t(out.ghosts.size());
      out.ghosts.push_back(locate(grid, body, cell));
    }
  const index_t begin = grid.owned_cell_begin(), end = grid.owned_cell_end();
  // An error leaves the parallel loop as a message, thrown after it (the first ghost's that failed).
  std::size_t failed = out.ghosts.size();
  std::string why;
#pragma omp parallel for schedule(dynamic, 8)
  for (std::size_t k = 0; k < out.ghosts.size(); ++k) {
    if (out.ghosts[k].cell < begin || out.ghosts[k].cell >= end) continue;
    try {
      fit(grid, out.types, out.ghosts[k]);
    } catch (const Error& e) {
#pragma omp critical(tb_ghost_fit_error)
      if (k < failed) failed = k, why = e.what();
    }
  }
  if (failed < out.ghosts.size()) throw Error(why);
  return out;
}

void check_ghost_planes(const CartesianGrid& grid, const GhostCells& ib, const DomainShare& share) {
  std::vector<double> owners(ib.types.size());
  for (std::size_t c = 0; c < owners.size(); ++c) owners[c] = double(ib.types[c]);
  share.exchange(owners, 1);
  const index_t reach = stencil_reach * grid.stride(2);
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

double dirichlet_ghost_rhs(const GhostCell& g, double value) { return g.dirichlet.boundary_weight * value; }

double neumann_ghost_rhs(const GhostCell& g, double normal_derivative) {
  return g.neumann.boundary_weight * normal_derivative;
}

}  // namespace tb::immersed
