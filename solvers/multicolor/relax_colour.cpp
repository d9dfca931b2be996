#include "relax_colour.hpp"

#include "kernels.hpp"
#include "options.hpp"
#include "solvers/core/block_size_dispatch.hpp"
#include "solvers/core/error.hpp"

namespace tb::multicolor {

namespace {

template <class Real>
void relax_ref(const RelaxView<Real>& m, index_t begin, index_t end, const double* b, double* x) {
  with_block_size(m.block_size, [&]<int N>() {
    for (index_t i = begin; i < end; ++i) relax_row<N, false>(m, i, b, x);
  });
}

template <class Real>
void relax_omp(const RelaxView<Real>& m, index_t begin, index_t end, const double* b, double* x) {
  const long entries = long(end - begin) * m.block_size;
  with_block_size(m.block_size, [&]<int N>() {
#pragma omp parallel for schedule(static) if (entries >= openmp_min_length)
    for (index_t i = begin; i < end; ++i) relax_row<N, false>(m, i, b, x);
  });
}

template <class Real>
void relax_on_host(Kernel k, const RelaxView<Real>& m, index_t begin, index_t end, const double* b, double* x) {
  switch (k) {
    case Kernel::ref:
      return kernels::ref::relax_colour(m, begin, end, b, x);
    case Kernel::tuned:
      return kernels::omp::relax_colour(m, begin, end, b, x);
    case Kernel::library:
      throw Error("multicolor: no host kernel for relax_colour with kernel=library (CUDA only)");
    case Kernel::fused:
      throw Error("multicolor: no host kernel for relax_colour with kernel=fused (CUDA only)");
    case Kernel::automatic:
      break;
  }
  throw Error("multicolor: relax_colour needs kernel=auto resolved by choose_kernel first");
}

}  // namespace

namespace kernels::ref {
void relax_colour(const RelaxView<float>& m, index_t begin, index_t end, const double* b, double* x) {
  relax_ref(m, begin, end, b, x);
}
void relax_colour(const RelaxView<double>& m, index_t begin, index_t end, const double* b, double* x) {
  relax_ref(m, begin, end, b, x);
}
}  // namespace kernels::ref

namespace kernels::omp {
void relax_colour(const RelaxView<float>& m, index_t begin, index_t end, const double* b, double* x) {
  relax_omp(m, begin, end, b, x);
}
void relax_colour(const RelaxView<double>& m, index_t begin, index_t end, const double* b, double* x) {
  relax_omp(m, begin, end, b, x);
}
}  // namespace kernels::omp

namespace kernels {
void relax_colour(Kernel k, const RelaxView<float>& m, index_t begin, index_t end, const double* b, double* x) {
  relax_on_host(k, m, begin, end, b, x);
}
void relax_colour(Kernel k, const RelaxView<double>& m, index_t begin, index_t end, const double* b, double* x) {
  relax_on_host(k, m, begin, end, b, x);
}
}  // namespace kernels

}  // namespace tb::multicolor
