#include "mesh/graph/wavefront.hpp"

#include "solvers/core/error.hpp"

namespace tb {

Hyperplanes wavefront_hyperplanes(index_t ni, index_t nj, index_t nk) {
  TB_REQUIRE(ni > 0 && nj > 0 && nk > 0, "a grid needs at least one cell per direction");
  Hyperplanes h;
  const index_t planes = ni + nj + nk - 2;
  h.plane_ptr.assign(planes + 1, 0);
  for (index_t i = 0; i < ni; ++i)
    for (index_t j = 0; j < nj; ++j)
      for (index_t k = 0; k < nk; ++k) ++h.plane_ptr[i + j + k + 1];
  for (index_t p = 0; p < planes; ++p) h.plane_ptr[p + 1] += h.plane_ptr[p];
  h.ijk.resize(static_cast<std::size_t>(ni) * nj * nk);
  std::vector<index_t> next(h.plane_ptr.begin(), h.plane_ptr.end() - 1);
  for (index_t i = 0; i < ni; ++i)
    for (index_t j = 0; j < nj; ++j)
      for (index_t k = 0; k < nk; ++k) h.ijk[next[i + j + k]++] = {i, j, k};
  return h;
}

}  // namespace tb
