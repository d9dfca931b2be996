#include "poisson.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "solvers/core/error.hpp"

namespace tb {

std::vector<double> clustered_widths(index_t n, double length, double beta) {
  std::vector<double> x(static_cast<std::size_t>(n) + 1);
  for (index_t i = 0; i <= n; ++i) {
    const double s = double(i) / double(n);
    x[std::size_t(i)] =
        beta > 0.0 ? 0.5 * length * (1.0 + std::tanh(beta * (2.0 * s - 1.0)) / std::tanh(beta)) : length * s;
  }
  std::vector<double> h(static_cast<std::size_t>(n));
  for (index_t i = 0; i < n; ++i) h[std::size_t(i)] = x[std::size_t(i) + 1] - x[std::size_t(i)];
  return h;
}

BsrMatrix generate_poisson(const PoissonParams& p) {
  const index_t n[3] = {p.nx, p.ny, p.nz};
  if (p.nx < 1 || p.ny < 1 || p.nz < 1) throw Error("poisson: nx, ny, nz must be >= 1");
  if (p.periodic_i && p.nx < 3) throw Error("poisson: periodic in i needs nx >= 3");
  std::vector<double> h[3];
  for (int d = 0; d < 3; ++d) h[d] = clustered_widths(n[d], p.length[d], p.cluster[d]);
  BsrMatrix a;
  a.block_rows = a.block_cols = p.nx * p.ny * p.nz;
  auto cell = [&](const index_t* c) { return c[0] + p.nx * (c[1] + p.ny * c[2]); };
  std::vector<std::pair<index_t, double>> row;
  for (index_t k = 0; k < p.nz; ++k)
    for (index_t j = 0; j < p.ny; ++j)
      for (index_t i = 0; i < p.nx; ++i) {
        const index_t c[3] = {i, j, k};
        const index_t r = cell(c);
        row.clear();
        double diag = 0.0;
        for (int d = 0; d < 3; ++d)
          for (int side : {-1, 1}) {
            index_t nb[3] = {i, j, k};
            nb[d] += side;
            if (nb[d] < 0 || nb[d] >= n[d]) {
              if (d != 0 || !p.periodic_i) continue;
              nb[0] = nb[0] < 0 ? n[0] - 1 : 0;
            }
            const double dist = 0.5 * (h[d][std::size_t(c[d])] + h[d][std::size_t(nb[d])]);
            const int e = (d + 1) % 3, f = (d + 2) % 3;
            const double coef = h[e][std::size_t(c[e])] * h[f][std::size_t(c[f])] / dist;
            const index_t col = cell(nb);
            diag += coef;
            row.emplace_back(col, p.pin && (r == 0 || col == 0) ? 0.0 : -coef);
          }
        row.emplace_back(r, p.pin && r == 0 ? 1.0 : diag);
        std::sort(row.begin(), row.end());
        for (const auto& [col, v] : row) {
          a.col_idx.push_back(col);
          a.values.push_back(v);
        }
        a.row_ptr.push_back(index_t(a.col_idx.size()));
      }
  return a;
}

}  // namespace tb
