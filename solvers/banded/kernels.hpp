#pragma once
// The device steps of seed 004's solvers, one declared kernel each. The
// dispatching functions (namespace kernels) pick the backend; ref:: is the
// sequential twin the tests compare omp:: and cuda:: against. Pointers live on
// the backend named; n is the number of local rows.
#include "row_kernels.hpp"
#include "solvers/core/backend.hpp"

namespace tb::banded {

// Local partial results of one synchronisation point: up to three sums and one
// maximum of absolute values, combined across ranks by VectorSpace::reduce.
struct Partials {
  double sum[3] = {0.0, 0.0, 0.0};
  double max_abs = 0.0;
};

// The arguments of the fused BiCGStab updates of Algorithm 1, in its names.
// dinv is K^{-1} for the Jacobi K = diag(A).
struct BicgVectors {
  const double* dinv = nullptr;
  const double* r0hat = nullptr;
  double* r = nullptr;
  double* p = nullptr;
  double* v = nullptr;
  double* s = nullptr;
  double* t = nullptr;
  double* x = nullptr;
  double* y = nullptr;  // K^{-1} p, the owned part of an extended vector
  double* z = nullptr;  // K^{-1} s, likewise
  // (A K^{-1})^T r0hat: the one-reduction variant's (gbcg.cpp), else unused.
  const double* f = nullptr;
};

// The local inner products of the one-reduction BiCGStab's single
// synchronisation point (gbcg.cpp), in BicgVectors' names:
//   sum[0] = <K^{-1}t, z>, sum[1] = <K^{-1}t, K^{-1}t>   (omega)
//   sum[2] = <r0hat, s>,   sum[3] = <r0hat, t>           (the next rho)
//   sum[4] = <f, s>,       sum[5] = <f, t>               (the next <r0hat, A K^{-1} r>)
//   sum[6] = <f, v>                                      (the next <r0hat, v>)
struct BicgMergedDots {
  static constexpr int count = 7;
  double sum[count] = {};
};

#define TB_BANDED_KERNELS                                                                                     \
  /* y[i] = (A x)[i] for local rows begin <= i < end: interior rows run while the halo is in flight */        \
  void dia_spmv(const DiaView& a, index_t begin, index_t end, const double* x_ext, double* y);                \
  void stencil_spmv(const StencilSlab& a, index_t begin, index_t end, const double* x_ext, double* y);        \
  /* z = K^{-1} r */                                                                                          \
  void jacobi_apply(index_t n, const double* dinv, const double* r, double* z);                               \
  /* 1/A(i,i) of the stencil operator's rows, for its Jacobi K */                                             \
  void stencil_inverse_diagonal(const StencilSlab& a, index_t n, double* dinv);                               \
  /* Alg. 1 line 2: p = r + beta (p - omega v);  y = K^{-1} p */                                              \
  void bicg_direction(index_t n, double beta, double omega, const BicgVectors& w);                            \
  /* Alg. 1 line 4: s = r - alpha v;  z = K^{-1} s */                                                         \
  void bicg_half_step(index_t n, double alpha, const BicgVectors& w);                                         \
  /* Alg. 1 line 5, omega's numerator and denominator: sum[0] = <K^{-1}t, z>, sum[1] = <K^{-1}t, K^{-1}t> */  \
  Partials bicg_stabiliser_dots(index_t n, const BicgVectors& w);                                             \
  /* the one-reduction variant's dots after t = A z (BicgMergedDots) */                                       \
  BicgMergedDots bicg_merged_dots(index_t n, const BicgVectors& w);                                           \
  /* Alg. 1 line 5: x += alpha y + omega z;  r = s - omega t; with the next iteration's first box:            \
     sum[0] = <r0hat, r>, sum[1] = <r, r>, max_abs = ||r||_max */                                             \
  Partials bicg_solution_update(index_t n, double alpha, double omega, const BicgVectors& w);                 \
  /* CG: x += alpha p;  r -= alpha q;  z = K^{-1} r; sum[0] = <r, z>, sum[1] = <r, r>, max_abs = ||r||_max */ \
  Partials cg_solution_update(index_t n, double alpha, const double* dinv, const double* p, const double* q,  \
                              double* x, double* r, double* z);                                               \
  /* p = z + beta p */                                                                                        \
  void cg_direction(index_t n, double beta, const double* z, double* p);                                      \
  /* one-reduction CG: p = u + beta p;  q = w + beta q;  x += alpha p;  r -= alpha q;  u = K^{-1} r;          \
     sum[0] = <r, u>, sum[1] = <r, r>, max_abs = ||r||_max */                                                 \
  Partials cg_recurrence_update(index_t n, double alpha, double beta, const CgRecurrenceVectors& v);          \
  /* sum[j] = <x[j], y[j]> for j < k (k <= 3); max_abs = max |m| (m may be null) */                           \
  Partials dots_and_max(index_t n, int k, const double* const* x, const double* const* y, const double* m);

namespace kernels::ref {
TB_BANDED_KERNELS
}
namespace kernels::omp {
TB_BANDED_KERNELS
}
namespace kernels::cuda {
TB_BANDED_KERNELS
}

namespace kernels {
// Dispatch: the backend the pointers live on.
void dia_spmv(Backend b, const DiaView& a, index_t begin, index_t end, const double* x_ext, double* y);
void stencil_spmv(Backend b, const StencilSlab& a, index_t begin, index_t end, const double* x_ext, double* y);
void jacobi_apply(Backend b, index_t n, const double* dinv, const double* r, double* z);
void stencil_inverse_diagonal(Backend b, const StencilSlab& a, index_t n, double* dinv);
void bicg_direction(Backend b, index_t n, double beta, double omega, const BicgVectors& w);
void bicg_half_step(Backend b, index_t n, double alpha, const BicgVectors& w);
Partials bicg_stabiliser_dots(Backend b, index_t n, const BicgVectors& w);
BicgMergedDots bicg_merged_dots(Backend b, index_t n, const BicgVectors& w);
Partials bicg_solution_update(Backend b, index_t n, double alpha, double omega, const BicgVectors& w);
Partials cg_solution_update(Backend b, index_t n, double alpha, const double* dinv, const double* p, const double* q,
                            double* x, double* r, double* z);
void cg_direction(Backend b, index_t n, double beta, const double* z, double* p);
Partials cg_recurrence_update(Backend b, index_t n, double alpha, double beta, const CgRecurrenceVectors& v);
Partials dots_and_max(Backend b, index_t n, int k, const double* const* x, const double* const* y, const double* m);
}  // namespace kernels

}  // namespace tb::banded
