// Dispatch of the ParILUT kernels on the room's kernel selector.
#include "kernels.hpp"

namespace tb::parilut::kernels {

CsrMatrix find_candidates(Kernel k, const CsrMatrix& a, const IluFactors& f) {
  return k == Kernel::ref ? ref::find_candidates(a, f) : omp::find_candidates(a, f);
}

void candidate_residuals(Kernel k, const CsrMatrix& a, IluFactors& f, CsrMatrix& candidates) {
  k == Kernel::ref ? ref::candidate_residuals(a, f, candidates) : omp::candidate_residuals(a, f, candidates);
}

void sweep(Kernel k, const CsrMatrix& a, IluFactors& f) { k == Kernel::ref ? ref::sweep(a, f) : omp::sweep(a, f); }

BucketCounts classify(Kernel k, std::span<const double> data, const SplitterTree& tree,
                      std::vector<std::uint8_t>& oracles) {
  return k == Kernel::ref ? ref::classify(data, tree, oracles) : omp::classify(data, tree, oracles);
}

}  // namespace tb::parilut::kernels
