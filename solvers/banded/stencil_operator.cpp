#include "stencil_operator.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>

#include "mesh/graph/structured_index.hpp"
#include "solvers/core/error.hpp"

namespace tb::banded {

namespace {

struct Neighbour {
  index_t column;
  double value;
};

// The stencil row i as (column, value) pairs in ascending column order.
int stencil_row(const StencilCoefficients& c, index_t i, Neighbour* out) {
  const StructuredIndex g{c.nx, c.ny, c.nz};
  const index_t x = g.i_of(i), y = g.j_of(i), z = g.k_of(i);
  const index_t sy = g.stride(1), sz = g.stride(2);
  int n = 0;
  if (z > 0) out[n++] = {i - sz, -c.az};
  if (y > 0) out[n++] = {i - sy, -c.ay};
  if (x > 0) out[n++] = {i - 1, -c.ax};
  out[n++] = {i, stencil_diagonal(c, i)};
  if (x + 1 < c.nx) out[n++] = {i + 1, -c.ax};
  if (y + 1 < c.ny) out[n++] = {i + sy, -c.ay};
  if (z + 1 < c.nz) out[n++] = {i + sz, -c.az};
  return n;
}

double entry(const BsrMatrix& a, index_t i, index_t j) {
  const index_t k = a.find_block(i, j);
  return k < 0 ? 0.0 : a.values[std::size_t(k)];
}

// -A(i, i + step) at the first row that has that neighbour, or 0 for a grid
// direction of one cell (its walls then fold into the shift).
double coupling(const BsrMatrix& a, index_t n_dir, index_t step) {
  if (n_dir <= 1) return 0.0;
  return -entry(a, 0, step);
}

// sum_d a_d * (in-grid neighbours in d) and sum_d a_d * (walls in d) of row i.
void face_sums(const StencilCoefficients& c, index_t i, double& inside, double& walls) {
  StencilCoefficients probe = c;
  probe.shift = 0.0;
  probe.wall = 0.0;
  inside = stencil_diagonal(probe, i);
  probe.wall = 1.0;
  walls = stencil_diagonal(probe, i) - inside;
}

}  // namespace

StencilCoefficients stencil_from_bsr(const BsrMatrix& a, index_t nx, index_t ny, index_t nz) {
  if (nx < 1 || ny < 1 || nz < 1)
    throw Unsupported("stencil operator: grid " + std::to_string(nx) + " x " + std::to_string(ny) + " x " +
                      std::to_string(nz) + " must have at least one cell in each direction");
  if (a.block_size != 1)
    throw Unsupported("stencil operator: the matrix has block size " + std::to_string(a.block_size) +
                      "; a stencil operator is scalar (block size 1)");
  const long cells = long(nx) * ny * nz;
  if (a.block_rows != cells || a.block_cols != cells)
    throw Unsupported("stencil operator: the matrix is " + std::to_string(a.block_rows) + " x " +
                      std::to_string(a.block_cols) + ", the grid " + std::to_string(nx) + " x " + std::to_string(ny) +
                      " x " + std::to_string(nz) + " has " + std::to_string(cells) + " cells");
  a.validate();
  StencilCoefficients c{nx, ny, nz, 0.0, 0.0, 0.0, 0.0, 1.0};
  c.ax = coupling(a, nx, 1);
  c.ay = coupling(a, ny, nx);
  c.az = coupling(a, nz, nx * ny);
  // The diagonal is shift + inside + wall * walls: row 0 (a corner) and the
  // centre cell (fewest walls) give two equations for shift and wall.
  const index_t centre = StructuredIndex{nx, ny, nz}.natural(nx / 2, ny / 2, nz / 2);
  double in0, w0, inc, wc;
  face_sums(c, 0, in0, w0);
  face_sums(c, centre, inc, wc);
  const double d0 = entry(a, 0, 0) - in0, dc = entry(a, centre, centre) - inc;
  if (w0 != wc) c.wall = (d0 - dc) / (w0 - wc);
  c.shift = d0 - c.wall * w0;

  double scale = 0.0;
  for (double v : a.values) scale = std::max(scale, std::abs(v));
  const double tol = 1e-12 * scale;
  Neighbour row[7];
  for (index_t i = 0; i < a.block_rows; ++i) {
    const int n = stencil_row(c, i, row);
    auto fail = [&](index_t j, double expected, double got) {
      std::ostringstream o;
      o.precision(17);
      o << "stencil operator: row " << i << " differs from the constant-coefficient 7-point operator on the " << nx
        << " x " << ny << " x " << nz << " grid (ax=" << c.ax << ", ay=" << c.ay << ", az=" << c.az
        << ", shift=" << c.shift << ", wall=" << c.wall << "): entry (" << i << ", " << j << ") is " << got
        << ", expected " << expected;
      throw Error(o.str());
    };
    for (int e = 0; e < n; ++e) {
      const double got = entry(a, i, row[e].column);
      if (std::abs(got - row[e].value) > tol) fail(row[e].column, row[e].value, got);
    }
    for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      const index_t j = a.col_idx[k];
      const bool in_stencil = std::any_of(row, row + n, [&](const Neighbour& nb) { return nb.column == j; });
      if (!in_stencil && std::abs(a.values[std::size_t(k)]) > tol) fail(j, 0.0, a.values[std::size_t(k)]);
    }
  }
  return c;
}

BsrMatrix stencil_to_bsr(const StencilCoefficients& c) {
  BsrMatrix a;
  a.block_rows = a.block_cols = c.cells();
  a.row_ptr.assign(std::size_t(c.cells()) + 1, 0);
  Neighbour row[7];
  for (index_t i = 0; i < c.cells(); ++i) {
    const int n = stencil_row(c, i, row);
    for (int e = 0; e < n; ++e) {
      a.col_idx.push_back(row[e].column);
      a.values.push_back(row[e].value);
    }
    a.row_ptr[std::size_t(i) + 1] = index_t(a.col_idx.size());
  }
  return a;
}

}  // namespace tb::banded
