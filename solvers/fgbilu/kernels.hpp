#pragma once
// The device steps of FGBILU, one declared kernel each (seed 000). The
// algorithm (fgbilu.cpp) chooses the variant (seq, omp, acc, cl) and loops over
// hyperplanes; each step it calls is declared here and never touches hardware
// itself. Positions [begin, end) are one hyperplane's range of wavefront
// positions; vectors are in natural order. d holds the factorised diagonal
// blocks, inverted, in wavefront order.
//
// kernels::ref::   sequential twins (the tests' reference, kernels_ref.cpp);
//                  ref::*_natural is the paper's sequential baseline in natural order.
// kernels::omp::   coarse-grained wavefront (Algorithms 2, 3): one cell per
//                  thread (kernels_omp.cpp).
// kernels::cuda::  ACC style (Algorithms 4-6) and CL style (Algorithms 8-10) on
//                  the GPU; plain declarations, defined in cuda/kernels.cu.
// Host factorisation kernels return the first position whose block is singular
// or not finite, or -1.
#include "element_kernels.hpp"
#include "solvers/core/backend.hpp"
#include "solvers/core/recorded_graph.hpp"
#include "solvers/core/stage_groups.hpp"

namespace tb::fgbilu {

// Steps every backend has.
#define TB_FGBILU_KERNELS                                                                               \
  /* Algorithm 7: r = b - A x */                                                                        \
  void residual(const Stencil7View& a, const double* b, const double* x, double* r);                    \
  /* coef = the 7-point layout of a BSR matrix's values on the same backend, block by block through map \
     (Stencil7Map::bsr_block, blocks entries, nb each; 0 where -1): update_values without the host */   \
  void gather_blocks(const index_t* map, index_t blocks, index_t nb, const double* values, double* coef);

// The ACC-style steps (Algorithms 4-6) on one hyperplane, each loop nest one
// "kernel" of the paper: the host loops (ref::, the sequential twin) and the
// CUDA launches run the same element bodies. No OpenMP version: the host's
// parallel variant is the coarse-grained omp:: sweeps below. s: 3 * N_p * n * n
// doubles (Algorithm 4's s); z: N_p * n (Algorithm 6's z). cuda::
// acc_factor_plane returns -1: the device blocks are checked once after the
// last hyperplane (first_non_finite_block) instead of per plane.
#define TB_FGBILU_ACC_KERNELS                                                                                 \
  index_t acc_factor_plane(const Stencil7View& a, double* d, index_t begin, index_t end, PlaneScratch s);     \
  void acc_forward_plane(const Stencil7View& a, const double* d, index_t begin, index_t end, const double* b, \
                         double* x, double* z);                                                               \
  void acc_backward_plane(const Stencil7View& a, const double* d, index_t begin, index_t end, double* x, double* z);

namespace kernels::ref {
TB_FGBILU_KERNELS
TB_FGBILU_ACC_KERNELS
// Host only: the sequential baseline in natural order and the per-cell plane
// twins of the omp:: sweeps (Algorithms 2, 3).
index_t factor_natural(const Stencil7View& a, double* d);
void forward_natural(const Stencil7View& a, const double* d, const double* b, double* x);
void backward_natural(const Stencil7View& a, const double* d, double* x);
index_t factor_plane(const Stencil7View& a, double* d, index_t begin, index_t end);
void forward_plane(const Stencil7View& a, const double* d, index_t begin, index_t end, const double* b, double* x);
void backward_plane(const Stencil7View& a, const double* d, index_t begin, index_t end, double* x);
}  // namespace kernels::ref

namespace kernels::omp {
TB_FGBILU_KERNELS
// Host only: whole sweeps over the hyperplanes plane_ptr[p] .. plane_ptr[p+1),
// p < planes: one parallel region, a barrier between planes.
index_t factor_planes(const Stencil7View& a, double* d, const index_t* plane_ptr, index_t planes);
void forward_sweep(const Stencil7View& a, const double* d, const index_t* plane_ptr, index_t planes, const double* b,
                   double* x);
void backward_sweep(const Stencil7View& a, const double* d, const index_t* plane_ptr, index_t planes, double* x);
}  // namespace kernels::omp

namespace kernels::cuda {
TB_FGBILU_KERNELS
TB_FGBILU_ACC_KERNELS
// CUDA only, the CL style. Workgroups hold L = cl_points(n) grid points of n*n
// threads: about 256 threads, at least one point (n*n <= 1024).
inline index_t cl_points(index_t n) { return n * n >= 256 ? 1 : 256 / (n * n); }
// Algorithms 9 and 10: one fused kernel per hyperplane, n <= 32.
void cl_factor_plane(const Stencil7View& a, double* d, index_t begin, index_t end);
void cl_forward_plane(const Stencil7View& a, const double* d, index_t begin, index_t end, const double* b, double* x);
void cl_backward_plane(const Stencil7View& a, const double* d, index_t begin, index_t end, double* x);
// Algorithms 9 and 10 over every hyperplane in one launch each
// (fgbilu(variant=cl,launch=sweep)); the same arithmetic as the *_plane twins,
// with the plane order kept by device-side counters instead of kernel
// boundaries. g: the hyperplanes as stages, in groups of cl_points(n).
// cl_factor_sweep returns what first_non_finite_block would (flag: its
// scratch), found as each block is inverted rather than in a second pass.
index_t cl_factor_sweep(const Stencil7View& a, double* d, const StageGroupsView& g, index_t* flag);
void cl_forward_sweep(const Stencil7View& a, const double* d, const StageGroupsView& g, const double* b, double* x);
void cl_backward_sweep(const Stencil7View& a, const double* d, const StageGroupsView& g, double* x);
// The first wavefront position whose block holds a non-finite entry, or -1
// (one synchronising copy; called once after a factorisation). flag: one
// device index_t of scratch, so that a factorisation allocates nothing.
index_t first_non_finite_block(const double* d, index_t cells, index_t n, index_t* flag);
// A solve's launches recorded once as a CUDA graph and replayed
// (fgbilu(graph=true); solvers/core/recorded_graph.hpp).
TB_RECORDED_GRAPH_DECLARATIONS
}  // namespace kernels::cuda

namespace kernels {
// Dispatch on the backend the pointers live on: the host runs omp:: for
// residual and ref:: (its only version) for the ACC steps.
void residual(Backend b, const Stencil7View& a, const double* rhs, const double* x, double* r);
void gather_blocks(Backend b, const index_t* map, index_t blocks, index_t nb, const double* values, double* coef);
index_t acc_factor_plane(Backend b, const Stencil7View& a, double* d, index_t begin, index_t end, PlaneScratch s);
void acc_forward_plane(Backend b, const Stencil7View& a, const double* d, index_t begin, index_t end, const double* rhs,
                       double* x, double* z);
void acc_backward_plane(Backend b, const Stencil7View& a, const double* d, index_t begin, index_t end, double* x,
                        double* z);
}  // namespace kernels

}  // namespace tb::fgbilu
