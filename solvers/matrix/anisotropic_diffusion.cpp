#include "anisotropic_diffusion.hpp"

#include <array>
#include <cmath>
#include <map>
#include <numbers>
#include <string>
#include <vector>

#include "solvers/core/error.hpp"

namespace tb {

namespace {

using Point = std::array<double, 2>;

// Element stiffness A_ab = area grad(phi_a) . K grad(phi_b) of a linear triangle.
std::array<std::array<double, 3>, 3> triangle_stiffness(const std::array<Point, 3>& x, const double k[2][2]) {
  const double area2 = (x[1][0] - x[0][0]) * (x[2][1] - x[0][1]) - (x[2][0] - x[0][0]) * (x[1][1] - x[0][1]);
  std::array<Point, 3> grad;
  for (int a = 0; a < 3; ++a) {
    const Point& p = x[(a + 1) % 3];
    const Point& q = x[(a + 2) % 3];
    grad[a] = {(p[1] - q[1]) / area2, (q[0] - p[0]) / area2};
  }
  std::array<std::array<double, 3>, 3> s{};
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b) {
      const double kb0 = k[0][0] * grad[b][0] + k[0][1] * grad[b][1];
      const double kb1 = k[1][0] * grad[b][0] + k[1][1] * grad[b][1];
      s[a][b] = 0.5 * std::abs(area2) * (grad[a][0] * kb0 + grad[a][1] * kb1);
    }
  return s;
}

}  // namespace

CsrMatrix generate_anisotropic_diffusion(const AnisotropicDiffusionParams& p) {
  if (p.nx < 3 || p.ny < 3)
    throw Error("anisotropic diffusion: at least 3 x 3 nodes, got " + std::to_string(p.nx) + " x " +
                std::to_string(p.ny));
  if (!(p.epsilon > 0.0)) throw Error("anisotropic diffusion: epsilon must be positive");
  const double t = p.angle * std::numbers::pi / 180.0, c = std::cos(t), s = std::sin(t);
  const double k[2][2] = {{c * c + p.epsilon * s * s, (1.0 - p.epsilon) * c * s},
                          {(1.0 - p.epsilon) * c * s, s * s + p.epsilon * c * c}};
  const index_t nx = p.nx, ny = p.ny, n = nx * ny;
  const double hx = 1.0 / (nx - 1), hy = 1.0 / (ny - 1);
  auto node = [&](index_t i, index_t j) { return j * nx + i; };
  auto boundary = [&](index_t v) {
    const index_t i = v % nx, j = v / nx;
    return i == 0 || j == 0 || i == nx - 1 || j == ny - 1;
  };
  std::vector<std::map<index_t, double>> rows(static_cast<std::size_t>(n));
  for (index_t j = 0; j + 1 < ny; ++j)
    for (index_t i = 0; i + 1 < nx; ++i) {
      const index_t v00 = node(i, j), v10 = node(i + 1, j), v01 = node(i, j + 1), v11 = node(i + 1, j + 1);
      const Point x00{i * hx, j * hy}, x10{(i + 1) * hx, j * hy}, x01{i * hx, (j + 1) * hy},
          x11{(i + 1) * hx, (j + 1) * hy};
      for (const auto& [tri, pts] :
           {std::pair{std::array<index_t, 3>{v00, v10, v11}, std::array<Point, 3>{x00, x10, x11}},
            std::pair{std::array<index_t, 3>{v00, v11, v01}, std::array<Point, 3>{x00, x11, x01}}}) {
        const auto ke = triangle_stiffness(pts, k);
        for (int a = 0; a < 3; ++a)
          for (int b = 0; b < 3; ++b)
            if (!boundary(tri[a]) && !boundary(tri[b])) rows[tri[a]][tri[b]] += ke[a][b];
      }
    }
  CsrMatrix m;
  m.rows = m.cols = n;
  m.row_ptr.assign(static_cast<std::size_t>(n) + 1, 0);
  for (index_t v = 0; v < n; ++v) {
    if (boundary(v)) rows[v] = {{v, 1.0}};
    for (const auto& [col, val] : rows[v]) {
      m.col_idx.push_back(col);
      m.values.push_back(val);
    }
    m.row_ptr[v + 1] = m.nnz();
  }
  return m;
}

}  // namespace tb
