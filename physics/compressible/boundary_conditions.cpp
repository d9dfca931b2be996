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

State mirrored(const State& s, double nx, double ny) { return flux_bodies::mirrored(s, nx, ny); }

State boundary_flux(BoundaryKind kind, FluxScheme scheme, const Gas& gas, const State& inner, const State& free_stream,
                    double nx, double ny, WallFlux wall, RoeDissipation fix) {
  return flux_bodies::boundary_flux(kind, scheme, gas, inner, free_stream, nx, ny, wall, fix);
}

Block boundary_flux_jacobian(BoundaryKind kind, FluxScheme scheme, const Gas& gas, const State& inner,
                             const State& free_stream, double nx, double ny, WallFlux wall, RoeDissipation fix) {
  return flux_bodies::boundary_flux_jacobian(kind, scheme, gas, inner, free_stream, nx, ny, wall, fix);
}

}  // namespace tb::compressible
