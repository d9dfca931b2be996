// The OpenMP multicolour relaxation (kernels.hpp): the rows of one colour are
// not coupled, so a static split over threads gives the sequential twin's
// result bit for bit.
#include "kernels.hpp"
#include "solvers/core/block_size_dispatch.hpp"

namespace tb::multicolor::kernels::omp {

namespace {

template <class Real>
void relax(const RelaxView<Real>& m, index_t begin, index_t end, const double* b, double* x) {
  const long entries = long(end - begin) * m.block_size;
  with_block_size(m.block_size, [&]<int N>() {
#pragma omp parallel for schedule(static) if (entries >= openmp_min_length)
    for (index_t i = begin; i < end; ++i) relax_row<N, false>(m, i, b, x);
  });
}

}  // namespace

void relax_colour(const RelaxView<float>& m, index_t begin, index_t end, const double* b, double* x) {
  relax(m, begin, end, b, x);
}
void relax_colour(const RelaxView<double>& m, index_t begin, index_t end, const double* b, double* x) {
  relax(m, begin, end, b, x);
}

}  // namespace tb::multicolor::kernels::omp
