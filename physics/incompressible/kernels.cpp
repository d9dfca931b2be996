// Backend dispatch of the incompressible kernels: OpenMP on the host, CUDA
// otherwise (TB_CUDA_CALL throws "built without CUDA" in host-only builds).
#include "physics/incompressible/kernels.hpp"

#include "solvers/core/cuda_call.hpp"

namespace tb::incompressible::kernels {

namespace {
bool on_cuda(Backend b) { return b == Backend::cuda; }
}  // namespace

void pressure_gradient(Backend b, const GridView& g, const double* p, double* grad) {
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::pressure_gradient(g, p, grad));
  omp::pressure_gradient(g, p, grad);
}

void rhie_chow(Backend be, const GridView& g, const BoundaryView& b, const double* u, const double* p,
               const double* grad_p, double dt, const FaceView& faces) {
  if (on_cuda(be)) return TB_CUDA_CALL(cuda::rhie_chow(g, b, u, p, grad_p, dt, faces));
  omp::rhie_chow(g, b, u, p, grad_p, dt, faces);
}

void divergence(Backend b, const GridView& g, const ConstFaceView& faces, double* div) {
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::divergence(g, faces, div));
  omp::divergence(g, faces, div);
}

void project(Backend b, const GridView& g, const double* phi, double dt, const double* grad_phi, const FaceView& faces,
             double* u, double* p) {
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::project(g, phi, dt, grad_phi, faces, u, p));
  omp::project(g, phi, dt, grad_phi, faces, u, p);
}

void poisson_rhs(Backend b, const GridView& g, const ConstFaceView& faces, double dt, double* rhs) {
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::poisson_rhs(g, faces, dt, rhs));
  omp::poisson_rhs(g, faces, dt, rhs);
}

void poisson_rows(Backend b, const GridView& g, const index_t* position, const BlockView& a) {
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::poisson_rows(g, position, a));
  omp::poisson_rows(g, position, a);
}

void add_poisson_product(Backend b, const GridView& g, const index_t* position, const ConstBlockView& a,
                         const double* p, double* out) {
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::add_poisson_product(g, position, a, p, out));
  omp::add_poisson_product(g, position, a, p, out);
}

MomentumSums momentum_rows(Backend be, const GridView& g, const BoundaryView& b, const cell::MomentumView& in,
                           const index_t* position, const BlockView& a, double* rhs) {
  if (on_cuda(be)) return TB_CUDA_CALL(cuda::momentum_rows(g, b, in, position, a, rhs));
  return omp::momentum_rows(g, b, in, position, a, rhs);
}

StepMaxima step_maxima(Backend b, const GridView& g, const double* u, const double* u_old, const double* div,
                       double dt) {
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::step_maxima(g, u, u_old, div, dt));
  return omp::step_maxima(g, u, u_old, div, dt);
}

double projection_scale(Backend b, const GridView& g, double dt, const double* b_div, const double* u) {
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::projection_scale(g, dt, b_div, u));
  return omp::projection_scale(g, dt, b_div, u);
}

DivergenceLeft divergence_left(Backend b, const GridView& g, double dt, index_t pin, double* r) {
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::divergence_left(g, dt, pin, r));
  return omp::divergence_left(g, dt, pin, r);
}

double max_abs(Backend b, index_t n, const double* v) {
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::max_abs(n, v));
  return omp::max_abs(n, v);
}

void add_scaled(Backend b, index_t n, double a, const double* x, double* y) {
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::add_scaled(n, a, x, y));
  omp::add_scaled(n, a, x, y);
}

void weighted_samples(Backend b, index_t n, const index_t* cells, const double* w, const double* f, int m, int e,
                      double* out) {
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::weighted_samples(n, cells, w, f, m, e, out));
  omp::weighted_samples(n, cells, w, f, m, e, out);
}

double max_line_deviation(Backend b, index_t n, const cell::LineView& l, const double* f, int m, int e) {
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::max_line_deviation(n, l, f, m, e));
  return omp::max_line_deviation(n, l, f, m, e);
}

void advance_outflow(Backend b, const GridView& g, int side, double dt, double speed, const double* u, double* values) {
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::advance_outflow(g, side, dt, speed, u, values));
  omp::advance_outflow(g, side, dt, speed, u, values);
}

double side_flux(Backend b, const GridView& g, int side, const double* values) {
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::side_flux(g, side, values));
  return omp::side_flux(g, side, values);
}

void shift_side(Backend b, const GridView& g, int side, double shift, double* values) {
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::shift_side(g, side, shift, values));
  omp::shift_side(g, side, shift, values);
}

}  // namespace tb::incompressible::kernels
