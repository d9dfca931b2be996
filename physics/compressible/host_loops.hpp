#pragma once
// The host loops that the sequential twins (kernels_ref.cpp) and the OpenMP
// versions (kernels_omp.cpp) share: one body each (loop_bodies.hpp), walked by a
// plain loop (Omp = false) or a static OpenMP schedule (Omp = true). Every
// result is the same bits at any team size: each face or cell writes its own
// slots, the gathers sum in face order, the squared sums run in cell order (a
// few thousand cells: the CFL ramp's norms stay those of the sequential loop)
// and the maximum and the admissibility do not depend on order.
#include <cmath>

#include "physics/compressible/loop_bodies.hpp"
#include "solvers/core/threading.hpp"
#include "solvers/core/types.hpp"

namespace tb::compressible::kernels::host {

// Work weights against openmp_min_length (docs/threading.md): about the
// floating-point operations of one item over those of a matrix entry.
inline constexpr long flux_weight = 64, jacobian_weight = 512, gather_weight = 8, gradient_weight = 32;

template <bool Omp, class Body>
void for_items(index_t n, long weight, Body body) {
  if constexpr (Omp) {
    const int threads = threading::threads_for(long(n) * weight, openmp_min_length);
#pragma omp parallel for schedule(static) num_threads(threads) if (threads > 1)
    for (index_t i = 0; i < n; ++i) body(i);
  } else {
    for (index_t i = 0; i < n; ++i) body(i);
  }
}

template <bool Omp>
struct Host {
  static void inviscid_face_fluxes(const MeshView& m, const SchemeView& s, const FlowView& q, int order, double* out) {
    for_items<Omp>(m.num_faces, flux_weight,
                   [&](index_t f) { bodies::inviscid_face_flux(m, s, q, order, f, out + 4 * std::size_t(f)); });
  }
  static void spectral_radius_faces(const MeshView& m, const SchemeView& s, const double* w, double* out) {
    for_items<Omp>(m.num_faces, gather_weight, [&](index_t f) { out[f] = bodies::spectral_radius_face(m, s, w, f); });
  }
  static void gather_face_sums(const MeshView& m, FaceSign sign, int width, const double* face_value, double* cell) {
    for_items<Omp>(m.num_cells, gather_weight, [&](index_t c) {
      bodies::gather_cell(m, sign, false, width, face_value, c, cell + std::size_t(width) * std::size_t(c));
    });
  }
  static void add_face_sums(const MeshView& m, FaceSign sign, int width, const double* face_value, double* cell) {
    for_items<Omp>(m.num_cells, gather_weight, [&](index_t c) {
      bodies::gather_cell(m, sign, true, width, face_value, c, cell + std::size_t(width) * std::size_t(c));
    });
  }
  static void cell_primitives(index_t n, const Gas& gas, const double* w, double* primitive) {
    for_items<Omp>(n, gather_weight,
                   [&](index_t c) { bodies::cell_primitive(gas, w, c, primitive + 4 * std::size_t(c)); });
  }
  static void ghost_primitives(const MeshView& m, const SchemeView& s, const FlowView& q, double* ghost) {
    for_items<Omp>(m.num_faces, gather_weight, [&](index_t f) {
      if (m.face_right[f] < 0) bodies::ghost_primitive(m, s, q, f, ghost + 4 * std::size_t(f));
    });
  }
  static void least_squares_gradients(const MeshView& m, const double* primitive, const double* ghost, double* grad) {
    for_items<Omp>(m.num_cells, gradient_weight, [&](index_t c) {
      bodies::least_squares_gradient(m, primitive, ghost, c, grad + 8 * std::size_t(c));
    });
  }
  static void limiter_phi(const MeshView& m, const double* primitive, const double* grad, double* phi) {
    for_items<Omp>(m.num_cells, gradient_weight,
                   [&](index_t c) { bodies::limiter_cell(m, primitive, grad, c, phi + 4 * std::size_t(c)); });
  }
  static void viscous_face_fluxes(const MeshView& m, const SchemeView& s, const FlowView& q, double* out) {
    for_items<Omp>(m.num_faces, flux_weight,
                   [&](index_t f) { bodies::viscous_face_flux(m, s, q, f, out + 4 * std::size_t(f)); });
  }
  static void viscous_jacobian_face_blocks(const MeshView& m, const SchemeView& s, const double* w, double* out) {
    for_items<Omp>(m.num_faces, jacobian_weight,
                   [&](index_t f) { bodies::viscous_jacobian_face(m, s, w, f, out + 32 * std::size_t(f)); });
  }
  static void wall_forces(const MeshView& m, const SchemeView& s, const FlowView& q, int order, index_t owned,
                          double* out) {
    for_items<Omp>(m.num_faces, gather_weight,
                   [&](index_t f) { bodies::wall_force(m, s, q, order, owned, f, out + 4 * std::size_t(f)); });
  }
  // In index order at every team size: a run's forces are the same bits
  // whatever its thread count (a pass over the faces, cheap next to the fluxes).
  static State ordered_sums(index_t n, const double* v) {
    State sums{};
    for (index_t i = 0; i < n; ++i)
      for (int k = 0; k < num_vars; ++k) sums[k] += v[4 * i + k];
    return sums;
  }
  static void squared_sums_to(index_t n, const double* r, double* out) {
    const State sums = squared_sums(n, r);
    for (int k = 0; k < num_vars; ++k) out[k] = sums[k];
  }
  static void difference_step(const double* x_squared, const double* w_sums, double* h) {
    *h = bodies::difference_step(*x_squared, bodies::norm_of_sums(w_sums));
  }
  static void perturbed_state(index_t n, const double* w, const double* h, const double* x, double* trial) {
    const double step = *h;
    for_items<Omp>(n, 1, [&](index_t i) { trial[i] = w[i] + step * x[i]; });
  }
  static void difference_product(index_t n, const double* shift, const double* x, const double* r_trial,
                                 const double* r, const double* h, double* y) {
    const double step = *h;
    for_items<Omp>(n, 4, [&](index_t c) {
      for (index_t i = 4 * c; i < 4 * c + 4; ++i)
        y[i] = step == 0.0 ? 0.0 : shift[c] * x[i] + (r_trial[i] - r[i]) / step;
    });
  }
  static void perturb_columns(const index_t* cells, index_t count, int k, const double* w, double* trial) {
    for_items<Omp>(count, 1, [&](index_t c) { bodies::perturb_column(w, cells[c], k, trial); });
  }
  static void difference_columns(const ColumnPattern& p, const index_t* cells, index_t count, int k, const double* w,
                                 const double* r, const double* r_trial, double* trial, double* values) {
    for_items<Omp>(count, 16 * gather_weight,
                   [&](index_t c) { bodies::difference_column(p, w, r, r_trial, cells[c], k, trial, values); });
  }
  static void jacobian_face_blocks(const MeshView& m, const SchemeView& s, const FlowView& q, double* out) {
    for_items<Omp>(m.num_faces, jacobian_weight,
                   [&](index_t f) { bodies::jacobian_face(m, s, q, f, out + 32 * std::size_t(f)); });
  }
  static void gather_jacobian_rows(const MeshView& m, const double* face_jac, const JacobianView& a) {
    for_items<Omp>(m.num_cells, 16 * gather_weight, [&](index_t c) { bodies::gather_jacobian_row(m, face_jac, a, c); });
  }
  static void add_diagonal_shift(index_t n, const index_t* diagonal, const double* shift, double* values) {
    for_items<Omp>(n, gather_weight, [&](index_t c) { bodies::diagonal_shift(diagonal, shift, values, c); });
  }
  static State squared_sums(index_t n, const double* r) {
    State sums{};
    for (index_t c = 0; c < n; ++c)
      for (int k = 0; k < num_vars; ++k) sums[k] += r[4 * c + k] * r[4 * c + k];
    return sums;
  }
  static void pseudo_time_shift(index_t n, const double* sums, double cfl, double* shift) {
    for_items<Omp>(n, 1, [&](index_t c) { shift[c] = sums[c] / cfl; });
  }
  static double max_relative_change(index_t n, const Gas& gas, const double* w, const double* dw) {
    double worst = 0.0;
    if constexpr (Omp) {
      const int threads = threading::threads_for(long(n) * gather_weight, openmp_min_length);
#pragma omp parallel for schedule(static) num_threads(threads) if (threads > 1) reduction(max : worst)
      for (index_t c = 0; c < n; ++c) worst = std::fmax(worst, bodies::relative_change(gas, w, dw, c));
    } else {
      for (index_t c = 0; c < n; ++c) worst = std::fmax(worst, bodies::relative_change(gas, w, dw, c));
    }
    return worst;
  }
  static bool relaxed_update(index_t n, const Gas& gas, const double* w, const double* dw, double omega,
                             double* trial) {
    int bad = 0;
    if constexpr (Omp) {
      const int threads = threading::threads_for(long(n) * gather_weight, openmp_min_length);
#pragma omp parallel for schedule(static) num_threads(threads) if (threads > 1) reduction(+ : bad)
      for (index_t c = 0; c < n; ++c) bad += bodies::relaxed_cell(gas, w, dw, omega, c, trial) ? 0 : 1;
    } else {
      for (index_t c = 0; c < n; ++c) bad += bodies::relaxed_cell(gas, w, dw, omega, c, trial) ? 0 : 1;
    }
    return bad == 0;
  }
};

}  // namespace tb::compressible::kernels::host

