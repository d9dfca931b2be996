#pragma once
// Finite-volume Poisson matrices on structured grids for the multigrid tests:
// the compact negative Laplacian sum_f A_f (phi_P - phi_N) / d_PN (the
// operator tb-incomp's pressure Poisson assembles), Neumann on every side,
// cells clustered towards the walls by tanh stretching, optionally periodic in
// i (wrap-around columns outside the 7-point stencil) or with cell 0 fixed as
// tb-incomp fixes it (row 0 the identity, its neighbours' couplings zeroed).
#include <algorithm>
#include <cmath>
#include <vector>

#include "solvers/matrix/bsr.hpp"

namespace tb::test {

struct PoissonSpec {
  index_t nx = 16, ny = 16, nz = 16;
  double length[3] = {1.0, 1.0, 1.0};
  double cluster[3] = {0.0, 0.0, 0.0};  // tanh clustering strength per direction, 0: uniform
  bool pin = false;
  bool periodic_i = false;
};

// Cell widths of [0, length] in n cells, clustered towards both ends by tanh(beta).
inline std::vector<double> cell_widths(index_t n, double length, double beta) {
  std::vector<double> x(std::size_t(n) + 1);
  for (index_t i = 0; i <= n; ++i) {
    const double s = double(i) / double(n);
    x[std::size_t(i)] =
        beta > 0.0 ? 0.5 * length * (1.0 + std::tanh(beta * (2.0 * s - 1.0)) / std::tanh(beta)) : length * s;
  }
  std::vector<double> h(static_cast<std::size_t>(n));
  for (index_t i = 0; i < n; ++i) h[std::size_t(i)] = x[std::size_t(i) + 1] - x[std::size_t(i)];
  return h;
}

inline BsrMatrix poisson_matrix(const PoissonSpec& s) {
  const index_t n[3] = {s.nx, s.ny, s.nz};
  std::vector<double> h[3];
  for (int d = 0; d < 3; ++d) h[d] = cell_widths(n[d], s.length[d], s.cluster[d]);
  BsrMatrix a;
  a.block_rows = a.block_cols = s.nx * s.ny * s.nz;
  auto cell = [&](index_t i, index_t j, index_t k) { return i + s.nx * (j + s.ny * k); };
  a.row_ptr.assign(1, 0);
  for (index_t k = 0; k < s.nz; ++k)
    for (index_t j = 0; j < s.ny; ++j)
      for (index_t i = 0; i < s.nx; ++i) {
        const index_t c[3] = {i, j, k};
        const index_t row = cell(i, j, k);
        std::vector<std::pair<index_t, double>> entries;
        double diag = 0.0;
        for (int d = 0; d < 3; ++d)
          for (int side : {-1, 1}) {
            index_t nb[3] = {i, j, k};
            nb[d] += side;
            double dist = 0.0;
            if (nb[d] < 0 || nb[d] >= n[d]) {
              if (d != 0 || !s.periodic_i || n[0] < 3) continue;
              nb[0] = nb[0] < 0 ? n[0] - 1 : 0;
              dist = 0.5 * (h[0][std::size_t(c[0])] + h[0][std::size_t(nb[0])]);
            } else {
              dist = 0.5 * (h[d][std::size_t(c[d])] + h[d][std::size_t(nb[d])]);
            }
            const int e = (d + 1) % 3, f = (d + 2) % 3;
            const double coef = h[e][std::size_t(c[e])] * h[f][std::size_t(c[f])] / dist;
            const index_t col = cell(nb[0], nb[1], nb[2]);
            diag += coef;
            const bool pinned = s.pin && (row == 0 || col == 0);
            entries.emplace_back(col, pinned ? 0.0 : -coef);
          }
        entries.emplace_back(row, s.pin && row == 0 ? 1.0 : diag);
        std::sort(entries.begin(), entries.end());
        for (const auto& [col, v] : entries) {
          a.col_idx.push_back(col);
          a.values.push_back(v);
        }
        a.row_ptr.push_back(index_t(a.col_idx.size()));
      }
  return a;
}

}  // namespace tb::test
