// The sequential twins of the ParILUT kernels (kernels.hpp): the reference the
// tests compare the OpenMP kernels against.
#include "candidates.hpp"
#include "fixed_point.hpp"
#include "kernels.hpp"
#include "step_kernels_host.hpp"

namespace tb::parilut::kernels::ref {

CsrMatrix find_candidates(const CsrMatrix& a, const IluFactors& f) { return candidates_in_two_passes<false>(a, f); }

void sweep(const CsrMatrix& a, IluFactors& f) {
  const FactorView v = view(a, f);
  for (index_t i = 0; i < a.rows; ++i) sweep_row(v, i, PlainLoad{}, plain_store);
}

void candidate_residuals(const CsrMatrix& a, IluFactors& f, CsrMatrix& c) {
  const FactorView v = view(a, f);
  for (index_t i = 0; i < c.rows; ++i) residual_row(v, c, i, c.values.data());
}

BucketCounts classify(std::span<const double> data, const SplitterTree& tree, std::vector<std::uint8_t>& oracles) {
  oracles.resize(data.size());
  BucketCounts counts{};
  for (std::size_t i = 0; i < data.size(); ++i) {
    const int b = bucket_of(tree.data(), data[i]);
    oracles[i] = std::uint8_t(b);
    ++counts[b];
  }
  return counts;
}

TB_PARILUT_STEP_HOST_DEFINITIONS(false)

// Row by row as ref::sweep above, so the pipeline twin's factors equal the
// host ParILUT's bit for bit.
void sweep(const StepView& s, index_t, index_t) {
  for (index_t i = 0; i < s.n; ++i) {
    for (index_t p = s.l.ptr[i]; p < s.l.ptr[i + 1]; ++p) sweep_l_entry(s, p);
    for (index_t p = s.u.ptr[i]; p < s.u.ptr[i + 1]; ++p) sweep_u_entry(s, p);
  }
}

}  // namespace tb::parilut::kernels::ref
