// The sequential twin of the multicolour relaxation (kernels.hpp): relax_row
// over the block rows of one colour in order.
#include "kernels.hpp"
#include "solvers/core/block_size_dispatch.hpp"

namespace tb::multicolor::kernels::ref {

namespace {

template <class Real>
void relax(const RelaxView<Real>& m, index_t begin, index_t end, const double* b, double* x) {
  with_block_size(m.block_size, [&]<int N>() {
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

}  // namespace tb::multicolor::kernels::ref
