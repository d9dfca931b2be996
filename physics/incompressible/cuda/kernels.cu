// CUDA twins of the incompressible kernels (kernels.hpp): one thread per cell
// running the host's per-cell bodies (cell_kernels.hpp) through
// solvers/core/cuda/cell_loops.cuh, whose reductions are fixed-order and return
// their few results in one counted copy.
#include <cuda_runtime.h>

#include "physics/incompressible/kernels.hpp"
#include "solvers/core/cuda/cell_loops.cuh"

namespace tb::incompressible::kernels::cuda {

namespace {

using cuda_cells::run_cells;
using cuda_cells::run_reduction;

struct GradientCells {
  GridView g;
  const double* p;
  double* grad;
  __device__ void operator()(index_t cell) const { cell::pressure_gradient(g, p, grad, cell); }
};
struct RhieChowCells {
  GridView g;
  BoundaryView b;
  const double *u, *p, *grad_p;
  double dt;
  FaceView faces;
  __device__ void operator()(index_t cell) const { cell::rhie_chow(g, b, u, p, grad_p, dt, faces, cell); }
};
struct DivergenceCells {
  GridView g;
  ConstFaceView faces;
  double* div;
  __device__ void operator()(index_t cell) const { div[cell] = cell::divergence(g, faces, cell); }
};
struct ProjectCells {
  GridView g;
  const double* phi;
  double dt;
  const double* grad_phi;
  FaceView faces;
  double *u, *p;
  __device__ void operator()(index_t cell) const { cell::project(g, phi, dt, grad_phi, faces, u, p, cell); }
};
struct PoissonRhsCells {
  GridView g;
  ConstFaceView faces;
  double dt;
  double* rhs;
  __device__ void operator()(index_t cell) const { rhs[cell] = cell::poisson_rhs(g, faces, dt, cell); }
};
struct PoissonRows {
  GridView g;
  const index_t* position;
  BlockView a;
  __device__ void operator()(index_t cell) const { cell::poisson_row(g, position, a, cell); }
};
struct PoissonProductCells {
  GridView g;
  const index_t* position;
  ConstBlockView a;
  const double* p;
  double* out;
  __device__ void operator()(index_t cell) const {
    out[cell - g.owned_begin] += cell::poisson_product(g, position, a, p, cell);
  }
};
struct MomentumRows {
  GridView g;
  BoundaryView b;
  cell::MomentumView in;
  const index_t* position;
  BlockView a;
  double* rhs;
  __device__ void operator()(index_t cell, double* acc) const {
    cell::momentum_row(g, b, in, position, a, rhs, cell, acc);
  }
};
struct MaximaCells {
  GridView g;
  const double *u, *u_old, *div;
  double dt;
  __device__ void operator()(index_t cell, double* m) const { cell::step_maxima(g, u, u_old, div, dt, cell, m); }
};
struct ProjectionScale {
  GridView g;
  double dt;
  const double *b_div, *u;
  __device__ void operator()(index_t cell, double* m) const { cell::projection_scale(g, dt, b_div, u, cell, m); }
};
struct ResidualLeft {
  index_t pin, owned_begin;
  double* r;
  __device__ void operator()(index_t cell) const { cell::residual_left(pin, owned_begin, r, cell); }
};
struct DivergenceFlux {
  double dt;
  const double* r;
  __device__ void operator()(index_t i, double* acc) const { cell::divergence_flux(dt, r, i, acc); }
};
struct DivergenceLeftMax {
  GridView g;
  double dt;
  const double* r;
  __device__ void operator()(index_t cell, double* m) const { cell::divergence_left(g, dt, r, cell, m); }
};
struct AbsMax {
  const double* v;
  __device__ void operator()(index_t i, double* m) const {
    if (isnan(v[i])) m[1] = 1.0;
    m[0] = fmax(m[0], fabs(v[i]));
  }
};
struct ScaledAdd {
  double a;
  const double* x;
  double* y;
  __device__ void operator()(index_t i) const { y[i] += a * x[i]; }
};
struct WeightedSamples {
  const index_t* cells;
  const double *w, *f;
  int m, e;
  double* out;
  __device__ void operator()(index_t i) const { out[i] = cell::weighted_sample(cells, w, f, m, e, i); }
};

struct LineDeviations {
  cell::LineView l;
  const double* f;
  int m, e;
  __device__ void operator()(index_t i, double* acc) const {
    acc[0] = fmax(acc[0], cell::line_deviation(l, f, m, e, i));
  }
};

struct OutflowFaces {
  GridView g;
  int side;
  double dt, speed;
  const double* u;
  double* values;
  __device__ void operator()(index_t f) const { cell::advance_outflow_face(g, side, dt, speed, u, values, f); }
};

struct SideFluxes {
  GridView g;
  int side;
  const double* values;
  __device__ void operator()(index_t f, double* acc) const { acc[0] += cell::outflow_face_flux(g, side, values, f); }
};

struct ShiftedFaces {
  GridView g;
  int side;
  double shift;
  double* values;
  __device__ void operator()(index_t f) const { cell::shift_outflow_face(side, shift, values, f); }
};

}  // namespace

void pressure_gradient(const GridView& g, const double* p, double* grad) {
  run_cells(0, g.num_cells(), GradientCells{g, p, grad}, "pressure_gradient");
}

void rhie_chow(const GridView& g, const BoundaryView& b, const double* u, const double* p, const double* grad_p,
               double dt, const FaceView& faces) {
  run_cells(0, g.num_cells(), RhieChowCells{g, b, u, p, grad_p, dt, faces}, "rhie_chow");
}

void divergence(const GridView& g, const ConstFaceView& faces, double* div) {
  run_cells(0, g.num_cells(), DivergenceCells{g, faces, div}, "divergence");
}

void project(const GridView& g, const double* phi, double dt, const double* grad_phi, const FaceView& faces, double* u,
             double* p) {
  run_cells(0, g.num_cells(), ProjectCells{g, phi, dt, grad_phi, faces, u, p}, "project");
}

void poisson_rhs(const GridView& g, const ConstFaceView& faces, double dt, double* rhs) {
  run_cells(0, g.num_cells(), PoissonRhsCells{g, faces, dt, rhs}, "poisson_rhs");
}

void poisson_rows(const GridView& g, const index_t* position, const BlockView& a) {
  run_cells(g.owned_begin, g.owned_end, PoissonRows{g, position, a}, "poisson_rows");
}

void add_poisson_product(const GridView& g, const index_t* position, const ConstBlockView& a, const double* p,
                         double* out) {
  run_cells(g.owned_begin, g.owned_end, PoissonProductCells{g, position, a, p, out}, "add_poisson_product");
}

MomentumSums momentum_rows(const GridView& g, const BoundaryView& b, const cell::MomentumView& in,
                           const index_t* position, const BlockView& a, double* rhs) {
  double r[2] = {0.0, 0.0};
  if (g.owned_end > g.owned_begin)
    run_reduction<2, false>(g.owned_begin, g.owned_end, MomentumRows{g, b, in, position, a, rhs}, r, "momentum_rows");
  return {r[0], r[1]};
}

StepMaxima step_maxima(const GridView& g, const double* u, const double* u_old, const double* div, double dt) {
  double m[4] = {0.0, 0.0, 0.0, 0.0};
  if (g.owned_end > g.owned_begin)
    run_reduction<4, true>(g.owned_begin, g.owned_end, MaximaCells{g, u, u_old, div, dt}, m, "step_maxima");
  return {m[0], m[1], m[2], m[3] == 0.0};
}

double projection_scale(const GridView& g, double dt, const double* b_div, const double* u) {
  double m[1] = {0.0};
  if (g.owned_end > g.owned_begin)
    run_reduction<1, true>(g.owned_begin, g.owned_end, ProjectionScale{g, dt, b_div, u}, m, "projection_scale");
  return m[0];
}

DivergenceLeft divergence_left(const GridView& g, double dt, index_t pin, double* r) {
  double flux[1] = {0.0}, largest[1] = {0.0};
  if (g.owned_end > g.owned_begin) {
    run_cells(g.owned_begin, g.owned_end, ResidualLeft{pin, g.owned_begin, r}, "residual_left");
    run_reduction<1, false>(0, g.owned_end - g.owned_begin, DivergenceFlux{dt, r}, flux, "divergence_flux");
    run_reduction<1, true>(g.owned_begin, g.owned_end, DivergenceLeftMax{g, dt, r}, largest, "divergence_left");
  }
  return {flux[0], largest[0]};
}

double max_abs(index_t n, const double* v) {
  double m[2] = {0.0, 0.0};
  if (n > 0) run_reduction<2, true>(0, n, AbsMax{v}, m, "max_abs");
  return m[1] != 0.0 ? std::nan("") : m[0];
}

void add_scaled(index_t n, double a, const double* x, double* y) { run_cells(0, n, ScaledAdd{a, x, y}, "add_scaled"); }

void weighted_samples(index_t n, const index_t* cells, const double* w, const double* f, int m, int e, double* out) {
  run_cells(0, n, WeightedSamples{cells, w, f, m, e, out}, "weighted_samples");
}

double max_line_deviation(index_t n, const cell::LineView& l, const double* f, int m, int e) {
  double d[1] = {0.0};
  if (n > 0) run_reduction<1, true>(0, n, LineDeviations{l, f, m, e}, d, "max_line_deviation");
  return d[0];
}

void advance_outflow(const GridView& g, int side, double dt, double speed, const double* u, double* values) {
  run_cells(0, cell::side_faces(g, side), OutflowFaces{g, side, dt, speed, u, values}, "advance_outflow");
}

double side_flux(const GridView& g, int side, const double* values) {
  double q[1] = {0.0};
  const index_t n = cell::side_faces(g, side);
  if (n > 0) run_reduction<1, false>(0, n, SideFluxes{g, side, values}, q, "side_flux");
  return q[0];
}

void shift_side(const GridView& g, int side, double shift, double* values) {
  run_cells(0, cell::side_faces(g, side), ShiftedFaces{g, side, shift, values}, "shift_side");
}

}  // namespace tb::incompressible::kernels::cuda
