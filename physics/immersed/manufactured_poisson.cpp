#include "physics/immersed/manufactured_poisson.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

namespace tb::immersed {

double manufactured_phi(const Vec3& x) {
  return std::sin(1.3 * x[0] + 0.4) * std::cos(0.9 * x[1]) * std::exp(0.5 * x[2]);
}

Vec3 manufactured_gradient(const Vec3& x) {
  const double s = std::sin(1.3 * x[0] + 0.4), c = std::cos(1.3 * x[0] + 0.4);
  const double cy = std::cos(0.9 * x[1]), sy = std::sin(0.9 * x[1]), ez = std::exp(0.5 * x[2]);
  return {1.3 * c * cy * ez, -0.9 * s * sy * ez, 0.5 * s * cy * ez};
}

PoissonResult solve_manufactured_poisson(const CartesianGrid& grid, const GhostCells& ib, BodyCondition body,
                                         systems::LinearSystems& systems, systems::SystemId pressure) {
  std::optional<systems::AssemblyTimer> assembly(std::in_place, systems);
  const SystemPattern pattern = make_system_pattern(grid, ib);
  BsrMatrix a = pattern.matrix;
  const BoxConditions box{FaceKind::dirichlet, FaceKind::dirichlet, FaceKind::dirichlet,
                          FaceKind::dirichlet, FaceKind::dirichlet, FaceKind::dirichlet};
  assemble_system(grid, ib, pattern, box, body, 0.0, 1.0, a);
  const std::size_t n = std::size_t(grid.num_cells());
  std::vector<double> rhs(n, 0.0);
  const index_t begin = grid.owned_cell_begin(), end = grid.owned_cell_end();
  for (index_t cell = begin; cell < end; ++cell)
    if (ib.types[cell] == CellType::fluid) rhs[cell] = 2.25 * manufactured_phi(grid.centre(grid.ijk(cell)));
  add_box_values(
      grid, ib, box, 1.0, [](int, const Vec3& x) { return manufactured_phi(x); }, rhs);
  set_ghost_rhs(
      ib, body,
      [&](const GhostCell& g) {
        return body == BodyCondition::dirichlet ? manufactured_phi(g.boundary_point)
                                                : dot(g.normal, manufactured_gradient(g.boundary_point));
      },
      rhs);
  PoissonResult r;
  r.phi.assign(n, 0.0);
  const auto owned = [&](std::vector<double>& v) {
    return std::span<double>(v).subspan(std::size_t(begin), std::size_t(end - begin));
  };
  assembly.reset();
  r.stats = systems.solve(pressure, a, owned(rhs), owned(r.phi));
  for (index_t cell = begin; cell < end; ++cell)
    if (ib.types[cell] == CellType::fluid)
      r.max_error = std::max(r.max_error, std::abs(r.phi[cell] - manufactured_phi(grid.centre(grid.ijk(cell)))));
  return r;
}

}  // namespace tb::immersed
