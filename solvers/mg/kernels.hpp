#pragma once
// The device steps of the multigrid cycle, one declared kernel each, expanded
// in kernels::ref (the sequential twin), kernels::omp and kernels::cuda; the
// dispatching functions (namespace kernels) take the backend the pointers live
// on. Vectors a stencil reads (x, x_in) are padded (row_kernels.hpp); the
// others are plain arrays of the level's cells.
//
// The set-up steps (transfer weights, Galerkin products, inverse diagonals)
// run on the host only, in ref and omp: the hierarchy is built on the host and
// copied to the device (TB_MG_SETUP_KERNELS).
#include "row_kernels.hpp"
#include "solvers/core/backend.hpp"
#include "solvers/core/recorded_graph.hpp"

namespace tb::mg {

// The points of a level's stencil as (di, dj, dk), in the order of row_kernels.hpp.
struct StencilPoints {
  int count = 0;
  signed char delta[max_points][3] = {};
};

// What the Galerkin product reads and writes: the fine operator (with its
// remainder where the coarse operator is to include it), the transfer, and the
// coarse box stencil's coefficients.
struct GalerkinArgs {
  StencilView fine;
  const double* row_scale = nullptr;  // per fine row (S of P^T S A P), or null: 1
  StencilPoints fine_points;
  TransferView transfer;
  StencilPoints coarse_points;  // a box
  double* coarse_coef = nullptr;
};

#define TB_MG_KERNELS                                                                                               \
  /* r = b - A x */                                                                                                 \
  void residual(const StencilView& a, const double* b, const double* x, double* r);                                 \
  /* d = alpha d + beta D^{-1}(b - A x_in), x_out = x_in + d (x_in null: zero; x_out need not be padded) */         \
  void polynomial_step(const StencilView& a, double alpha, double beta, const double* b, const double* x_in,        \
                       double* d, double* x_out);                                                                   \
  /* Gauss-Seidel on the regular cells of one colour, in place */                                                   \
  void colour_sweep(const StencilView& a, int colour, const double* b, double* x);                                  \
  /* t[k] = x[r] + D^{-1}(b - A x)[r] for the rows r = rows[k], k < count; then x[rows[k]] = t[k] */                \
  void rows_relax(const StencilView& a, const index_t* rows, index_t count, const double* b, const double* x,       \
                  double* t);                                                                                       \
  void rows_scatter(const index_t* rows, index_t count, const double* t, double* x);                                \
  /* x[rows[k]] *= s[k], k < count */                                                                               \
  void rows_scale(const index_t* rows, index_t count, const double* s, double* x);                                  \
  /* bc = P^T r */                                                                                                  \
  void restrict_residual(const TransferView& t, const double* r, double* bc);                                       \
  /* x += P xc */                                                                                                   \
  void prolong_add(const TransferView& t, const double* xc, double* x);                                             \
  /* x = G b, G the dense n x n coarse inverse, (i, j) at g[i * row_stride + j * col_stride] */                     \
  void dense_apply(index_t n, const double* g, index_t row_stride, index_t col_stride, const double* b, double* x); \
  void fill_zero(index_t n, double* x);                                                                             \
  void copy(index_t n, const double* src, double* dst);                                                             \
  /* x += z */                                                                                                      \
  void add(index_t n, const double* z, double* x);

#define TB_MG_SETUP_KERNELS                                                                                        \
  /* the lower parent's weight of every odd index of each coarsened direction, from the stencil collapsed onto     \
     that direction over the index's plane (0.5 where it carries no coupling; 1 at the upper end) */               \
  void transfer_weights(const StencilView& a, const StencilPoints& points, const bool coarsened[3], double* w_i,   \
                        double* w_j, double* w_k);                                                                 \
  /* the coarse box stencil of P^T A P; products that fall outside the box (remainder entries) go to the centre */ \
  void galerkin(const GalerkinArgs& g);                                                                            \
  /* dinv = 1 / the centre coefficient; returns the first cell whose centre is zero or not finite, else -1 */      \
  index_t inverse_diagonal(const StencilView& a, double* dinv);

namespace kernels::ref {
TB_MG_KERNELS
TB_MG_SETUP_KERNELS
}  // namespace kernels::ref
namespace kernels::omp {
TB_MG_KERNELS
TB_MG_SETUP_KERNELS
}  // namespace kernels::omp
namespace kernels::cuda {
TB_MG_KERNELS
// A sequence of the kernels above recorded once as a CUDA graph and replayed
// (solvers/core/recorded_graph.hpp).
TB_RECORDED_GRAPH_DECLARATIONS
}  // namespace kernels::cuda

namespace kernels {
void residual(Backend be, const StencilView& a, const double* b, const double* x, double* r);
void polynomial_step(Backend be, const StencilView& a, double alpha, double beta, const double* b, const double* x_in,
                     double* d, double* x_out);
void colour_sweep(Backend be, const StencilView& a, int colour, const double* b, double* x);
void rows_relax(Backend be, const StencilView& a, const index_t* rows, index_t count, const double* b, const double* x,
                double* t);
void rows_scatter(Backend be, const index_t* rows, index_t count, const double* t, double* x);
void rows_scale(Backend be, const index_t* rows, index_t count, const double* s, double* x);
void restrict_residual(Backend be, const TransferView& t, const double* r, double* bc);
void prolong_add(Backend be, const TransferView& t, const double* xc, double* x);
void dense_apply(Backend be, index_t n, const double* g, index_t row_stride, index_t col_stride, const double* b,
                 double* x);
void fill_zero(Backend be, index_t n, double* x);
void copy(Backend be, index_t n, const double* src, double* dst);
void add(Backend be, index_t n, const double* z, double* x);
}  // namespace kernels

}  // namespace tb::mg
