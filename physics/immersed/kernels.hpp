#pragma once
// The device steps of the immersed-boundary fractional step, declared once:
// each runs a per-cell (per-ghost, per-surface-point) body of cell_kernels.hpp.
// ref:: is the sequential twin the tests compare omp:: (bit for bit) and
// cuda:: against; the dispatching functions of namespace kernels take the
// backend the pointers live on (host runs omp::). The surface force adds in
// the fixed order of ordered_sums (64 parts of the points, each in point
// order) in ref:: and omp::, so both give the bits of any team size; cuda::
// adds in its own fixed order. Maxima are exact in any order.
//
// Cell ranges: the right-hand sides, the rows and the maxima run over the
// owned cells [owned_begin, owned_end), the face steps over
// [owned_begin, faces_end) (the owned cells' faces are the low faces of those
// cells), as the host loops did.
#include "physics/immersed/cell_kernels.hpp"
#include "solvers/core/backend.hpp"

namespace tb::immersed {

// A step's maxima over the owned fluid cells (cell::step_maxima).
struct StepMaxima {
  double divergence = 0.0, velocity_change = 0.0, cfl = 0.0;
  bool finite = true;
};

// The force on the surface: pressure and viscous parts (SurfaceForce).
struct ForceSums {
  double pressure[3] = {0.0, 0.0, 0.0};
  double viscous[3] = {0.0, 0.0, 0.0};
};

#define TB_IB_KERNELS                                                                                               \
  /* Eq. 5's right-hand side of component in.e in the owned cells; in.n_old takes this step's advection */          \
  void momentum_rhs(const GridView& g, const cell::MomentumView& in);                                               \
  /* rhs[cells[k]] = values[k]: the ghost rows' right-hand sides */                                                 \
  void ghost_values(index_t n, const index_t* cells, const double* values, double* rhs);                            \
  /* the face velocities from the centres */                                                                        \
  void face_velocities(const GridView& g, const SidesView& sides, const cell::ConstVelocityView& u,                 \
                       const FaceView& faces);                                                                      \
  /* Eq. 6's right-hand side in the owned cells */                                                                  \
  void pressure_rhs(const GridView& g, const ConstFaceView& faces, double scale, double* rhs);                      \
  /* Eq. 4: faces and owned fluid cells corrected by p, k = dt / rho */                                             \
  void project(const GridView& g, const SidesView& sides, double k, const double* p, const FaceView& faces,         \
               const cell::VelocityView& u);                                                                        \
  /* the step's maxima over the owned cells */                                                                      \
  StepMaxima step_maxima(const GridView& g, const cell::ConstVelocityView& u, const cell::ConstVelocityView& u_old, \
                         const ConstFaceView& faces, double dt);                                                    \
  /* the rows of the owned cells: Eq. 7 on fluid cells, the identity elsewhere */                                   \
  void system_rows(const GridView& g, const cell::RowsView& rows);                                                  \
  /* each ghost's stencil subtracted from its row (at = matrix positions) */                                        \
  void ghost_rows(const cell::StencilsView& stencils, double* values);                                              \
  /* the force of p and u on the surface points */                                                                  \
  ForceSums surface_force(const cell::SurfaceView& s, const double* p, const cell::ConstVelocityView& u);           \
  /* max |v[i]| over n values; NaN where one is NaN */                                                              \
  double max_abs(index_t n, const double* v);                                                                       \
  /* the moved cells' new types into types; the freshly cleared flagged and filled from their neighbours */         \
  void move_cells(const GridView& g, const cell::MovedCellsView& m, CellType* types, char* cleared,                 \
                  const cell::VelocityView& u, double* p);                                                          \
  /* cleared[cells[k]] = 0 for the moved cells: their flags back once the predictor has read them */                \
  void unmark_cells(const cell::MovedCellsView& m, char* cleared);

namespace kernels::ref {
TB_IB_KERNELS
}
namespace kernels::omp {
TB_IB_KERNELS
}
namespace kernels::cuda {
TB_IB_KERNELS
}

// Dispatch: the backend the pointers live on.
namespace kernels {
void momentum_rhs(Backend b, const GridView& g, const cell::MomentumView& in);
void ghost_values(Backend b, index_t n, const index_t* cells, const double* values, double* rhs);
void face_velocities(Backend b, const GridView& g, const SidesView& sides, const cell::ConstVelocityView& u,
                     const FaceView& faces);
void pressure_rhs(Backend b, const GridView& g, const ConstFaceView& faces, double scale, double* rhs);
void project(Backend b, const GridView& g, const SidesView& sides, double k, const double* p, const FaceView& faces,
             const cell::VelocityView& u);
StepMaxima step_maxima(Backend b, const GridView& g, const cell::ConstVelocityView& u,
                       const cell::ConstVelocityView& u_old, const ConstFaceView& faces, double dt);
void system_rows(Backend b, const GridView& g, const cell::RowsView& rows);
void ghost_rows(Backend b, const cell::StencilsView& stencils, double* values);
ForceSums surface_force(Backend b, const cell::SurfaceView& s, const double* p, const cell::ConstVelocityView& u);
double max_abs(Backend b, index_t n, const double* v);
void move_cells(Backend b, const GridView& g, const cell::MovedCellsView& m, CellType* types, char* cleared,
                const cell::VelocityView& u, double* p);
void unmark_cells(Backend b, const cell::MovedCellsView& m, char* cleared);
}  // namespace kernels

}  // namespace tb::immersed
