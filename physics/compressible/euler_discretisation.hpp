#pragma once
// Cell-centred finite volumes for the 2D Euler equations on a Mesh2D (seed 001
// §2): the residual r(w) = sum over faces of F . n |f| out of each cell, first
// order (cell states at the faces) or second order (least-squares gradients and
// linear reconstruction of (rho, u, v, p) to the face midpoints), and the
// first-order Jacobian dr/dw (Roe, HLLC or Rusanov) assembled into a BSR matrix of 4 x 4 blocks.
#include <optional>
#include <vector>

#include "mesh/geometry.hpp"
#include "physics/compressible/boundary_conditions.hpp"
#include "physics/compressible/gradients.hpp"
#include "physics/compressible/jacobian_pattern.hpp"
#include "physics/compressible/kernel_mesh.hpp"
#include "physics/compressible/manufactured.hpp"
#include "physics/compressible/viscous.hpp"

namespace tb::compressible {

struct EulerSettings {
  Gas gas;
  FluxScheme flux = FluxScheme::Roe;
  RoeDissipation roe{0.1, true};  // of the Roe flux, in the residual and the Jacobian alike
  // The flux whose first-order derivative the Jacobian takes; empty: `flux`
  // (the exact first-order Jacobian). Rusanov's is the cheaper, more dissipative one.
  std::optional<FluxScheme> jacobian_flux;
  FluxScheme jacobian_scheme() const { return jacobian_flux.value_or(flux); }
  // The least-squares gradients of boundary cells include a ghost per boundary
  // face (far field: the outside state at the face midpoint; walls: the mirrored
  // state at the mirrored centroid). false: interior neighbours only.
  bool boundary_ghost_gradients = true;
  // The cells each gradient reads (gradients.hpp): seed 001's face neighbours
  // here; tb-comp2d's default is TriangleNodes (docs/compressible.md).
  GradientStencil gradient_stencil = GradientStencil::Faces;
  // The walls' inviscid flux (boundary_conditions.hpp): the numerical flux with the
  // mirror state, or the inner pressure alone.
  WallFlux wall_flux = WallFlux::Mirror;
  bool limiter = false;    // Venkatakrishnan on the second-order reconstruction
  double limiter_k = 5.0;  // its K
  State free_stream{1.0, 0.0, 0.0, 1.0 / 0.56};
  Viscosity viscous;              // mu_inf = 0: Euler equations
  double wall_temperature = 1.0;  // of isothermal walls, over T_inf
};

class EulerDiscretisation {
 public:
  // The mesh must outlive the discretisation; boundary kinds are per marker
  // (boundary_kinds_by_marker). Geometry, gradient matrices and the Jacobian
  // pattern are built here, once; on a piece of a decomposed mesh, `piece`
  // makes the Jacobian this rank's block rows of the distributed system
  // (PieceNumbering; its global numbers are read here only).
  EulerDiscretisation(const Mesh2D& mesh, std::vector<BoundaryKind> kinds_by_marker, EulerSettings settings,
                      const PieceNumbering* piece = nullptr);

  const Mesh2D& mesh() const { return mesh_; }
  const MeshGeometry& geometry() const { return geometry_; }
  const EulerSettings& settings() const { return settings_; }
  index_t num_cells() const { return mesh_.num_cells(); }
  BoundaryKind boundary_kind(index_t face) const { return kinds_[std::size_t(mesh_.faces[std::size_t(face)].marker)]; }

  // r(w) for order 1 or 2; r has one State per cell.
  void residual(const std::vector<State>& w, int order, std::vector<State>& r);

  // The state on the left side of face f as the residual of `order` saw it in
  // its last evaluation (cell value, or reconstructed at the midpoint).
  State face_state(const std::vector<State>& w, int order, index_t face) const;

  // The pressure the inviscid flux exerts on wall face f: its normal momentum
  // flux (the inner pressure with WallFlux::Pressure, the wall Riemann pressure
  // with WallFlux::Mirror), so that forces integrate what the residual applies.
  double wall_pressure(const std::vector<State>& w, int order, index_t face) const;
  // The force on the body from the wall faces of cells [0, owned), summed in
  // face order: the pressure force sum (p - p_inf) n |f| (x, y) and the viscous
  // one -sum tau n |f| (x, y). Reads the reconstruction of the last residual.
  State wall_forces(const std::vector<State>& w, int order, index_t owned) const;