// The definitions of kernels.hpp's host versions in namespace ns over Host<omp>.
#define TB_COMPRESSIBLE_HOST_TWINS(ns, omp)                                                                            \
  namespace ns {                                                                                                       \
  void inviscid_face_fluxes(const MeshView& m, const SchemeView& s, const FlowView& q, int order, double* out) {       \
    host::Host<omp>::inviscid_face_fluxes(m, s, q, order, out);                                                        \
  }                                                                                                                    \
  void spectral_radius_faces(const MeshView& m, const SchemeView& s, const double* w, double* out) {                   \
    host::Host<omp>::spectral_radius_faces(m, s, w, out);                                                              \
  }                                                                                                                    \
  void gather_face_sums(const MeshView& m, FaceSign sign, int width, const double* face_value, double* cell) {         \
    host::Host<omp>::gather_face_sums(m, sign, width, face_value, cell);                                               \
  }                                                                                                                    \
  void jacobian_face_blocks(const MeshView& m, const SchemeView& s, const FlowView& q, double* out) {                  \
    host::Host<omp>::jacobian_face_blocks(m, s, q, out);                                                               \
  }                                                                                                                    \
  void gather_jacobian_rows(const MeshView& m, const double* face_jac, const JacobianView& a) {                        \
    host::Host<omp>::gather_jacobian_rows(m, face_jac, a);                                                             \
  }                                                                                                                    \
  void add_diagonal_shift(index_t n, const index_t* diagonal, const double* shift, double* values) {                   \
    host::Host<omp>::add_diagonal_shift(n, diagonal, shift, values);                                                   \
  }                                                                                                                    \
  State squared_sums(index_t n, const double* r) { return host::Host<omp>::squared_sums(n, r); }                       \
  void pseudo_time_shift(index_t n, const double* sums, double cfl, double* shift) {                                   \
    host::Host<omp>::pseudo_time_shift(n, sums, cfl, shift);                                                           \
  }                                                                                                                    \
  double max_relative_change(index_t n, const Gas& gas, const double* w, const double* dw) {                           \
    return host::Host<omp>::max_relative_change(n, gas, w, dw);                                                        \
  }                                                                                                                    \
  bool relaxed_update(index_t n, const Gas& gas, const double* w, const double* dw, double omega, double* t) {         \
    return host::Host<omp>::relaxed_update(n, gas, w, dw, omega, t);                                                   \
  }                                                                                                                    \
  void add_face_sums(const MeshView& m, FaceSign sign, int width, const double* face_value, double* cell) {            \
    host::Host<omp>::add_face_sums(m, sign, width, face_value, cell);                                                  \
  }                                                                                                                    \
  void cell_primitives(index_t n, const Gas& gas, const double* w, double* primitive) {                                \
    host::Host<omp>::cell_primitives(n, gas, w, primitive);                                                            \
  }                                                                                                                    \
  void ghost_primitives(const MeshView& m, const SchemeView& s, const FlowView& q, double* ghost) {                    \
    host::Host<omp>::ghost_primitives(m, s, q, ghost);                                                                 \
  }                                                                                                                    \
  void least_squares_gradients(const MeshView& m, const double* primitive, const double* ghost, double* grad) {        \
    host::Host<omp>::least_squares_gradients(m, primitive, ghost, grad);                                               \
  }                                                                                                                    \
  void limiter_phi(const MeshView& m, const double* primitive, const double* grad, double* phi) {                      \
    host::Host<omp>::limiter_phi(m, primitive, grad, phi);                                                             \
  }                                                                                                                    \
  void viscous_face_fluxes(const MeshView& m, const SchemeView& s, const FlowView& q, double* out) {                   \
    host::Host<omp>::viscous_face_fluxes(m, s, q, out);                                                                \
  }                                                                                                                    \
  void viscous_jacobian_face_blocks(const MeshView& m, const SchemeView& s, const double* w, double* out) {            \
    host::Host<omp>::viscous_jacobian_face_blocks(m, s, w, out);                                                       \
  }                                                                                                                    \
  void wall_forces(const MeshView& m, const SchemeView& s, const FlowView& q, int order, index_t owned, double* out) { \
    host::Host<omp>::wall_forces(m, s, q, order, owned, out);                                                          \
  }                                                                                                                    \
  State ordered_sums(index_t n, const double* v) { return host::Host<omp>::ordered_sums(n, v); }                       \
  void squared_sums_to(index_t n, const double* r, double* sums) { host::Host<omp>::squared_sums_to(n, r, sums); }     \
  void difference_step(const double* x_squared, const double* w_sums, double* h) {                                     \
    host::Host<omp>::difference_step(x_squared, w_sums, h);                                                            \
  }                                                                                                                    \
  void perturbed_state(index_t n, const double* w, const double* h, const double* x, double* trial) {                  \
    host::Host<omp>::perturbed_state(n, w, h, x, trial);                                                               \
  }                                                                                                                    \
  void difference_product(index_t n, const double* shift, const double* x, const double* r_trial, const double* r,     \
                          const double* h, double* y) {                                                                \
    host::Host<omp>::difference_product(n, shift, x, r_trial, r, h, y);                                                \
  }                                                                                                                    \
  void perturb_columns(const index_t* cells, index_t count, int k, const double* w, double* trial) {                   \
    host::Host<omp>::perturb_columns(cells, count, k, w, trial);                                                       \
  }                                                                                                                    \
  void difference_columns(const ColumnPattern& p, const index_t* cells, index_t count, int k, const double* w,         \
                          const double* r, const double* r_trial, double* trial, double* values) {                     \
    host::Host<omp>::difference_columns(p, cells, count, k, w, r, r_trial, trial, values);                             \
  }                                                                                                                    \
  }
