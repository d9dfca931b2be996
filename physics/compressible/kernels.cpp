// Backend dispatch of the compressible loops: OpenMP on the host, CUDA otherwise
// (TB_CUDA_CALL throws "built without CUDA" in host-only builds).
#include "physics/compressible/kernels.hpp"

#include "solvers/core/cuda_call.hpp"
#include "solvers/core/transfers.hpp"

namespace tb::compressible::kernels {

namespace {
bool on_cuda(Backend b) { return b == Backend::cuda; }
}  // namespace

void inviscid_face_fluxes(Backend b, const MeshView& m, const SchemeView& s, const FlowView& q, int order,
                          double* face_flux) {
  if (m.num_faces <= 0) return;
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::inviscid_face_fluxes(m, s, q, order, face_flux));
  omp::inviscid_face_fluxes(m, s, q, order, face_flux);
}

void spectral_radius_faces(Backend b, const MeshView& m, const SchemeView& s, const double* w, double* face_value) {
  if (m.num_faces <= 0) return;
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::spectral_radius_faces(m, s, w, face_value));
  omp::spectral_radius_faces(m, s, w, face_value);
}

void gather_face_sums(Backend b, const MeshView& m, FaceSign sign, int width, const double* face_value, double* cell) {
  if (m.num_cells <= 0) return;
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::gather_face_sums(m, sign, width, face_value, cell));
  omp::gather_face_sums(m, sign, width, face_value, cell);
}

void jacobian_face_blocks(Backend b, const MeshView& m, const SchemeView& s, const FlowView& q, double* face_jac) {
  if (m.num_faces <= 0) return;
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::jacobian_face_blocks(m, s, q, face_jac));
  omp::jacobian_face_blocks(m, s, q, face_jac);
}

void gather_jacobian_rows(Backend b, const MeshView& m, const double* face_jac, const JacobianView& a) {
  if (m.num_cells <= 0) return;
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::gather_jacobian_rows(m, face_jac, a));
  omp::gather_jacobian_rows(m, face_jac, a);
}

void add_diagonal_shift(Backend b, index_t n, const index_t* diagonal, const double* shift, double* values) {
  if (n <= 0) return;
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::add_diagonal_shift(n, diagonal, shift, values));
  omp::add_diagonal_shift(n, diagonal, shift, values);
}

State squared_sums(Backend b, index_t n, const double* r) {
  if (n <= 0) return {};
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::squared_sums(n, r));
  transfers::count_twin_result(sizeof(State));
  return omp::squared_sums(n, r);
}

void pseudo_time_shift(Backend b, index_t n, const double* sums, double cfl, double* shift) {
  if (n <= 0) return;
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::pseudo_time_shift(n, sums, cfl, shift));
  omp::pseudo_time_shift(n, sums, cfl, shift);
}

double max_relative_change(Backend b, index_t n, const Gas& gas, const double* w, const double* dw) {
  if (n <= 0) return 0.0;
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::max_relative_change(n, gas, w, dw));
  transfers::count_twin_result(sizeof(double));
  return omp::max_relative_change(n, gas, w, dw);
}

bool relaxed_update(Backend b, index_t n, const Gas& gas, const double* w, const double* dw, double omega,
                    double* trial) {
  if (n <= 0) return true;
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::relaxed_update(n, gas, w, dw, omega, trial));
  transfers::count_twin_result(sizeof(double));
  return omp::relaxed_update(n, gas, w, dw, omega, trial);
}

void add_face_sums(Backend b, const MeshView& m, FaceSign sign, int width, const double* face_value, double* cell) {
  if (m.num_cells <= 0) return;
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::add_face_sums(m, sign, width, face_value, cell));
  omp::add_face_sums(m, sign, width, face_value, cell);
}

void cell_primitives(Backend b, index_t n, const Gas& gas, const double* w, double* primitive) {
  if (n <= 0) return;
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::cell_primitives(n, gas, w, primitive));
  omp::cell_primitives(n, gas, w, primitive);
}

void ghost_primitives(Backend b, const MeshView& m, const SchemeView& s, const FlowView& q, double* ghost) {
  if (m.num_faces <= 0) return;
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::ghost_primitives(m, s, q, ghost));
  omp::ghost_primitives(m, s, q, ghost);
}

void least_squares_gradients(Backend b, const MeshView& m, const double* primitive, const double* ghost, double* grad) {
  if (m.num_cells <= 0) return;
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::least_squares_gradients(m, primitive, ghost, grad));
  omp::least_squares_gradients(m, primitive, ghost, grad);
}

void limiter_phi(Backend b, const MeshView& m, const double* primitive, const double* grad, double* phi) {
  if (m.num_cells <= 0) return;
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::limiter_phi(m, primitive, grad, phi));
  omp::limiter_phi(m, primitive, grad, phi);
}

void viscous_face_fluxes(Backend b, const MeshView& m, const SchemeView& s, const FlowView& q, double* face_flux) {
  if (m.num_faces <= 0) return;
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::viscous_face_fluxes(m, s, q, face_flux));
  omp::viscous_face_fluxes(m, s, q, face_flux);
}

void viscous_jacobian_face_blocks(Backend b, const MeshView& m, const SchemeView& s, const double* w,
                                  double* face_jac) {
  if (m.num_faces <= 0) return;
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::viscous_jacobian_face_blocks(m, s, w, face_jac));
  omp::viscous_jacobian_face_blocks(m, s, w, face_jac);
}

void wall_forces(Backend b, const MeshView& m, const SchemeView& s, const FlowView& q, int order, index_t owned,
                 double* face_force) {
  if (m.num_faces <= 0) return;
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::wall_forces(m, s, q, order, owned, face_force));
  omp::wall_forces(m, s, q, order, owned, face_force);
}

State ordered_sums(Backend b, index_t n, const double* v) {
  if (n <= 0) return {};
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::ordered_sums(n, v));
  transfers::count_twin_result(sizeof(State));
  return omp::ordered_sums(n, v);
}

void squared_sums_to(Backend b, index_t n, const double* r, double* sums) {
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::squared_sums_to(n, r, sums));
  omp::squared_sums_to(n, r, sums);
}

void difference_step(Backend b, const double* x_squared, const double* w_sums, double* h) {
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::difference_step(x_squared, w_sums, h));
  omp::difference_step(x_squared, w_sums, h);
}

void perturbed_state(Backend b, index_t n, const double* w, const double* h, const double* x, double* trial) {
  if (n <= 0) return;
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::perturbed_state(n, w, h, x, trial));
  omp::perturbed_state(n, w, h, x, trial);
}

void difference_product(Backend b, index_t n, const double* shift, const double* x, const double* r_trial,
                        const double* r, const double* h, double* y) {
  if (n <= 0) return;
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::difference_product(n, shift, x, r_trial, r, h, y));
  omp::difference_product(n, shift, x, r_trial, r, h, y);
}

void perturb_columns(Backend b, const index_t* cells, index_t count, int k, const double* w, double* trial) {
  if (count <= 0) return;
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::perturb_columns(cells, count, k, w, trial));
  omp::perturb_columns(cells, count, k, w, trial);
}

void difference_columns(Backend b, const ColumnPattern& p, const index_t* cells, index_t count, int k, const double* w,
                        const double* r, const double* r_trial, double* trial, double* values) {
  if (count <= 0) return;
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::difference_columns(p, cells, count, k, w, r, r_trial, trial, values));
  omp::difference_columns(p, cells, count, k, w, r, r_trial, trial, values);
}

}  // namespace tb::compressible::kernels
