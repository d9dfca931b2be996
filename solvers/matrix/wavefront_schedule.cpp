#include "solvers/matrix/wavefront_schedule.hpp"

#include <algorithm>

#include "mesh/graph/wavefront.hpp"

namespace tb::fgbilu {

index_t WavefrontSchedule::max_plane_size() const {
  index_t m = 0;
  for (index_t p = 0; p < num_planes(); ++p) m = std::max(m, plane_size(p));
  return m;
}

WavefrontSchedule make_wavefront_schedule(const GridShape& shape, CellOrder order) {
  const Hyperplanes h = wavefront_hyperplanes(shape.ni, shape.nj, shape.nk);
  WavefrontSchedule s;
  s.shape = shape;
  s.order = order;
  const index_t n = shape.cells();
  if (order == CellOrder::wavefront) {
    s.plane_ptr = h.plane_ptr;
    s.ijk = h.ijk;
  } else {
    s.ijk.resize(n);
    for (const auto& c : h.ijk) s.ijk[shape.natural(c[0], c[1], c[2])] = c;
  }
  s.natural.resize(n);
  s.position.resize(n);
  for (index_t q = 0; q < n; ++q) {
    const auto [i, j, k] = s.ijk[q];
    s.natural[q] = shape.natural(i, j, k);
    s.position[s.natural[q]] = q;
  }
  s.neighbour.assign(std::size_t(num_neighbours) * n, -1);
  for (index_t q = 0; q < n; ++q) {
    const auto [i, j, k] = s.ijk[q];
    const index_t c = s.natural[q];
    const index_t sj = shape.stride(1), sk = shape.stride(2);
    index_t* nb = s.neighbour.data();
    if (k > 0) nb[k_minus * n + q] = s.position[c - sk];
    if (j > 0) nb[j_minus * n + q] = s.position[c - sj];
    if (i > 0) nb[i_minus * n + q] = s.position[c - 1];
    if (i + 1 < shape.ni) nb[i_plus * n + q] = s.position[c + 1];
    if (j + 1 < shape.nj) nb[j_plus * n + q] = s.position[c + sj];
    if (k + 1 < shape.nk) nb[k_plus * n + q] = s.position[c + sk];
  }
  return s;
}

}  // namespace tb::fgbilu
