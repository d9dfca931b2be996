#pragma once
// A manufactured steady solution for verifying the order of accuracy (Roy,
// Nelson, Smith & Ober, Int. J. Numer. Meth. Fluids 44 (2004) style): smooth sine /
// cosine primitive fields on the plane, and the source each cell needs so that
// they solve the discrete equations' continuous counterpart,
//   S_i = integral over the boundary of cell i of (F - F_v)(w_exact) . n ds,
// which by Gauss's theorem is the cell integral of div (F - F_v). Integrating the
// flux along the edges (three-point Gauss) needs no second derivatives, and the
// same edges bound the discrete cell, so S_i carries no quadrature error of the
// cell area's shape.
#include <array>
#include <vector>

#include "mesh/geometry.hpp"
#include "physics/compressible/gas.hpp"
#include "physics/compressible/viscous.hpp"

namespace tb::compressible {

// d/dx and d/dy of rho, u, v, p (the layout of a Gradient in gradients.hpp).
using PrimitiveGradient = std::array<double, 2 * num_vars>;

class ManufacturedSolution {
 public:
  // mu_inf = 0 in `viscous`: the Euler equations.
  ManufacturedSolution(Gas gas, Viscosity viscous) : gas_(gas), viscous_(viscous) {}

  Primitive primitive(const Vec2& x) const;
  State conserved(const Vec2& x) const { return gas_.conserved(primitive(x)); }
  PrimitiveGradient gradient(const Vec2& x) const;
  // (F - F_v)(w_exact(x)) . n for a unit normal n.
  State net_flux(const Vec2& x, const Vec2& n) const;
  // F_v(w_exact(x)) . n alone: what a boundary face of the discrete scheme adds.
  State viscous_flux(const Vec2& x, const Vec2& n) const;
  // The integral of net_flux along the segment a -> b, with the normal (dy, -dx)/|ab|.
  State edge_integral(const Vec2& a, const Vec2& b) const;

  const Gas& gas() const { return gas_; }
  const Viscosity& viscous() const { return viscous_; }

 private:
  Gas gas_;
  Viscosity viscous_;
};

// S_i for every cell of the mesh (cells counter-clockwise, as Mesh2D stores them).
std::vector<State> manufactured_sources(const Mesh2D& mesh, const ManufacturedSolution& mms);

}  // namespace tb::compressible
