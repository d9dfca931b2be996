#include "physics/compressible/boundary_conditions.hpp"

#include <algorithm>

#include "solvers/core/error.hpp"

namespace tb::compressible {

std::vector<std::string> split_marker_list(const std::string& text) {
  std::vector<std::string> names;
  std::string current;
  auto flush = [&] {
    const auto first = current.find_first_not_of(" \t");
    if (first != std::string::npos) names.push_back(current.substr(first, current.find_last_not_of(" \t") - first + 1));
    current.clear();
  };
  for (char ch : text) {
    if (ch == ',')
      flush();
    else
      current += ch;
  }
  flush();
  return names;
}

namespace {

std::string marker_list(const Mesh2D& mesh) {
  std::string s;
  for (const auto& name : mesh.marker_names) s += (s.empty() ? "" : ", ") + ("'" + name + "'");
  return s.empty() ? "none" : s;
}

}  // namespace

std::vector<BoundaryKind> boundary_kinds_by_marker(const Mesh2D& mesh, const BoundaryMap& map) {
  std::vector<int> kind(std::size_t(mesh.num_markers()), -1);
  auto assign = [&](const std::vector<std::string>& names, BoundaryKind k, const char* what) {
    for (const auto& name : names) {
      const index_t m = mesh.find_marker(name);
      if (m < 0)
        throw Error(std::string(what) + ": '" + name + "' is not a marker of the mesh (markers: " + marker_list(mesh) +
                    ")");
      if (kind[std::size_t(m)] >= 0 && kind[std::size_t(m)] != int(k))
        throw Error(std::string(what) + ": marker '" + name + "' is already given another boundary kind");
      kind[std::size_t(m)] = int(k);
    }
  };
  assign(map.far_field, BoundaryKind::FarField, "boundary.farfield");
  assign(map.slip_wall, BoundaryKind::SlipWall, "boundary.wall");
  assign(map.no_slip_adiabatic, BoundaryKind::NoSlipAdiabatic, "boundary.noslip");
  assign(map.no_slip_isothermal, BoundaryKind::NoSlipIsothermal, "boundary.isothermal");
  for (index_t f = mesh.num_interior_faces; f < mesh.num_faces(); ++f) {
    const index_t m = mesh.faces[std::size_t(f)].marker;
    if (m < 0)
      throw Error("boundary face " + std::to_string(f) + " (cell " + std::to_string(mesh.faces[std::size_t(f)].left) +
                  ") has no marker; every boundary edge needs one");
    if (kind[std::size_t(m)] < 0)
      throw Error("marker '" + mesh.marker_names[std::size_t(m)] +
                  "' carries boundary faces but is in none of boundary.farfield, boundary.wall, boundary.noslip, "
                  "boundary.isothermal");
  }
  std::vector<BoundaryKind> result(kind.size(), BoundaryKind::FarField);
  for (std::size_t m = 0; m < kind.size(); ++m)
    if (kind[m] >= 0) result[m] = BoundaryKind(kind[m]);
  return result;
}

State mirrored(const State& s, double nx, double ny) {
  const double mn = s[1] * nx + s[2] * ny;
  return {s[0], s[1] - 2.0 * mn * nx, s[2] - 2.0 * mn * ny, s[3]};
}

State boundary_flux(BoundaryKind kind, FluxScheme scheme, const Gas& gas, const State& inner, const State& free_stream,
                    double nx, double ny, WallFlux wall, RoeDissipation fix) {
  if (!is_wall(kind)) return numerical_flux(scheme, gas, inner, free_stream, nx, ny, fix);
  if (wall == WallFlux::Mirror) {
    State f = numerical_flux(scheme, gas, inner, mirrored(inner, nx, ny), nx, ny, fix);
    // Zero in exact arithmetic for every scheme (the mirror has the same density
    // and energy and the opposite normal velocity); made exact so that the walls
    // conserve mass and energy to the bit.
    f[0] = 0.0, f[3] = 0.0;
    return f;
  }
  const double p = gas.pressure(inner);
  return {0.0, p * nx, p * ny, 0.0};
}

Block boundary_flux_jacobian(BoundaryKind kind, FluxScheme scheme, const Gas& gas, const State& inner,
                             const State& free_stream, double nx, double ny, WallFlux wall, RoeDissipation fix) {
  if (!is_wall(kind)) return flux_jacobians(scheme, gas, inner, free_stream, nx, ny, fix).left;
  if (wall == WallFlux::Mirror) {
    const FluxJacobians j = flux_jacobians(scheme, gas, inner, mirrored(inner, nx, ny), nx, ny, fix);
    // M = I except the momentum block I - 2 n n^T.
    const double m[2][2] = {{1.0 - 2.0 * nx * nx, -2.0 * nx * ny}, {-2.0 * nx * ny, 1.0 - 2.0 * ny * ny}};
    Block d = j.left;
    for (int k = 1; k < 3; ++k) {  // mass and energy rows are zero (boundary_flux)
      d[k * num_vars + 0] += j.right[k * num_vars + 0];
      d[k * num_vars + 3] += j.right[k * num_vars + 3];
      for (int a = 0; a < 2; ++a)
        for (int b = 0; b < 2; ++b) d[k * num_vars + 1 + b] += j.right[k * num_vars + 1 + a] * m[a][b];
    }
    for (int k : {0, 3})
      for (int c = 0; c < num_vars; ++c) d[k * num_vars + c] = 0.0;
    return d;
  }
  const State dp = pressure_gradient(gas, inner);
  Block j{};
  for (int m = 0; m < num_vars; ++m) {
    j[num_vars + m] = dp[m] * nx;
    j[2 * num_vars + m] = dp[m] * ny;
  }
  return j;
}

}  // namespace tb::compressible
