#include "relax_colour.hpp"

#include "solvers/core/block_size_dispatch.hpp"

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

}  // namespace

void relax_colour_ref(const RelaxView<float>& m, index_t begin, index_t end, const double* b, double* x) {
  relax_ref(m, begin, end, b, x);
}
void relax_colour_ref(const RelaxView<double>& m, index_t begin, index_t end, const double* b, double* x) {
  relax_ref(m, begin, end, b, x);
}
void relax_colour_omp(const RelaxView<float>& m, index_t begin, index_t end, const double* b, double* x) {
  relax_omp(m, begin, end, b, x);
}
void relax_colour_omp(const RelaxView<double>& m, index_t begin, index_t end, const double* b, double* x) {
  relax_omp(m, begin, end, b, x);
}

}  // namespace tb::multicolor
