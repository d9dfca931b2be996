#pragma once
// Boundary conditions of the Euler equations on the faces of a Mesh2D, chosen
// per mesh marker.
//   far field: the free stream as the outside state of the numerical flux, a
//              characteristic condition (the Riemann flux lets each wave in or
//              out by the sign of its speed);
//   slip wall: no mass or energy through the face; the momentum flux is either
//              p n with the inner pressure (WallFlux::Pressure), or the
//              numerical flux between the inner state and its mirror image
//              (WallFlux::Mirror, as FVENS), which for every scheme here lets no
//              mass or energy through and adds the linearised wall Riemann
//              pressure p + rho c u_n (Roe): a damping of the normal velocity
//              that the pressure flux lacks, and whose Jacobian carries it;
//   no-slip walls (adiabatic, isothermal): the same inviscid flux; their viscous
//   flux (zero velocity, zero heat flux or a wall temperature) is added by the
//   discretisation, which knows the wall distance.
#include <string>
#include <vector>

#include "mesh/mesh2d.hpp"
#include "physics/compressible/flux_functions.hpp"  // BoundaryKind, WallFlux, is_wall

namespace tb::compressible {

// Marker names per kind, as a case file lists them.
struct BoundaryMap {
  std::vector<std::string> far_field;
  std::vector<std::string> slip_wall;
  std::vector<std::string> no_slip_adiabatic;
  std::vector<std::string> no_slip_isothermal;
};

// "a, b,c" -> {"a", "b", "c"}.
std::vector<std::string> split_marker_list(const std::string& text);

// The kind of each marker of the mesh. tb::Error when a name is not a marker of
// the mesh (the message lists the mesh's markers), a marker is given two kinds,
// or a boundary face carries a marker (or none) that the map leaves out.
std::vector<BoundaryKind> boundary_kinds_by_marker(const Mesh2D& mesh, const BoundaryMap& map);

// The state mirrored in a wall of unit normal n: the normal momentum reversed.
State mirrored(const State& s, double nx, double ny);

// The flux out of the domain through a boundary face, `inner` the interior state
// at the face, `free_stream` the far-field state; walls by `wall`.
State boundary_flux(BoundaryKind kind, FluxScheme scheme, const Gas& gas, const State& inner, const State& free_stream,
                    double nx, double ny, WallFlux wall, RoeDissipation fix = {});

// d boundary_flux / d inner of the first-order boundary flux with `scheme`
// (the far field's Riemann flux; a mirror wall's flux through the chain rule
// dF/dq_L + dF/dq_R M, M the mirror).
Block boundary_flux_jacobian(BoundaryKind kind, FluxScheme scheme, const Gas& gas, const State& inner,
                             const State& free_stream, double nx, double ny, WallFlux wall, RoeDissipation fix = {});

}  // namespace tb::compressible
