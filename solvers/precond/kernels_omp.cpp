// The OpenMP kernels of the room (kernels.hpp, kernels::omp): the row bodies
// of the sequential twins in static loops, the same bits for any team size.
#include <algorithm>

#include "diagonal_inverse.hpp"
#include "kernels.hpp"

namespace tb::precond::kernels::omp {

index_t invert_diagonal(const BsrView& a, const index_t* diagonal, bool whole_blocks, double* inverse, index_t*) {
  index_t bad = a.block_rows;
  const long entries = long(a.block_rows) * a.block_size * a.block_size;
#pragma omp parallel for schedule(static) reduction(min : bad) if (entries >= openmp_min_length)
  for (index_t i = 0; i < a.block_rows; ++i)
    if (!invert_diagonal_row(a, diagonal, whole_blocks, inverse, i)) bad = std::min(bad, i);
  return bad == a.block_rows ? -1 : bad;
}

}  // namespace tb::precond::kernels::omp