  // The viscous flux through a no-slip wall face (thin layer, the wall as a
  // mirrored ghost cell), as the residual adds it: r_i -= flux |f|.
  State wall_viscous_flux(const std::vector<State>& w, index_t face) const;
  // Its derivative with respect to the wall cell's state (mu frozen).
  Block wall_viscous_jacobian(const std::vector<State>& w, index_t face) const;
  // The mirrored ghost state of a no-slip wall (velocity reversed; temperature
  // equal, or 2 T_wall - T when isothermal), and its derivative.
  State wall_ghost(BoundaryKind kind, const State& inner) const;
  Block wall_ghost_jacobian(BoundaryKind kind, const State& inner) const;
  // Normal distance across face f (to the mirrored ghost on a boundary face).
  double face_distance(index_t f) const { return face_distance_[std::size_t(f)]; }

  // sum over the faces of cell i of (|u . n| + c) |f| (seed Eq. 4's denominator),
  // the largest of the two sides on interior faces, the interior state on boundary
  // faces; plus max(4/3, gamma/Pr) mu / (rho dist) |f| when viscous.
  void spectral_radius_sums(const std::vector<State>& w, std::vector<double>& sums) const;

  // The matrix diag(shift_i I) + dr/dw of the first-order flux
  // settings().jacobian_scheme() (plus the thin-layer viscous flux when viscous) at w, in the fixed pattern (values
  // refilled, pattern untouched). On a piece, a holds the owned cells'
  // columns and off_rank (of pattern().off_rank's pattern) the ghosts'; it may
  // be null where the piece has no ghost column.
  void assemble_jacobian(const std::vector<State>& w, const std::vector<double>& shift, BsrMatrix& a,
                         BsrMatrix* off_rank = nullptr) const;
  const JacobianPattern& pattern() const { return pattern_; }
  // The mesh and the scheme as kernels.hpp's loops read them (built once).
  const KernelMesh& kernel_mesh() const { return kernel_mesh_; }
  const SchemeView& scheme_view() const { return scheme_; }
  bool manufactured() const { return mms_ != nullptr; }

  // Manufactured-solution runs (manufactured.hpp): far-field faces take the exact
  // state at their midpoint as the outside state and add its exact viscous flux,
  // and every cell's residual has its source S_i subtracted, so the discrete
  // solution approximates the manufactured one. `mms` must outlive this object;
  // nullptr switches back to the free stream.
  void set_manufactured(const ManufacturedSolution* mms);

 private:
  void compute_gradients(const std::vector<State>& w);
  // Where each boundary face's ghost sits for the gradients (once per mesh).
  std::vector<Vec2> ghost_offsets() const;
  void reconstruct(const std::vector<State>& w);
  // The viscous terms (euler_viscous.cpp): modified-average face gradients inside,
  // the thin-layer wall stress on no-slip walls; and their thin-layer Jacobian.
  void add_viscous_residual(const std::vector<State>& w, std::vector<State>& r) const;
  void add_viscous_jacobian(const std::vector<State>& w, BsrMatrix& a, BsrMatrix* off_rank) const;

  State reconstructed(const std::vector<State>& w, index_t cell, const Vec2& at) const;
  // The outside state of boundary face f: the free stream, or the manufactured
  // solution at its midpoint.
  const State& outside_state(index_t f) const { return mms_ ? mms_outside_[std::size_t(f)] : settings_.free_stream; }
  // The state w (and, order 2, the reconstruction) as the loops read it.
  FlowView flow_view(const std::vector<State>& w, int order) const;

  const Mesh2D& mesh_;
  std::vector<BoundaryKind> kinds_;
  EulerSettings settings_;
  MeshGeometry geometry_;
  LeastSquaresGradients gradients_;
  JacobianPattern pattern_;
  // Normal distance between the two cells of an interior face, twice the
  // centroid-to-face distance on a boundary face (to the mirrored ghost).
  std::vector<double> face_distance_;
  // The mesh and scheme as the loops of kernels.hpp read them (once per mesh),
  // the Jacobian's face positions flat, and the face slots the loops fill.
  KernelMesh kernel_mesh_;
  SchemeView scheme_;
  std::vector<index_t> face_blocks_;
  mutable std::vector<double> face_values_;
  // Work arrays of the second-order residual, sized once (ghost primitives per face).
  std::vector<State> primitive_, phi_, ghost_primitive_;
  std::vector<Gradient> grad_;
  // set_manufactured: per cell source, per face outside state and viscous flux . n.
  const ManufacturedSolution* mms_ = nullptr;
  std::vector<State> mms_source_, mms_outside_, mms_viscous_flux_;
};

}  // namespace tb::compressible
