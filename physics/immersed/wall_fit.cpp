#include "physics/immersed/wall_fit.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <string>

#include "solvers/core/error.hpp"

namespace tb::immersed {

namespace {

using Matrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

double dot3(const Vec3& a, const Vec3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

// n and two unit vectors completing an orthonormal frame.
void frame_of(const Vec3& n, Vec3 (&e)[3]) {
  e[0] = n;
  const int least = std::abs(n[0]) <= std::abs(n[1]) && std::abs(n[0]) <= std::abs(n[2]) ? 0
                    : std::abs(n[1]) <= std::abs(n[2])                                   ? 1
                                                                                         : 2;
  Vec3 a{};
  a[least] = 1.0;
  const double p = dot3(a, n);
  Vec3 t{a[0] - p * n[0], a[1] - p * n[1], a[2] - p * n[2]};
  const double len = std::sqrt(dot3(t, t));
  for (double& v : t) v /= len;
  e[1] = t;
  e[2] = {n[1] * t[2] - n[2] * t[1], n[2] * t[0] - n[0] * t[2], n[0] * t[1] - n[1] * t[0]};
}

// The cell containing x, each index clamped to the grid.
std::array<index_t, 3> cell_at(const CartesianGrid& grid, const Vec3& x) {
  std::array<index_t, 3> c{};
  for (int d = 0; d < 3; ++d) {
    const std::vector<double>& nodes = grid.axis(d).nodes;
    const auto it = std::upper_bound(nodes.begin(), nodes.end(), x[d]);
    c[d] = std::clamp<index_t>(index_t(it - nodes.begin()) - 1, 0, grid.cells(d) - 1);
  }
  return c;
}

}  // namespace

double WallStencil::apply(std::span<const double> field, double boundary_value) const {
  double v = boundary_weight * boundary_value;
  for (std::size_t k = 0; k < cells.size(); ++k) v += weights[k] * field[std::size_t(cells[k])];
  return v;
}

void FlatStencils::add(std::span<const index_t> indices, std::span<const double> w, double boundary_weight) {
  at.insert(at.end(), indices.begin(), indices.end());
  weights.insert(weights.end(), w.begin(), w.begin() + std::ptrdiff_t(indices.size()));
  boundary_weights.push_back(boundary_weight);
  offsets.push_back(index_t(at.size()));
}

WallFit::Coefficients WallFit::basis(const Vec3& x) const {
  const Vec3 d{(x[0] - b_[0]) / h_, (x[1] - b_[1]) / h_, (x[2] - b_[2]) / h_};
  const double xi = dot3(d, frame_[0]), eta = dot3(d, frame_[1]), zeta = dot3(d, frame_[2]);
  return {1.0, xi, eta, zeta, xi * xi, eta * eta, zeta * zeta, xi * eta, eta * zeta, zeta * xi};
}

WallFit::WallFit(const CartesianGrid& grid, std::span<const CellType> types, const Vec3& wall_point, const Vec3& normal,
                 WallCondition condition, double reach)
    : b_(wall_point), condition_(condition) {
  frame_of(normal, frame_);
  h_ = grid.min_width(cell_at(grid, b_));
  const int fixed = condition == WallCondition::dirichlet ? 0 : 1;
  // Widen the reach (a wall in a corner of the fluid, a coarse cell) until the points determine the quadratic.
  for (double r = reach; r <= reach + 1.5; r += 0.5) {
    cells_.clear();
    std::array<index_t, 3> lo, hi;
    for (int d = 0; d < 3; ++d) {
      Vec3 a = b_, z = b_;
      a[d] -= r * h_, z[d] += r * h_;
      lo[d] = cell_at(grid, a)[d], hi[d] = cell_at(grid, z)[d];
    }
    for (index_t k = lo[2]; k <= hi[2]; ++k)
      for (index_t j = lo[1]; j <= hi[1]; ++j)
        for (index_t i = lo[0]; i <= hi[0]; ++i) {
          const index_t cell = grid.index(i, j, k);
          if (types[std::size_t(cell)] != CellType::fluid) continue;
          const Vec3 x = grid.centre({i, j, k});
          const Vec3 d{x[0] - b_[0], x[1] - b_[1], x[2] - b_[2]};
          if (dot3(d, d) <= r * r * h_ * h_) cells_.push_back(cell);
        }
    const Eigen::Index m = Eigen::Index(cells_.size());
    if (m < 12) continue;
    Matrix a(m, 9), w = Matrix::Zero(m, m);
    Eigen::VectorXd q_fixed(m);
    for (Eigen::Index k = 0; k < m; ++k) {
      const index_t cell = cells_[std::size_t(k)];
      const Coefficients q = basis(grid.centre(grid.ijk(cell)));
      double r2 = 0.0;
      for (int d = 1; d < 4; ++d) r2 += q[std::size_t(d)] * q[std::size_t(d)];
      const double weight = 1.0 / (1.0 + r2);
      for (int j = 0, col = 0; j < 10; ++j)
        if (j != fixed) a(k, col++) = weight * q[std::size_t(j)];
      w(k, k) = weight;
      q_fixed[k] = q[std::size_t(fixed)];
    }
    const Eigen::ColPivHouseholderQR<Matrix> qr(a);
    if (qr.rank() < 9) continue;
    // Reciprocal condition estimate: the smallest over the largest pivot of R.
    const auto diag = qr.matrixR().diagonal().cwiseAbs();
    if (diag.minCoeff() < 1e-6 * diag.maxCoeff()) continue;
    const Matrix map = qr.solve(w);  // 9 x m: the free coefficients from the values
    map_.assign(map.data(), map.data() + map.size());
    const Eigen::VectorXd response = -(map * q_fixed);
    for (int j = 0; j < 9; ++j) fixed_response_[std::size_t(j)] = response[j];
    return;
  }
  throw Error("immersed wall point (" + std::to_string(b_[0]) + ", " + std::to_string(b_[1]) + ", " +
              std::to_string(b_[2]) + "): too few fluid cells around it for a quadratic fit (" +
              std::to_string(cells_.size()) + "); refine the grid near the body");
}

WallStencil WallFit::functional(const Coefficients& ell) const {
  const int fixed = condition_ == WallCondition::dirichlet ? 0 : 1;
  std::array<double, 9> free{};
  for (int j = 0, col = 0; j < 10; ++j)
    if (j != fixed) free[std::size_t(col++)] = ell[std::size_t(j)];
  WallStencil s;
  s.cells = cells_;
  s.weights.assign(cells_.size(), 0.0);
  double fixed_weight = ell[std::size_t(fixed)];
  for (std::size_t j = 0; j < 9; ++j) {
    if (free[j] == 0.0) continue;
    for (std::size_t k = 0; k < cells_.size(); ++k) s.weights[k] += free[j] * map_[j * cells_.size() + k];
    fixed_weight += free[j] * fixed_response_[j];
  }
  // The fixed coefficient is phi_B, or g h for Neumann.
  s.boundary_weight = condition_ == WallCondition::dirichlet ? fixed_weight : fixed_weight * h_;
  return s;
}

WallStencil WallFit::value_at(const Vec3& x) const { return functional(basis(x)); }

WallStencil WallFit::normal_derivative() const {
  Coefficients ell{};
  ell[1] = 1.0 / h_;
  return functional(ell);
}

}  // namespace tb::immersed
