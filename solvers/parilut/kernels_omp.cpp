// The OpenMP ParILUT kernels (kernels.hpp): rows split over threads; the sweep
// is asynchronous (Chow and Patel), the others equal the sequential twins.
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "candidates.hpp"
#include "fixed_point.hpp"
#include "kernels.hpp"
#include "step_kernels_host.hpp"

namespace tb::parilut::kernels::omp {

namespace {

int thread_count() {
#ifdef _OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}
int thread_id() {
#ifdef _OPENMP
  return omp_get_thread_num();
#else
  return 0;
#endif
}

}  // namespace

CsrMatrix find_candidates(const CsrMatrix& a, const IluFactors& f) { return candidates_in_two_passes<true>(a, f); }

void sweep(const CsrMatrix& a, IluFactors& f) {
  const FactorView v = view(a, f);
  const index_t n = a.rows;
#pragma omp parallel for schedule(static) if (long(f.l.nnz()) + f.u.nnz() >= openmp_min_length)
  for (index_t i = 0; i < n; ++i) sweep_row(v, i, RelaxedLoad{}, relaxed_store);
}

void candidate_residuals(const CsrMatrix& a, IluFactors& f, CsrMatrix& c) {
  const FactorView v = view(a, f);
  const index_t n = c.rows;
#pragma omp parallel for schedule(static) if (long(c.nnz()) >= openmp_min_length)
  for (index_t i = 0; i < n; ++i) residual_row(v, c, i, c.values.data());
}

// The OpenMP kernel: per-thread counts summed at the end. A single descent is a chain of eight dependent loads; eight
// independent chains keep the core busy (the reason the super-scalar sample sort stores the tree implicitly).
BucketCounts classify(std::span<const double> data, const SplitterTree& tree, std::vector<std::uint8_t>& oracles) {
  constexpr std::size_t group = 8;
  const std::size_t n = data.size(), whole = n / group * group;
  oracles.resize(n);
  std::vector<BucketCounts> local(std::size_t(thread_count()), BucketCounts{});
#pragma omp parallel if (n >= std::size_t(openmp_min_length))
  {
    BucketCounts& mine = local[std::size_t(thread_id())];
#pragma omp for schedule(static)
    for (std::size_t g = 0; g < whole; g += group) {
      int node[group] = {};
      for (int level = 0; level < tree_height; ++level)
        for (std::size_t l = 0; l < group; ++l) node[l] = 2 * node[l] + (data[g + l] < tree[node[l]] ? 1 : 2);
      for (std::size_t l = 0; l < group; ++l) {
        const int b = node[l] - tree_splitters;
        oracles[g + l] = std::uint8_t(b);
        ++mine[b];
      }
    }
  }
  for (std::size_t i = whole; i < n; ++i) {
    const int b = bucket_of(tree.data(), data[i]);
    oracles[i] = std::uint8_t(b);
    ++local[0][b];
  }
  BucketCounts total{};
  for (const BucketCounts& c : local)
    for (int b = 0; b < select_buckets; ++b) total[b] += c[b];
  return total;
}

TB_PARILUT_STEP_HOST_DEFINITIONS(true)

// Rows over threads, updated in place with relaxed atomics as omp::sweep above.
void sweep(const StepView& s, index_t l_nnz, index_t u_nnz) {
#pragma omp parallel for schedule(static) if (long(l_nnz) + u_nnz >= openmp_min_length)
  for (index_t i = 0; i < s.n; ++i) {
    for (index_t p = s.l.ptr[i]; p < s.l.ptr[i + 1]; ++p) sweep_l_entry(s, p, RelaxedLoad{}, relaxed_store);
    for (index_t p = s.u.ptr[i]; p < s.u.ptr[i + 1]; ++p) sweep_u_entry(s, p, RelaxedLoad{}, relaxed_store);
  }
}

}  // namespace tb::parilut::kernels::omp
