#pragma once
// The device steps of FGBILU, one declared kernel each (seed 000). The
// algorithm (fgbilu.cpp) loops over hyperplanes and calls these; it never
// touches hardware. Positions [begin, end) are one hyperplane's range of
// wavefront positions; vectors are in natural order. d holds the factorised
// diagonal blocks, inverted, in wavefront order.
//
// ref::      sequential twins (the tests' reference); ref::*_natural is the
//            paper's sequential baseline in natural order.
// omp::      coarse-grained wavefront (Algorithms 2, 3): one cell per thread.
// acc_host:: the fine-grained ACC-style loop bodies (Algorithms 4-6) as host loops.
// cuda::     ACC style (Algorithms 4-6) and CL style (Algorithms 8-10) on the GPU;
//            plain declarations, defined in cuda/fgbilu_kernels.cu.
// Host factorisation kernels return the first position whose block is singular
// or not finite, or -1.
#include "element_kernels.hpp"
#include "solvers/core/stage_groups.hpp"

namespace tb::fgbilu {

namespace ref {
index_t factor_natural(const Stencil7View& a, double* d);
void forward_natural(const Stencil7View& a, const double* d, const double* b, double* x);
void backward_natural(const Stencil7View& a, const double* d, double* x);
index_t factor_plane(const Stencil7View& a, double* d, index_t begin, index_t end);
void forward_plane(const Stencil7View& a, const double* d, index_t begin, index_t end, const double* b, double* x);
void backward_plane(const Stencil7View& a, const double* d, index_t begin, index_t end, double* x);
// Algorithm 7: r = b - A x.
void residual(const Stencil7View& a, const double* b, const double* x, double* r);
}  // namespace ref

namespace omp {
// Whole sweeps over the hyperplanes plane_ptr[p] .. plane_ptr[p+1), p < planes:
// one parallel region, a barrier between planes.
index_t factor_planes(const Stencil7View& a, double* d, const index_t* plane_ptr, index_t planes);
void forward_sweep(const Stencil7View& a, const double* d, const index_t* plane_ptr, index_t planes, const double* b,
                   double* x);
void backward_sweep(const Stencil7View& a, const double* d, const index_t* plane_ptr, index_t planes, double* x);
void residual(const Stencil7View& a, const double* b, const double* x, double* r);
}  // namespace omp

namespace acc_host {
// s: 3 * N_p * n * n doubles (Algorithm 4's s); z: N_p * n (Algorithm 6's z).
index_t factor_plane(const Stencil7View& a, double* d, index_t begin, index_t end, PlaneScratch s);
void forward_plane(const Stencil7View& a, const double* d, index_t begin, index_t end, const double* b, double* x,
                   double* z);
void backward_plane(const Stencil7View& a, const double* d, index_t begin, index_t end, double* x, double* z);
}  // namespace acc_host

namespace cuda {
// CL workgroups hold L = cl_points(n) grid points of n*n threads: about 256
// threads, at least one point (n*n <= 1024).
inline index_t cl_points(index_t n) { return n * n >= 256 ? 1 : 256 / (n * n); }

void acc_factor_plane(const Stencil7View& a, double* d, index_t begin, index_t end, PlaneScratch s);
void acc_forward_plane(const Stencil7View& a, const double* d, index_t begin, index_t end, const double* b, double* x,
                       double* z);
void acc_backward_plane(const Stencil7View& a, const double* d, index_t begin, index_t end, double* x, double* z);
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
void residual(const Stencil7View& a, const double* b, const double* x, double* r);
// The first wavefront position whose block holds a non-finite entry, or -1
// (one synchronising copy; called once after a factorisation). flag: one
// device index_t of scratch, so that a factorisation allocates nothing.
index_t first_non_finite_block(const double* d, index_t cells, index_t n, index_t* flag);
}  // namespace cuda

}  // namespace tb::fgbilu
