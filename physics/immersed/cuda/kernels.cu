// CUDA twins of the immersed-boundary kernels (kernels.hpp): one thread per
// cell (ghost, surface point) running the host's bodies (cell_kernels.hpp)
// through solvers/core/cuda/cell_loops.cuh, whose reductions are fixed-order
// and return their few results in one counted copy.
#include <cuda_runtime.h>

#include <cmath>

#include "physics/immersed/kernels.hpp"
#include "solvers/core/cuda/cell_loops.cuh"

namespace tb::immersed::kernels::cuda {

namespace {

using cuda_cells::run_cells;
using cuda_cells::run_reduction;

struct MomentumRhsCells {
  GridView g;
  cell::MomentumView in;
  __device__ void operator()(index_t cell) const { cell::momentum_rhs(g, in, cell); }
};
struct GhostValues {
  const index_t* cells;
  const double* values;
  double* rhs;
  __device__ void operator()(index_t k) const { rhs[cells[k]] = values[k]; }
};
struct FaceVelocityCells {
  GridView g;
  SidesView sides;
  cell::ConstVelocityView u;
  FaceView faces;
  __device__ void operator()(index_t cell) const { cell::face_velocities(g, sides, u, faces, cell); }
};
struct PressureRhsCells {
  GridView g;
  ConstFaceView faces;
  double scale;
  double* rhs;
  __device__ void operator()(index_t cell) const { rhs[cell] = cell::pressure_rhs(g, faces, scale, cell); }
};
struct ProjectCells {
  GridView g;
  SidesView sides;
  double k;
  const double* p;
  FaceView faces;
  cell::VelocityView u;
  __device__ void operator()(index_t cell) const { cell::project(g, sides, k, p, faces, u, cell); }
};
struct MaximaCells {
  GridView g;
  cell::ConstVelocityView u, u_old;
  ConstFaceView faces;
  double dt;
  __device__ void operator()(index_t cell, double* m) const { cell::step_maxima(g, u, u_old, faces, dt, cell, m); }
};
struct SystemRows {
  GridView g;
  cell::RowsView rows;
  __device__ void operator()(index_t cell) const { cell::system_row(g, rows, cell); }
};
struct GhostRows {
  cell::StencilsView stencils;
  double* values;
  __device__ void operator()(index_t k) const { cell::ghost_row(stencils, values, k); }
};
struct SurfacePoints {
  cell::SurfaceView s;
  const double* p;
  cell::ConstVelocityView u;
  __device__ void operator()(index_t i, double* acc) const { cell::surface_force(s, p, u, i, acc); }
};

struct MovedCells {
  GridView g;
  cell::MovedCellsView m;
  CellType* types;
  char* cleared;
  cell::VelocityView u;
  double* p;
  __device__ void operator()(index_t k) const { cell::move_cell(g, m, types, cleared, u, p, k); }
};
struct UnmarkCells {
  cell::MovedCellsView m;
  char* cleared;
  __device__ void operator()(index_t k) const { cleared[m.cells[k]] = 0; }
};

struct AbsMax {
  const double* v;
  __device__ void operator()(index_t i, double* m) const {
    if (isnan(v[i])) m[1] = 1.0;
    m[0] = fmax(m[0], fabs(v[i]));
  }
};

}  // namespace

void momentum_rhs(const GridView& g, const cell::MomentumView& in) {
  run_cells(g.owned_begin, g.owned_end, MomentumRhsCells{g, in}, "momentum_rhs");
}

void ghost_values(index_t n, const index_t* cells, const double* values, double* rhs) {
  run_cells(0, n, GhostValues{cells, values, rhs}, "ghost_values");
}

void face_velocities(const GridView& g, const SidesView& sides, const cell::ConstVelocityView& u,
                     const FaceView& faces) {
  run_cells(g.owned_begin, g.faces_end, FaceVelocityCells{g, sides, u, faces}, "face_velocities");
}

void pressure_rhs(const GridView& g, const ConstFaceView& faces, double scale, double* rhs) {
  run_cells(g.owned_begin, g.owned_end, PressureRhsCells{g, faces, scale, rhs}, "pressure_rhs");
}

void project(const GridView& g, const SidesView& sides, double k, const double* p, const FaceView& faces,
             const cell::VelocityView& u) {
  run_cells(g.owned_begin, g.faces_end, ProjectCells{g, sides, k, p, faces, u}, "project");
}

StepMaxima step_maxima(const GridView& g, const cell::ConstVelocityView& u, const cell::ConstVelocityView& u_old,
                       const ConstFaceView& faces, double dt) {
  double m[4] = {0.0, 0.0, 0.0, 0.0};
  if (g.owned_end > g.owned_begin)
    run_reduction<4, true>(g.owned_begin, g.owned_end, MaximaCells{g, u, u_old, faces, dt}, m, "step_maxima");
  return {m[0], m[1], m[2], m[3] == 0.0};
}

void system_rows(const GridView& g, const cell::RowsView& rows) {
  run_cells(g.owned_begin, g.owned_end, SystemRows{g, rows}, "system_rows");
}

void ghost_rows(const cell::StencilsView& stencils, double* values) {
  run_cells(0, stencils.count, GhostRows{stencils, values}, "ghost_rows");
}

ForceSums surface_force(const cell::SurfaceView& s, const double* p, const cell::ConstVelocityView& u) {
  double r[6] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
  if (s.pressure.count > 0) run_reduction<6, false>(0, s.pressure.count, SurfacePoints{s, p, u}, r, "surface_force");
  ForceSums f;
  for (int d = 0; d < 3; ++d) f.pressure[d] = r[d], f.viscous[d] = r[3 + d];
  return f;
}

double max_abs(index_t n, const double* v) {
  double m[2] = {0.0, 0.0};
  if (n > 0) run_reduction<2, true>(0, n, AbsMax{v}, m, "max_abs");
  return m[1] != 0.0 ? std::nan("") : m[0];
}

void move_cells(const GridView& g, const cell::MovedCellsView& m, CellType* types, char* cleared,
                const cell::VelocityView& u, double* p) {
  run_cells(0, m.count, MovedCells{g, m, types, cleared, u, p}, "move_cells");
}

void unmark_cells(const cell::MovedCellsView& m, char* cleared) {
  run_cells(0, m.count, UnmarkCells{m, cleared}, "unmark_cells");
}

}  // namespace tb::immersed::kernels::cuda
