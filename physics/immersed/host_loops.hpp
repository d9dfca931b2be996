#pragma once
// The loops of the sequential twins (kernels_ref.cpp) and the OpenMP kernels
// (kernels_omp.cpp) of kernels.hpp: one per-cell body each (cell_kernels.hpp),
// run by a plain loop (Omp false) or by a static OpenMP schedule (Omp true).
// The surface force adds in ordered_sums' order in both. TB_IB_HOST_TWIN(NS,
// OMP) defines kernels::NS's functions over them.
#include <algorithm>
#include <array>
#include <cmath>

#include "physics/immersed/kernels.hpp"
#include "solvers/core/ordered_sum.hpp"

namespace tb::immersed::kernels {

namespace host_loops {

// The per-cell loops split above openmp_min_length cells.
template <bool Omp, class Body>
void for_cells(index_t begin, index_t end, Body&& body) {
  if constexpr (Omp) {
#pragma omp parallel for schedule(static) if (long(end - begin) >= openmp_min_length)
    for (index_t cell = begin; cell < end; ++cell) body(cell);
  } else {
    for (index_t cell = begin; cell < end; ++cell) body(cell);
  }
}

template <bool Omp>
void momentum_rhs_t(const GridView& g, const cell::MomentumView& in) {
  for_cells<Omp>(g.owned_begin, g.owned_end, [&](index_t cell) { cell::momentum_rhs(g, in, cell); });
}

template <bool Omp>
void ghost_values_t(index_t n, const index_t* cells, const double* values, double* rhs) {
  for_cells<Omp>(0, n, [&](index_t k) { rhs[cells[k]] = values[k]; });
}

template <bool Omp>
void face_velocities_t(const GridView& g, const SidesView& sides, const cell::ConstVelocityView& u,
                       const FaceView& faces) {
  for_cells<Omp>(g.owned_begin, g.faces_end, [&](index_t cell) { cell::face_velocities(g, sides, u, faces, cell); });
}

template <bool Omp>
void pressure_rhs_t(const GridView& g, const ConstFaceView& faces, double scale, double* rhs) {
  for_cells<Omp>(g.owned_begin, g.owned_end,
                 [&](index_t cell) { rhs[cell] = cell::pressure_rhs(g, faces, scale, cell); });
}

template <bool Omp>
void project_t(const GridView& g, const SidesView& sides, double k, const double* p, const FaceView& faces,
               const cell::VelocityView& u) {
  for_cells<Omp>(g.owned_begin, g.faces_end, [&](index_t cell) { cell::project(g, sides, k, p, faces, u, cell); });
}

template <bool Omp>
StepMaxima step_maxima_t(const GridView& g, const cell::ConstVelocityView& u, const cell::ConstVelocityView& u_old,
                         const ConstFaceView& faces, double dt) {
  const auto body = [&](std::ptrdiff_t i, double* acc) {
    cell::step_maxima(g, u, u_old, faces, dt, g.owned_begin + index_t(i), acc);
  };
  const std::ptrdiff_t n = g.owned_end - g.owned_begin;
  std::array<double, 4> m{};
  if constexpr (Omp) {
    m = ordered_reduce<4>(n, threading::stream_grain, body, [](double* total, const double* part) {
      for (int k = 0; k < 4; ++k) total[k] = std::max(total[k], part[k]);
    });
  } else {
    for (std::ptrdiff_t i = 0; i < n; ++i) body(i, m.data());
  }
  return {m[0], m[1], m[2], m[3] == 0.0};
}

template <bool Omp>
void system_rows_t(const GridView& g, const cell::RowsView& rows) {
  for_cells<Omp>(g.owned_begin, g.owned_end, [&](index_t cell) { cell::system_row(g, rows, cell); });
}

template <bool Omp>
void ghost_rows_t(const cell::StencilsView& stencils, double* values) {
  for_cells<Omp>(0, stencils.count, [&](index_t k) { cell::ghost_row(stencils, values, k); });
}

template <bool Omp>
ForceSums surface_force_t(const cell::SurfaceView& s, const double* p, const cell::ConstVelocityView& u) {
  const auto body = [&](std::ptrdiff_t i, double* acc) { cell::surface_force(s, p, u, index_t(i), acc); };
  const std::ptrdiff_t n = s.pressure.count;
  std::array<double, 6> total{};
  if constexpr (Omp) {
    // A point reads about 60 cells: a thousand points make a thread's grain.
    total = ordered_sums<6>(n, threading::stream_grain / 64, body);
  } else {
    for (int part = 0; part < ordered_parts; ++part) {
      double acc[6] = {};
      const std::ptrdiff_t end = ordered_part_begin(n, part + 1);
      for (std::ptrdiff_t i = ordered_part_begin(n, part); i < end; ++i) body(i, acc);
      for (int m = 0; m < 6; ++m) total[std::size_t(m)] += acc[m];
    }
  }
  ForceSums f;
  for (int d = 0; d < 3; ++d) f.pressure[d] = total[std::size_t(d)], f.viscous[d] = total[std::size_t(3 + d)];
  return f;
}

template <bool Omp>
double max_abs_t(index_t n, const double* v) {
  // The NaN flag beside the maximum: std::max skips a NaN.
  const auto body = [&](std::ptrdiff_t i, double* acc) {
    if (std::isnan(v[i])) acc[1] = 1.0;
    acc[0] = std::max(acc[0], std::abs(v[i]));
  };
  std::array<double, 2> m{};
  if constexpr (Omp) {
    m = ordered_reduce<2>(n, threading::stream_grain, body, [](double* total, const double* part) {
      for (int k = 0; k < 2; ++k) total[k] = std::max(total[k], part[k]);
    });
  } else {
    for (std::ptrdiff_t i = 0; i < n; ++i) body(i, m.data());
  }
  return m[1] != 0.0 ? std::nan("") : m[0];
}

template <bool Omp>
void move_cells_t(const GridView& g, const cell::MovedCellsView& m, CellType* types, char* cleared,
                  const cell::VelocityView& u, double* p) {
  for_cells<Omp>(0, m.count, [&](index_t k) { cell::move_cell(g, m, types, cleared, u, p, k); });
}

template <bool Omp>
void unmark_cells_t(const cell::MovedCellsView& m, char* cleared) {
  for_cells<Omp>(0, m.count, [&](index_t k) { cleared[m.cells[k]] = 0; });
}

}  // namespace host_loops

#define TB_IB_HOST_TWIN(NS, OMP)                                                                                    \
  namespace NS {                                                                                                    \
  using namespace host_loops;                                                                                       \
  void momentum_rhs(const GridView& g, const cell::MomentumView& in) { momentum_rhs_t<OMP>(g, in); }                \
  void ghost_values(index_t n, const index_t* cells, const double* values, double* rhs) {                           \
    ghost_values_t<OMP>(n, cells, values, rhs);                                                                     \
  }                                                                                                                 \
  void face_velocities(const GridView& g, const SidesView& sides, const cell::ConstVelocityView& u,                 \
                       const FaceView& faces) {                                                                     \
    face_velocities_t<OMP>(g, sides, u, faces);                                                                     \
  }                                                                                                                 \
  void pressure_rhs(const GridView& g, const ConstFaceView& faces, double scale, double* rhs) {                     \
    pressure_rhs_t<OMP>(g, faces, scale, rhs);                                                                      \
  }                                                                                                                 \
  void project(const GridView& g, const SidesView& sides, double k, const double* p, const FaceView& faces,         \
               const cell::VelocityView& u) {                                                                       \
    project_t<OMP>(g, sides, k, p, faces, u);                                                                       \
  }                                                                                                                 \
  StepMaxima step_maxima(const GridView& g, const cell::ConstVelocityView& u, const cell::ConstVelocityView& u_old, \
                         const ConstFaceView& faces, double dt) {                                                   \
    return step_maxima_t<OMP>(g, u, u_old, faces, dt);                                                              \
  }                                                                                                                 \
  void system_rows(const GridView& g, const cell::RowsView& rows) { system_rows_t<OMP>(g, rows); }                  \
  void ghost_rows(const cell::StencilsView& stencils, double* values) { ghost_rows_t<OMP>(stencils, values); }      \
  ForceSums surface_force(const cell::SurfaceView& s, const double* p, const cell::ConstVelocityView& u) {          \
    return surface_force_t<OMP>(s, p, u);                                                                           \
  }                                                                                                                 \
  double max_abs(index_t n, const double* v) { return max_abs_t<OMP>(n, v); }                                       \
  void move_cells(const GridView& g, const cell::MovedCellsView& m, CellType* types, char* cleared,                 \
                  const cell::VelocityView& u, double* p) {                                                         \
    move_cells_t<OMP>(g, m, types, cleared, u, p);                                                                  \
  }                                                                                                                 \
  void unmark_cells(const cell::MovedCellsView& m, char* cleared) { unmark_cells_t<OMP>(m, cleared); }              \
  }

}  // namespace tb::immersed::kernels
