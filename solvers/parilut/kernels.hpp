#pragma once
// The device steps of ParILUT and ParILU (seed 003), one declared kernel each
// on host-held factors. ref:: is the sequential twin the tests compare omp::
// against; the dispatching functions (namespace kernels) take the room's
// kernel selector (ParilutOptions::kernel, `kernel=ref|omp`).
//
// TB_PARILUT_KERNELS act on host containers (CsrMatrix, IluFactors): the host
// ParILUT. TB_PARILUT_STEP_KERNELS are the steps of the device pipeline
// (step_pipeline.hpp) on plain views of arrays that live on the kernel's
// backend, declared for ref (the sequential pipeline twin), omp and cuda
// (cuda/kernels.cu), each a loop over the bodies of step_rows.hpp. The
// element-parallel GPU kernels of cuda/kernels.hpp take per-entry row indices
// and are tested against ref:: in test_parilut_gpu.cpp.
#include <cstdint>
#include <span>
#include <vector>

#include "ilu_factors.hpp"
#include "parilut.hpp"
#include "pattern_update.hpp"
#include "splitter_tree.hpp"
#include "step_rows.hpp"

namespace tb::parilut {

#define TB_PARILUT_KERNELS                                                                                    \
  /* Eq. 5, §IV: the candidate locations F = (A + L U) \ (L u U), columns sorted, values zero */             \
  CsrMatrix find_candidates(const CsrMatrix& a, const IluFactors& f);                                         \
  /* Fig. 7: r_ij = a_ij - sum_{k<=min(i,j)} l_ik u_kj at the candidates (their values) */                    \
  void candidate_residuals(const CsrMatrix& a, IluFactors& f, CsrMatrix& candidates);                         \
  /* Eq. 2-3, Fig. 6: one sweep over every entry of L and U. ref updates in place in natural order (one sweep \
     is the exact ILU on the pattern); omp splits the rows over threads, asynchronously (Chow and Patel) */   \
  void sweep(const CsrMatrix& a, IluFactors& f);                                                              \
  /* Fig. 5: each element's bucket (oracle) and the 256 bucket sizes */                                       \
  BucketCounts classify(std::span<const double> data, const SplitterTree& tree, std::vector<std::uint8_t>& oracles);

// The pipeline's steps. fill = false: the count pass (each row's length into
// ptr[i + 1]); fill = true: the fill pass after `scan`.
#define TB_PARILUT_STEP_KERNELS                                                                                    \
  /* Eq. 5: row i's candidate count into s.c.ptr[i + 1], or its columns */                                         \
  void candidates(const StepView& s, bool fill);                                                                   \
  /* Fig. 7: the residual at every candidate into s.c.val */                                                       \
  void candidate_residuals(const StepView& s);                                                                     \
  /* §IV add: L's and U's rows merged with their candidates into next_l / next_u */                               \
  void add(const StepView& s, bool fill);                                                                          \
  /* U's CSC view of s.u (u_nnz entries) into s.uc_*: count per column, scan, place, sort each column by row */    \
  void upper_columns(const StepView& s, index_t u_nnz, index_t* scan_scratch);                                     \
  /* Eq. 2-3, Fig. 6: one sweep; ref in natural order (row i's L entries, then its U entries), omp rows over       \
     threads and cuda an entry per thread, both asynchronous (Chow and Patel) */                                   \
  void sweep(const StepView& s, index_t l_nnz, index_t u_nnz);                                                     \
  /* the off-diagonal magnitudes of a factor (nnz entries), row-major, into m */                                   \
  void magnitudes(const CsrView& f, bool lower, index_t nnz, double* m);                                           \
  /* per row, the off-diagonal entries of magnitude t, into ties[i + 1] */                                         \
  void ties(const CsrView& f, index_t n, double t, index_t* ties);                                                 \
  /* §IV remove: f without the entries the rule drops into out (first_tie: scanned ties) */                       \
  void prune(const CsrView& f, index_t n, DropRule rule, const index_t* first_tie, const CsrView& out, bool fill); \
  /* v[1..n] (counts) into offsets with v[0] = 0, in place; returns v[n]. scratch: scan_scratch_size entries */    \
  index_t scan(index_t* v, index_t n, index_t* scratch);                                                           \
  /* one level of the level-scheduled substitutions: rows[0..count) */                                             \
  void lower_solve(const CsrView& l, const index_t* rows, index_t count, const double* r, double* y);              \
  void upper_solve(const CsrView& u, const index_t* rows, index_t count, const double* y, double* z);              \
  /* waits for the steps above (a no-op on the host): the timer's laps */                                          \
  void synchronize();

// The scratch `scan` needs (per-block sums on the GPU).
inline constexpr index_t scan_scratch_size = 1024;

namespace kernels::ref {
TB_PARILUT_KERNELS
TB_PARILUT_STEP_KERNELS
}  // namespace kernels::ref
namespace kernels::omp {
TB_PARILUT_KERNELS
TB_PARILUT_STEP_KERNELS
}  // namespace kernels::omp
namespace kernels::cuda {
TB_PARILUT_STEP_KERNELS
}

namespace kernels {
// Dispatch: Kernel::ref runs ref::, Kernel::omp omp::.
CsrMatrix find_candidates(Kernel k, const CsrMatrix& a, const IluFactors& f);
void candidate_residuals(Kernel k, const CsrMatrix& a, IluFactors& f, CsrMatrix& candidates);
void sweep(Kernel k, const CsrMatrix& a, IluFactors& f);
BucketCounts classify(Kernel k, std::span<const double> data, const SplitterTree& tree,
                      std::vector<std::uint8_t>& oracles);
}  // namespace kernels

}  // namespace tb::parilut
