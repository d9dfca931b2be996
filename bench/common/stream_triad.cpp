#include "stream_triad.hpp"

#include <cstddef>

#include "solvers/core/array.hpp"
#include "solvers/core/error.hpp"
#include "timing.hpp"

namespace tb::bench {

double host_triad_seconds(std::size_t n, int reps) {
  using sidx = std::ptrdiff_t;
  Array<double> a(Backend::host, n), b(Backend::host, n), c(Backend::host, n);
  double* pa = a.data();
  double* pb = b.data();
  double* pc = c.data();
#pragma omp parallel for schedule(static)
  for (sidx i = 0; i < sidx(n); ++i) {
    pa[i] = 0.0;
    pb[i] = 1.0;
    pc[i] = 2.0;
  }
  const double s = 3.0;
  const double t = best_seconds(reps, [&] {
#pragma omp parallel for schedule(static)
    for (sidx i = 0; i < sidx(n); ++i) pa[i] = pb[i] + s * pc[i];
  });
  // Keeps the loop from being optimised away and catches a broken build.
  if (n && pa[n - 1] != 7.0) throw Error("host triad computed a wrong value");
  return t;
}

}  // namespace tb::bench
