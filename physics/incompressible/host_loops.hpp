#pragma once
// The loops of the sequential twins (kernels_ref.cpp) and the OpenMP kernels
// (kernels_omp.cpp) of kernels.hpp: one per-cell body each (cell_kernels.hpp),
// run by a plain loop (Omp false) or by a static OpenMP schedule (Omp true).
// Sums add in ordered_sums' order in both. TB_INCOMP_HOST_TWIN(NS, OMP)
// defines kernels::NS's functions over them.
#include <algorithm>
#include <cmath>

#include "physics/incompressible/kernels.hpp"
#include "solvers/core/ordered_sum.hpp"

namespace tb::incompressible::kernels {

namespace host_loops {

// The per-cell loops split as the host code always did: above openmp_min_length cells.
template <bool Omp, class Body>
void for_cells(index_t begin, index_t end, Body&& body) {
  if constexpr (Omp) {
#pragma omp parallel for schedule(static) if (long(end - begin) >= openmp_min_length)
    for (index_t cell = begin; cell < end; ++cell) body(cell);
  } else {
    for (index_t cell = begin; cell < end; ++cell) body(cell);
  }
}

// M sums over [0, n) in ordered_sums' order: the OpenMP one, or its parts one after another.
template <bool Omp, int M, class Body>
std::array<double, M> sums(std::ptrdiff_t n, long grain, Body&& body) {
  if constexpr (Omp) {
    return ordered_sums<M>(n, grain, body);
  } else {
    std::array<double, M> total{};
    for (int p = 0; p < ordered_parts; ++p) {
      double acc[M] = {};
      const std::ptrdiff_t end = ordered_part_begin(n, p + 1);
      for (std::ptrdiff_t i = ordered_part_begin(n, p); i < end; ++i) body(i, acc);
      for (int m = 0; m < M; ++m) total[std::size_t(m)] += acc[m];
    }
    return total;
  }
}

// M maxima over [0, n), starting from 0.
template <bool Omp, int M, class Body>
std::array<double, M> maxima(std::ptrdiff_t n, Body&& body) {
  const auto combine = [](double* total, const double* part) {
    for (int m = 0; m < M; ++m) total[m] = std::max(total[m], part[m]);
  };
  if constexpr (Omp) {
    return ordered_reduce<M>(n, threading::stream_grain, body, combine);
  } else {
    std::array<double, M> total{};
    for (std::ptrdiff_t i = 0; i < n; ++i) body(i, total.data());
    return total;
  }
}

template <bool Omp>
void pressure_gradient_t(const GridView& g, const double* p, double* grad) {
  for_cells<Omp>(0, g.num_cells(), [&](index_t cell) { cell::pressure_gradient(g, p, grad, cell); });
}

template <bool Omp>
void rhie_chow_t(const GridView& g, const BoundaryView& b, const double* u, const double* p, const double* grad_p,
                 double dt, const FaceView& faces) {
  for_cells<Omp>(0, g.num_cells(), [&](index_t cell) { cell::rhie_chow(g, b, u, p, grad_p, dt, faces, cell); });
}

template <bool Omp>
void divergence_t(const GridView& g, const ConstFaceView& faces, double* div) {
  for_cells<Omp>(0, g.num_cells(), [&](index_t cell) { div[cell] = cell::divergence(g, faces, cell); });
}

template <bool Omp>
void project_t(const GridView& g, const double* phi, double dt, const double* grad_phi, const FaceView& faces,
               double* u, double* p) {
  for_cells<Omp>(0, g.num_cells(), [&](index_t cell) { cell::project(g, phi, dt, grad_phi, faces, u, p, cell); });
}

template <bool Omp>
void poisson_rhs_t(const GridView& g, const ConstFaceView& faces, double dt, double* rhs) {
  for_cells<Omp>(0, g.num_cells(), [&](index_t cell) { rhs[cell] = cell::poisson_rhs(g, faces, dt, cell); });
}

template <bool Omp>
void poisson_rows_t(const GridView& g, const index_t* position, const BlockView& a) {
  for_cells<Omp>(g.owned_begin, g.owned_end, [&](index_t cell) { cell::poisson_row(g, position, a, cell); });
}

template <bool Omp>
void add_poisson_product_t(const GridView& g, const index_t* position, const ConstBlockView& a, const double* p,
                           double* out) {
  for_cells<Omp>(g.owned_begin, g.owned_end,
                 [&](index_t cell) { out[cell - g.owned_begin] += cell::poisson_product(g, position, a, p, cell); });
}

template <bool Omp>
MomentumSums momentum_rows_t(const GridView& g, const BoundaryView& b, const cell::MomentumView& in,
                             const index_t* position, const BlockView& a, double* rhs) {
  // A row is about 16 streamed doubles per component (the grain of assemble_momentum).
  const long grain = threading::stream_grain / 16;
  const auto s = sums<Omp, 2>(g.owned_end - g.owned_begin, grain, [&](std::ptrdiff_t i, double* acc) {
    cell::momentum_row(g, b, in, position, a, rhs, g.owned_begin + index_t(i), acc);
  });
  return {s[0], s[1]};
}

template <bool Omp>
StepMaxima step_maxima_t(const GridView& g, const double* u, const double* u_old, const double* div, double dt) {
  const auto m = maxima<Omp, 4>(g.owned_end - g.owned_begin, [&](std::ptrdiff_t i, double* acc) {
    cell::step_maxima(g, u, u_old, div, dt, g.owned_begin + index_t(i), acc);
  });
  return {m[0], m[1], m[2], m[3] == 0.0};
}

template <bool Omp>
double projection_scale_t(const GridView& g, double dt, const double* b_div, const double* u) {
  const auto m = maxima<Omp, 1>(g.owned_end - g.owned_begin, [&](std::ptrdiff_t i, double* acc) {
    cell::projection_scale(g, dt, b_div, u, g.owned_begin + index_t(i), acc);
  });
  return m[0];
}

template <bool Omp>
DivergenceLeft divergence_left_t(const GridView& g, double dt, index_t pin, double* r) {
  for_cells<Omp>(g.owned_begin, g.owned_end, [&](index_t cell) { cell::residual_left(pin, g.owned_begin, r, cell); });
  const std::ptrdiff_t n = g.owned_end - g.owned_begin;
  const auto flux = sums<Omp, 1>(n, threading::stream_grain,
                                 [&](std::ptrdiff_t i, double* acc) { cell::divergence_flux(dt, r, index_t(i), acc); });
  const auto m = maxima<Omp, 1>(
      n, [&](std::ptrdiff_t i, double* acc) { cell::divergence_left(g, dt, r, g.owned_begin + index_t(i), acc); });
  return {flux[0], m[0]};
}

template <bool Omp>
double max_abs_t(index_t n, const double* v) {
  // The NaN flag beside the maximum: std::max skips a NaN.
  const auto m = maxima<Omp, 2>(n, [&](std::ptrdiff_t i, double* acc) {
    if (std::isnan(v[i])) acc[1] = 1.0;
    acc[0] = std::max(acc[0], std::abs(v[i]));
  });
  return m[1] != 0.0 ? std::nan("") : m[0];
}

template <bool Omp>
void add_scaled_t(index_t n, double a, const double* x, double* y) {
  for_cells<Omp>(0, n, [&](index_t i) { y[i] += a * x[i]; });
}

template <bool Omp>
void weighted_samples_t(index_t n, const index_t* cells, const double* w, const double* f, int m, int e, double* out) {
  for_cells<Omp>(0, n, [&](index_t i) { out[i] = cell::weighted_sample(cells, w, f, m, e, i); });
}

template <bool Omp>
double max_line_deviation_t(index_t n, const cell::LineView& l, const double* f, int m, int e) {
  const auto d = maxima<Omp, 1>(n, [&](std::ptrdiff_t i, double* acc) {
    acc[0] = std::max(acc[0], cell::line_deviation(l, f, m, e, index_t(i)));
  });
  return d[0];
}

template <bool Omp>
void advance_outflow_t(const GridView& g, int side, double dt, double speed, const double* u, double* values) {
  for_cells<Omp>(0, cell::side_faces(g, side),
                 [&](index_t f) { cell::advance_outflow_face(g, side, dt, speed, u, values, f); });
}

template <bool Omp>
double side_flux_t(const GridView& g, int side, const double* values) {
  const auto s = sums<Omp, 1>(cell::side_faces(g, side), threading::stream_grain, [&](std::ptrdiff_t f, double* acc) {
    acc[0] += cell::outflow_face_flux(g, side, values, index_t(f));
  });
  return s[0];
}

template <bool Omp>
void shift_side_t(const GridView& g, int side, double shift, double* values) {
  for_cells<Omp>(0, cell::side_faces(g, side), [&](index_t f) { cell::shift_outflow_face(side, shift, values, f); });
}

}  // namespace host_loops

#define TB_INCOMP_HOST_TWIN(NS, OMP)                                                                                 \
  namespace NS {                                                                                                     \
  using namespace host_loops;                                                                                        \
  void pressure_gradient(const GridView& g, const double* p, double* grad) { pressure_gradient_t<OMP>(g, p, grad); } \
  void rhie_chow(const GridView& g, const BoundaryView& b, const double* u, const double* p, const double* grad_p,   \
                 double dt, const FaceView& faces) {                                                                 \
    rhie_chow_t<OMP>(g, b, u, p, grad_p, dt, faces);                                                                 \
  }                                                                                                                  \
  void divergence(const GridView& g, const ConstFaceView& faces, double* div) { divergence_t<OMP>(g, faces, div); }  \
  void project(const GridView& g, const double* phi, double dt, const double* grad_phi, const FaceView& faces,       \
               double* u, double* p) {                                                                               \
    project_t<OMP>(g, phi, dt, grad_phi, faces, u, p);                                                               \
  }                                                                                                                  \
  void poisson_rhs(const GridView& g, const ConstFaceView& faces, double dt, double* rhs) {                          \
    poisson_rhs_t<OMP>(g, faces, dt, rhs);                                                                           \
  }                                                                                                                  \
  void poisson_rows(const GridView& g, const index_t* position, const BlockView& a) {                                \
    poisson_rows_t<OMP>(g, position, a);                                                                             \
  }                                                                                                                  \
  void add_poisson_product(const GridView& g, const index_t* position, const ConstBlockView& a, const double* p,     \
                           double* out) {                                                                            \
    add_poisson_product_t<OMP>(g, position, a, p, out);                                                              \
  }                                                                                                                  \
  MomentumSums momentum_rows(const GridView& g, const BoundaryView& b, const cell::MomentumView& in,                 \
                             const index_t* position, const BlockView& a, double* rhs) {                             \
    return momentum_rows_t<OMP>(g, b, in, position, a, rhs);                                                         \
  }                                                                                                                  \
  StepMaxima step_maxima(const GridView& g, const double* u, const double* u_old, const double* div, double dt) {    \
    return step_maxima_t<OMP>(g, u, u_old, div, dt);                                                                 \
  }                                                                                                                  \
  double projection_scale(const GridView& g, double dt, const double* b_div, const double* u) {                      \
    return projection_scale_t<OMP>(g, dt, b_div, u);                                                                 \
  }                                                                                                                  \
  DivergenceLeft divergence_left(const GridView& g, double dt, index_t pin, double* r) {                             \
    return divergence_left_t<OMP>(g, dt, pin, r);                                                                    \
  }                                                                                                                  \
  double max_abs(index_t n, const double* v) { return max_abs_t<OMP>(n, v); }                                        \
  void add_scaled(index_t n, double a, const double* x, double* y) { add_scaled_t<OMP>(n, a, x, y); }                \
  void weighted_samples(index_t n, const index_t* cells, const double* w, const double* f, int m, int e,             \
                        double* out) {                                                                               \
    weighted_samples_t<OMP>(n, cells, w, f, m, e, out);                                                              \
  }                                                                                                                  \
  double max_line_deviation(index_t n, const cell::LineView& l, const double* f, int m, int e) {                     \
    return max_line_deviation_t<OMP>(n, l, f, m, e);                                                                 \
  }                                                                                                                  \
  void advance_outflow(const GridView& g, int side, double dt, double speed, const double* u, double* values) {      \
    advance_outflow_t<OMP>(g, side, dt, speed, u, values);                                                           \
  }                                                                                                                  \
  double side_flux(const GridView& g, int side, const double* values) { return side_flux_t<OMP>(g, side, values); }  \
  void shift_side(const GridView& g, int side, double shift, double* values) {                                       \
    shift_side_t<OMP>(g, side, shift, values);                                                                       \
  }                                                                                                                  \
  }

}  // namespace tb::incompressible::kernels
