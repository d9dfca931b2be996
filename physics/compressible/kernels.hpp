#pragma once
// The face and cell loops of the compressible residual, its first-order
// Jacobian and the pseudo-time update, each declared once with ref:: (the
// sequential twin the tests compare against), omp:: and cuda:: versions
// (loop_bodies.hpp holds the per-face and per-cell bodies all three run).
// Everything is read through plain views: pointers into arrays on the backend
// named, so a device run keeps the mesh uploaded once and its states resident.
//
// Faces add to their cells by a two-pass gather: a face loop writes each
// face's contribution to its own slot, then a cell loop sums its faces' slots
// in ascending face order. No two threads write one place, and the sum of every
// cell is taken in the order of the sequential face loop, so each version
// equals the sequential one bit for bit at any thread count (docs/compressible.md,
// "Face and cell loops").
#include "physics/compressible/flux_functions.hpp"
#include "physics/compressible/viscous.hpp"
#include "solvers/core/backend.hpp"
#include "solvers/core/types.hpp"

namespace tb::compressible {

// The mesh as the loops read it, built once per mesh (KernelMesh). Vectors are
// interleaved: normal, midpoint and centroid hold (x, y) per face or cell.
struct MeshView {
  index_t num_cells = 0;  // cells with states: a piece's owned cells and its ghosts
  index_t num_faces = 0;
  const index_t* face_left = nullptr;
  const index_t* face_right = nullptr;  // < 0 on a boundary face
  const double* normal = nullptr;       // unit, from left to right
  const double* length = nullptr;
  const double* midpoint = nullptr;
  const double* centroid = nullptr;
  const double* distance = nullptr;    // across the face (to the mirrored ghost on a boundary)
  const BoundaryKind* kind = nullptr;  // per face; read on boundary faces only
  // The faces of each cell in ascending order, CSR.
  const index_t* cell_face_ptr = nullptr;
  const index_t* cell_faces = nullptr;
  // The least-squares gradients (gradients.hpp): per cell the cells its
  // gradient reads, CSR, with w^2 d (x, y) per entry (stencil_ptr null: the
  // face neighbours, summed face by face); the inverse normal matrix (xx, xy,
  // yy) per cell; where each boundary face's ghost sits from its cell's
  // centroid, (x, y) per face (null: no ghosts); per face the weight w^2 =
  // 1 / |d|^2 of its centroid difference or of its ghost's offset. The
  // limiter's eps^2 per cell.
  const index_t* stencil_ptr = nullptr;
  const index_t* stencil_cells = nullptr;
  const double* stencil_weighted = nullptr;
  const double* ls_inverse = nullptr;
  const double* ghost_offset = nullptr;
  const double* ls_face_weight = nullptr;
  const double* limiter_eps2 = nullptr;
};

// The scheme's constants, copied by value into each launch.
struct SchemeView {
  Gas gas;
  FluxScheme flux = FluxScheme::Roe;
  FluxScheme jacobian_flux = FluxScheme::Roe;
  RoeDissipation roe;
  WallFlux wall_flux = WallFlux::Mirror;
  Viscosity viscous;              // mu_inf = 0: inviscid
  State free_stream{};            // the outside state where `outside` is null
  double wall_temperature = 1.0;  // of isothermal walls, over T_inf
};

// The flow state the face loops read: 4 conserved values per cell; for the
// second-order reconstruction the cell primitives (rho, u, v, p), their
// gradients (8 per cell, gradients.hpp's Gradient) and the limiter's phi (4 per
// cell), all null in first order; `outside` 4 per face (boundary faces), or null
// for the free stream; `outside_viscous` the exact viscous flux . n of a
// manufactured far field, 4 per face, or null.
struct FlowView {
  const double* w = nullptr;
  const double* primitive = nullptr;
  const double* grad = nullptr;
  const double* phi = nullptr;
  const double* outside = nullptr;
  const double* outside_viscous = nullptr;
};

// Where face blocks land in the Jacobian (jacobian_pattern.hpp's FaceBlocks
// positions, 4 per face: ll, lr, rl, rr) and the value arrays of the matrix and
// of a piece's off-rank matrix (positions <= -2; null on a whole mesh).
struct JacobianView {
  const index_t* face_blocks = nullptr;
  double* values = nullptr;
  double* off_rank_values = nullptr;
};

// The exact Jacobian's pattern as its column loop reads it
// (coloured_jacobian.hpp): rows in CSR (symmetric, so row j lists the rows of
// column j) and, per entry (j, i) of row j, the position of block (i, j).
struct ColumnPattern {
  const index_t* row_ptr = nullptr;
  const index_t* col_idx = nullptr;
  const index_t* transposed = nullptr;
};

// How a face's slot enters its cells' sums: a flux leaves the left cell and
// enters the right one; a spectral radius counts for both.
enum class FaceSign { out_of_left, both };

#define TB_COMPRESSIBLE_KERNELS                                                                                        \
  /* face_flux[4 f + k] = F_k(w_L, w_R, n_f) |f| of face f (boundary faces by their kind), order 1 or 2 */             \
  void inviscid_face_fluxes(const MeshView& m, const SchemeView& s, const FlowView& q, int order, double* face_flux);  \
  /* face_value[f] = (|u.n| + c) |f| (seed Eq. 4), the larger side inside, plus the viscous radius when viscous */     \
  void spectral_radius_faces(const MeshView& m, const SchemeView& s, const double* w, double* face_value);             \
  /* cell[width c + k] = sum over the faces of c, ascending, of face[width f + k], negated where c is the right        \
     cell if sign == FaceSign::out_of_left (a flux), added on both sides if FaceSign::both; cells [0, num_cells) */    \
  void gather_face_sums(const MeshView& m, FaceSign sign, int width, const double* face_value, double* cell);          \
  /* face_jac[32 f ..]: the first-order flux's dF/dw_L and dF/dw_R blocks of face f (boundary: dF_b/dw_i, zero); reads \
   * q.w, q.outside */                                                                                                 \
  void jacobian_face_blocks(const MeshView& m, const SchemeView& s, const FlowView& q, double* face_jac);              \
  /* each held row's blocks += its faces' blocks times +/- |f|, faces ascending; rows of [0, num_cells) */             \
  void gather_jacobian_rows(const MeshView& m, const double* face_jac, const JacobianView& a);                         \
  /* the diagonal block of each row c < n (position diagonal[c], -1: none) += shift[c] I */                            \
  void add_diagonal_shift(index_t n, const index_t* diagonal, const double* shift, double* values);                    \
  /* sum over cells [0, n) of r[4 c + k]^2, per k, in cell order (the norms of the CFL ramp) */                        \
  State squared_sums(index_t n, const double* r);                                                                      \
  /* shift[c] = sums[c] / cfl (seed Eq. 4: V_i / dtau_i) */                                                            \
  void pseudo_time_shift(index_t n, const double* sums, double cfl, double* shift);                                    \
  /* the relaxation's worst relative change of w + dw over cells [0, n) (seed Eq. 2) */                                \
  double max_relative_change(index_t n, const Gas& gas, const double* w, const double* dw);                            \
  /* trial = w + omega dw over cells [0, n); whether every trial state is admissible */                                \
  bool relaxed_update(index_t n, const Gas& gas, const double* w, const double* dw, double omega, double* trial);      \
  /* as gather_face_sums, onto cell's values: cell += the faces' slots in ascending face order */                      \
  void add_face_sums(const MeshView& m, FaceSign sign, int width, const double* face_value, double* cell);             \
  /* primitive[4 c ..] = (rho, u, v, p) of w[4 c ..] over cells [0, n) */                                              \
  void cell_primitives(index_t n, const Gas& gas, const double* w, double* primitive);                                 \
  /* ghost[4 f ..] = the primitives of boundary face f's gradient ghost (reads q.w, q.outside); interior faces kept */ \
  void ghost_primitives(const MeshView& m, const SchemeView& s, const FlowView& q, double* ghost);                     \
  /* grad[8 c ..] = cell c's least-squares gradient of primitive (ghost: 4 per face, read where m.ghost_offset) */     \
  void least_squares_gradients(const MeshView& m, const double* primitive, const double* ghost, double* grad);         \
  /* phi[4 c ..] = Venkatakrishnan's limiter of cell c for primitive and grad */                                       \
  void limiter_phi(const MeshView& m, const double* primitive, const double* grad, double* phi);                       \
  /* face_flux[4 f ..] = -F_v . n |f| of face f (reads q.w, q.primitive, q.grad, q.outside_viscous) */                 \
  void viscous_face_fluxes(const MeshView& m, const SchemeView& s, const FlowView& q, double* face_flux);              \
  /* face_jac[32 f ..]: minus the thin-layer viscous flux's dF/dw_L and dF/dw_R blocks of face f (no-slip wall:        \
     through its ghost; zero on other boundary faces), for gather_jacobian_rows */                                     \
  void viscous_jacobian_face_blocks(const MeshView& m, const SchemeView& s, const double* w, double* face_jac);        \
  /* face_force[4 f ..] = wall face f's pressure (x, y) and viscous (x, y) force on the body; zero on other faces      \
     and on faces of cells >= owned */                                                                                 \
  void wall_forces(const MeshView& m, const SchemeView& s, const FlowView& q, int order, index_t owned,                \
                   double* face_force);                                                                                \
  /* sum over i in [0, n), in index order, of v[4 i + k], per k (a fixed order: the same bits every run) */            \
  State ordered_sums(index_t n, const double* v);                                                                      \
  /* sums[k] = squared_sums(n, r)[k]: the four sums left where r is, nothing read back */                              \
  void squared_sums_to(index_t n, const double* r, double* sums);                                                      \
  /* *h = bodies::difference_step(*x_squared, ||w||), ||w|| = bodies::norm_of_sums(w_sums): one number, where the      \
     vectors are */                                                                                                    \
  void difference_step(const double* x_squared, const double* w_sums, double* h);                                      \
  /* trial[i] = w[i] + *h x[i], i in [0, n) (the matrix-free product's perturbed state) */                             \
  void perturbed_state(index_t n, const double* w, const double* h, const double* x, double* trial);                   \
  /* y[4 c + k] = shift[c] x[4 c + k] + (r_trial - r)[4 c + k] / *h over cells [0, n); 0 where *h = 0 */               \
  void difference_product(index_t n, const double* shift, const double* x, const double* r_trial, const double* r,     \
                          const double* h, double* y);                                                                 \
  /* trial[4 j + k] = w[4 j + k] plus its difference step, j in cells[0, count) (one colour of the exact Jacobian) */  \
  void perturb_columns(const index_t* cells, index_t count, int k, const double* w, double* trial);                    \
  /* per j in cells[0, count): column (j, k) of the exact Jacobian, (r_trial - r) / h, into values' blocks (i, j);     \
     trial[4 j + k] = w[4 j + k] again */                                                                              \
  void difference_columns(const ColumnPattern& p, const index_t* cells, index_t count, int k, const double* w,         \
                          const double* r, const double* r_trial, double* trial, double* values);

namespace kernels::ref {
TB_COMPRESSIBLE_KERNELS
}
namespace kernels::omp {
TB_COMPRESSIBLE_KERNELS
}
namespace kernels::cuda {
TB_COMPRESSIBLE_KERNELS
}

namespace kernels {
// Dispatch: the backend the pointers live on (the host runs omp::).
void inviscid_face_fluxes(Backend b, const MeshView& m, const SchemeView& s, const FlowView& q, int order,
                          double* face_flux);
void spectral_radius_faces(Backend b, const MeshView& m, const SchemeView& s, const double* w, double* face_value);
void gather_face_sums(Backend b, const MeshView& m, FaceSign sign, int width, const double* face_value, double* cell);
void jacobian_face_blocks(Backend b, const MeshView& m, const SchemeView& s, const FlowView& q, double* face_jac);
void gather_jacobian_rows(Backend b, const MeshView& m, const double* face_jac, const JacobianView& a);
void add_diagonal_shift(Backend b, index_t n, const index_t* diagonal, const double* shift, double* values);
State squared_sums(Backend b, index_t n, const double* r);
void pseudo_time_shift(Backend b, index_t n, const double* sums, double cfl, double* shift);
double max_relative_change(Backend b, index_t n, const Gas& gas, const double* w, const double* dw);
bool relaxed_update(Backend b, index_t n, const Gas& gas, const double* w, const double* dw, double omega,
                    double* trial);
void add_face_sums(Backend b, const MeshView& m, FaceSign sign, int width, const double* face_value, double* cell);
void cell_primitives(Backend b, index_t n, const Gas& gas, const double* w, double* primitive);
void ghost_primitives(Backend b, const MeshView& m, const SchemeView& s, const FlowView& q, double* ghost);
void least_squares_gradients(Backend b, const MeshView& m, const double* primitive, const double* ghost, double* grad);
void limiter_phi(Backend b, const MeshView& m, const double* primitive, const double* grad, double* phi);
void viscous_face_fluxes(Backend b, const MeshView& m, const SchemeView& s, const FlowView& q, double* face_flux);
void viscous_jacobian_face_blocks(Backend b, const MeshView& m, const SchemeView& s, const double* w, double* face_jac);
void wall_forces(Backend b, const MeshView& m, const SchemeView& s, const FlowView& q, int order, index_t owned,
                 double* face_force);
State ordered_sums(Backend b, index_t n, const double* v);
// sums: four numbers on the backend; h: one.
void squared_sums_to(Backend b, index_t n, const double* r, double* sums);
void difference_step(Backend b, const double* x_squared, const double* w_sums, double* h);
void perturbed_state(Backend b, index_t n, const double* w, const double* h, const double* x, double* trial);
void difference_product(Backend b, index_t n, const double* shift, const double* x, const double* r_trial,
                        const double* r, const double* h, double* y);
void perturb_columns(Backend b, const index_t* cells, index_t count, int k, const double* w, double* trial);
void difference_columns(Backend b, const ColumnPattern& p, const index_t* cells, index_t count, int k, const double* w,
                        const double* r, const double* r_trial, double* trial, double* values);
}  // namespace kernels

}  // namespace tb::compressible
