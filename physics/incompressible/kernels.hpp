#pragma once
// The device steps of the incompressible fractional step, declared once: each
// runs a per-cell body of cell_kernels.hpp over the cells. ref:: is the
// sequential twin the tests compare omp:: (bit for bit) and cuda:: against;
// the dispatching functions of namespace kernels take the backend the pointers
// live on (host runs omp::). Sums add in the fixed order of ordered_sums (64
// parts of the range, each in cell order) in ref:: and omp::, so both give
// the bits of any team size; cuda:: adds in its own fixed order. Maxima are
// exact in any order.
//
// Cell ranges: the per-cell steps run over every local cell of the grid view
// (a piece's ghost planes included, as the host loops did), the assembly and
// the reductions over the owned cells [owned_begin, owned_end).
#include "physics/incompressible/cell_kernels.hpp"
#include "solvers/core/backend.hpp"

namespace tb::incompressible {

// The momentum rows' sums: sum of res^2 / vol and the volume, over the owned cells.
struct MomentumSums {
  double residual = 0.0;
  double volume = 0.0;
};

// A step's maxima over the owned cells (cell::step_maxima).
struct StepMaxima {
  double cfl = 0.0, velocity_change = 0.0, divergence = 0.0;
  bool finite = true;
};

// What a projection leaves (FractionalStep::divergence_left): the sum of dt r
// over the owned cells but the pinned one, and the largest dt |r| / vol.
struct DivergenceLeft {
  double flux = 0.0, largest = 0.0;
};

#define TB_INCOMP_KERNELS                                                                                              \
  /* grad p, dim per cell, in every local cell */                                                                      \
  void pressure_gradient(const GridView& g, const double* p, double* grad);                                            \
  /* the Rhie-Chow face velocities and the boundary faces' */                                                          \
  void rhie_chow(const GridView& g, const BoundaryView& b, const double* u, const double* p, const double* grad_p,     \
                 double dt, const FaceView& faces);                                                                    \
  /* div U per cell */                                                                                                 \
  void divergence(const GridView& g, const ConstFaceView& faces, double* div);                                         \
  /* faces, u and p corrected by phi, whose gradient is in grad_phi */                                                 \
  void project(const GridView& g, const double* phi, double dt, const double* grad_phi, const FaceView& faces,         \
               double* u, double* p);                                                                                  \
  /* the Poisson right-hand side of every local cell */                                                                \
  void poisson_rhs(const GridView& g, const ConstFaceView& faces, double dt, double* rhs);                             \
  /* the Poisson matrix's rows of the owned cells */                                                                   \
  void poisson_rows(const GridView& g, const index_t* position, const BlockView& a);                                   \
  /* out[i] += (A p) of owned cell owned_begin + i */                                                                  \
  void add_poisson_product(const GridView& g, const index_t* position, const ConstBlockView& a, const double* p,       \
                           double* out);                                                                               \
  /* the momentum rows of the owned cells: blocks, right-hand sides, the residual's sums */                            \
  MomentumSums momentum_rows(const GridView& g, const BoundaryView& b, const cell::MomentumView& in,                   \
                             const index_t* position, const BlockView& a, double* rhs);                                \
  /* the projection's scale: max over the owned cells of max(dt |b_div| / vol, sum_d |u_d| / h_d) */                   \
  double projection_scale(const GridView& g, double dt, const double* b_div, const double* u);                         \
  /* r (per owned cell) from A phi - b to b - A phi, zero at the pinned cell (pin < 0: none), and what it leaves */    \
  DivergenceLeft divergence_left(const GridView& g, double dt, index_t pin, double* r);                                \
  /* the step's maxima over the owned cells */                                                                         \
  StepMaxima step_maxima(const GridView& g, const double* u, const double* u_old, const double* div, double dt);       \
  /* max |v[i]| over n values; NaN where one is NaN (harness::max_magnitude) */                                        \
  double max_abs(index_t n, const double* v);                                                                          \
  /* y[i] += a x[i] */                                                                                                 \
  void add_scaled(index_t n, double a, const double* x, double* y);                                                    \
  /* out[i] = sum_k w[4 i + k] f[m (cell[4 i + k]) + e] over the k with w != 0: line samples */                        \
  void weighted_samples(index_t n, const index_t* cells, const double* w, const double* f, int m, int e, double* out); \
  /* max_i |profile - reference| of a centreline comparison over n reference points (std::max: NaN skipped) */         \
  double max_line_deviation(index_t n, const cell::LineView& l, const double* f, int m, int e);                        \
  /* the convective outflow side's face values after dt (speed: the condition's) from the cell velocities u */         \
  void advance_outflow(const GridView& g, int side, double dt, double speed, const double* u, double* values);         \
  /* the outward volume flux through a side's faces of the owned cells */                                              \
  double side_flux(const GridView& g, int side, const double* values);                                                 \
  /* each face's normal velocity moved outwards by shift */                                                            \
  void shift_side(const GridView& g, int side, double shift, double* values);

namespace kernels::ref {
TB_INCOMP_KERNELS
}
namespace kernels::omp {
TB_INCOMP_KERNELS
}
namespace kernels::cuda {
TB_INCOMP_KERNELS
}

// Dispatch: the backend the pointers live on.
namespace kernels {
void pressure_gradient(Backend b, const GridView& g, const double* p, double* grad);
void rhie_chow(Backend be, const GridView& g, const BoundaryView& b, const double* u, const double* p,
               const double* grad_p, double dt, const FaceView& faces);
void divergence(Backend b, const GridView& g, const ConstFaceView& faces, double* div);
void project(Backend b, const GridView& g, const double* phi, double dt, const double* grad_phi, const FaceView& faces,
             double* u, double* p);
void poisson_rhs(Backend b, const GridView& g, const ConstFaceView& faces, double dt, double* rhs);
void poisson_rows(Backend b, const GridView& g, const index_t* position, const BlockView& a);
void add_poisson_product(Backend b, const GridView& g, const index_t* position, const ConstBlockView& a,
                         const double* p, double* out);
MomentumSums momentum_rows(Backend be, const GridView& g, const BoundaryView& b, const cell::MomentumView& in,
                           const index_t* position, const BlockView& a, double* rhs);
StepMaxima step_maxima(Backend b, const GridView& g, const double* u, const double* u_old, const double* div,
                       double dt);
double projection_scale(Backend b, const GridView& g, double dt, const double* b_div, const double* u);
DivergenceLeft divergence_left(Backend b, const GridView& g, double dt, index_t pin, double* r);
double max_abs(Backend b, index_t n, const double* v);
void add_scaled(Backend b, index_t n, double a, const double* x, double* y);
void weighted_samples(Backend b, index_t n, const index_t* cells, const double* w, const double* f, int m, int e,
                      double* out);
double max_line_deviation(Backend b, index_t n, const cell::LineView& l, const double* f, int m, int e);
void advance_outflow(Backend b, const GridView& g, int side, double dt, double speed, const double* u, double* values);
double side_flux(Backend b, const GridView& g, int side, const double* values);
void shift_side(Backend b, const GridView& g, int side, double shift, double* values);
}  // namespace kernels

}  // namespace tb::incompressible
