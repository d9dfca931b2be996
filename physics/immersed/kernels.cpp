// Backend dispatch of the immersed-boundary kernels: OpenMP on the host, CUDA
// otherwise (TB_CUDA_CALL throws "built without CUDA" in host-only builds).
#include "physics/immersed/kernels.hpp"

#include "solvers/core/cuda_call.hpp"

namespace tb::immersed::kernels {

namespace {
bool on_cuda(Backend b) { return b == Backend::cuda; }
}  // namespace

void momentum_rhs(Backend b, const GridView& g, const cell::MomentumView& in) {
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::momentum_rhs(g, in));
  omp::momentum_rhs(g, in);
}

void ghost_values(Backend b, index_t n, const index_t* cells, const double* values, double* rhs) {
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::ghost_values(n, cells, values, rhs));
  omp::ghost_values(n, cells, values, rhs);
}

void face_velocities(Backend b, const GridView& g, const SidesView& sides, const cell::ConstVelocityView& u,
                     const FaceView& faces) {
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::face_velocities(g, sides, u, faces));
  omp::face_velocities(g, sides, u, faces);
}

void pressure_rhs(Backend b, const GridView& g, const ConstFaceView& faces, double scale, double* rhs) {
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::pressure_rhs(g, faces, scale, rhs));
  omp::pressure_rhs(g, faces, scale, rhs);
}

void project(Backend b, const GridView& g, const SidesView& sides, double k, const double* p, const FaceView& faces,
             const cell::VelocityView& u) {
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::project(g, sides, k, p, faces, u));
  omp::project(g, sides, k, p, faces, u);
}

StepMaxima step_maxima(Backend b, const GridView& g, const cell::ConstVelocityView& u,
                       const cell::ConstVelocityView& u_old, const ConstFaceView& faces, double dt) {
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::step_maxima(g, u, u_old, faces, dt));
  return omp::step_maxima(g, u, u_old, faces, dt);
}

void system_rows(Backend b, const GridView& g, const cell::RowsView& rows) {
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::system_rows(g, rows));
  omp::system_rows(g, rows);
}

void ghost_rows(Backend b, const cell::StencilsView& stencils, double* values) {
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::ghost_rows(stencils, values));
  omp::ghost_rows(stencils, values);
}

ForceSums surface_force(Backend b, const cell::SurfaceView& s, const double* p, const cell::ConstVelocityView& u) {
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::surface_force(s, p, u));
  return omp::surface_force(s, p, u);
}

double max_abs(Backend b, index_t n, const double* v) {
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::max_abs(n, v));
  return omp::max_abs(n, v);
}

void move_cells(Backend b, const GridView& g, const cell::MovedCellsView& m, CellType* types, char* cleared,
                const cell::VelocityView& u, double* p) {
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::move_cells(g, m, types, cleared, u, p));
  omp::move_cells(g, m, types, cleared, u, p);
}

void unmark_cells(Backend b, const cell::MovedCellsView& m, char* cleared) {
  if (on_cuda(b)) return TB_CUDA_CALL(cuda::unmark_cells(m, cleared));
  omp::unmark_cells(m, cleared);
}

}  // namespace tb::immersed::kernels
