#pragma once
// The device steps of ParILUT and ParILU (seed 003), one declared kernel each
// on host-held factors. ref:: is the sequential twin the tests compare omp::
// against; the dispatching functions (namespace kernels) take the room's
// kernel selector (ParilutOptions::kernel, `kernel=ref|omp`).
//
// No CUDA entry: ParILUT runs on the host (docs/parilut.md). The paper's
// element-parallel GPU kernels work on device arrays with per-entry row
// indices, a different signature, and are declared in cuda/kernels.hpp
// (tested against ref:: in test_parilut_gpu.cpp); Kernel has no cuda value, so
// nothing can ask for one here.
#include <cstdint>
#include <span>
#include <vector>

#include "ilu_factors.hpp"
#include "parilut.hpp"
#include "splitter_tree.hpp"

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

namespace kernels::ref {
TB_PARILUT_KERNELS
}
namespace kernels::omp {
TB_PARILUT_KERNELS
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
