// Dispatch of the multicolour relaxation on host arrays by the room's kernel
// selector (kernels.hpp).
#include "kernels.hpp"

#include "options.hpp"
#include "solvers/core/error.hpp"

namespace tb::multicolor {

namespace {

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

namespace kernels {
void relax_colour(Kernel k, const RelaxView<float>& m, index_t begin, index_t end, const double* b, double* x) {
  relax_on_host(k, m, begin, end, b, x);
}
void relax_colour(Kernel k, const RelaxView<double>& m, index_t begin, index_t end, const double* b, double* x) {
  relax_on_host(k, m, begin, end, b, x);
}
}  // namespace kernels

}  // namespace tb::multicolor
