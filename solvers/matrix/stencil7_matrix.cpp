#include "solvers/matrix/stencil7_matrix.hpp"

#include <algorithm>
#include <string>

#include "solvers/core/error.hpp"
#include "solvers/matrix/matrix_market.hpp"

namespace tb::fgbilu {

namespace {

std::string shape_text(const GridShape& g) {
  return std::to_string(g.ni) + "x" + std::to_string(g.nj) + "x" + std::to_string(g.nk);
}

// The sorted columns of natural row r of the 7-point stencil on grid g.
std::vector<index_t> stencil_columns(const GridShape& g, index_t r) {
  const index_t i = r % g.ni, j = (r / g.ni) % g.nj, k = r / (g.ni * g.nj);
  const index_t sj = g.ni, sk = g.ni * g.nj;
  std::vector<index_t> c;
  if (k > 0) c.push_back(r - sk);
  if (j > 0) c.push_back(r - sj);
  if (i > 0) c.push_back(r - 1);
  c.push_back(r);
  if (i + 1 < g.ni) c.push_back(r + 1);
  if (j + 1 < g.nj) c.push_back(r + sj);
  if (k + 1 < g.nk) c.push_back(r + sk);
  return c;
}

// The first row r + 1 < rows without column r + offset, as the extent of that direction.
index_t first_missing(const BsrMatrix& a, index_t offset, index_t stride) {
  for (index_t r = 0; r + offset < a.block_rows; r += stride)
    if (a.find_block(r, r + offset) < 0) return r;
  return -1;
}

// What every refused pattern is told, inferred shape or named.
constexpr const char* structured_only =
    "(FGBILU needs a structured I x J x K block stencil without periodic wrap-around; use bilu0 for other patterns)";

void check_pattern(const BsrMatrix& a, const GridShape& g) {
  if (g.cells() != a.block_rows)
    throw Unsupported("fgbilu: a " + shape_text(g) + " grid has " + std::to_string(g.cells()) +
                      " cells but the matrix has " + std::to_string(a.block_rows) + " block rows");
  for (index_t r = 0; r < a.block_rows; ++r) {
    const std::vector<index_t> want = stencil_columns(g, r);
    const bool same = index_t(want.size()) == a.row_ptr[r + 1] - a.row_ptr[r] &&
                      std::equal(want.begin(), want.end(), a.col_idx.begin() + a.row_ptr[r]);
    if (!same)
      throw Error("fgbilu: block row " + std::to_string(r) + " is not the natural-order 7-point stencil of a " +
                  shape_text(g) + " grid " + structured_only);
  }
}

}  // namespace

GridShape infer_grid_shape(const BsrMatrix& a, const GridShape* given) {
  a.validate();
  if (a.block_rows != a.block_cols) throw Unsupported("fgbilu: the matrix is not square");
  if (a.block_size < 1 || a.block_size > max_stencil7_block_size)
    throw Unsupported("fgbilu: block size " + std::to_string(a.block_size) + " is outside 1.." +
                      std::to_string(max_stencil7_block_size));
  if (a.block_rows == 0) throw Unsupported("fgbilu: the matrix is empty");
  GridShape g;
  if (given) {
    g = *given;
    if (g.ni < 1 || g.nj < 1 || g.nk < 1) throw Unsupported("fgbilu: grid " + shape_text(g) + " needs nx, ny, nz >= 1");
  } else {
    const index_t n = a.block_rows;
    const index_t ri = first_missing(a, 1, 1);
    g.ni = ri < 0 ? n : ri + 1;
    const index_t rj = n % g.ni == 0 ? first_missing(a, g.ni, g.ni) : -1;
    g.nj = rj < 0 ? n / g.ni : rj / g.ni + 1;
    g.nk = n / std::max<index_t>(1, g.ni * g.nj);
    // Extents read off the pattern that do not multiply to the rows: no grid
    // was named, so say what the pattern is not rather than quote this guess.
    if (g.cells() != n)
      throw Error("fgbilu: the pattern of the " + std::to_string(n) +
                  " block rows is not a natural-order 7-point stencil " + structured_only);
  }
  check_pattern(a, g);
  return g;
}

Stencil7Map map_bsr_blocks(const BsrMatrix& a, const WavefrontSchedule& s) {
  const index_t cells = s.shape.cells();
  Stencil7Map map;
  map.bsr_block.assign(std::size_t(num_coefficients) * cells, -1);
  for (index_t q = 0; q < cells; ++q) {
    const index_t r = s.natural[q];
    map.bsr_block[std::size_t(delta) * cells + q] = a.find_block(r, r);
    for (int d = 0; d < num_neighbours; ++d) {
      const index_t nq = s.neighbour[std::size_t(d) * cells + q];
      if (nq >= 0) map.bsr_block[std::size_t(coefficient_of(d)) * cells + q] = a.find_block(r, s.natural[nq]);
    }
  }
  return map;
}

void update_values(const BsrMatrix& a, const Stencil7Map& map, Stencil7Matrix& m) {
  if (a.block_size != m.block_size || a.block_rows != m.cells())
    throw Error("fgbilu: the matrix size changed since set-up; call setup() again");
  const std::size_t nb = m.block_entries();
  const index_t cells = m.cells();
  for (int c = 0; c < num_coefficients; ++c)
    for (index_t q = 0; q < cells; ++q) {
      const index_t k = map.bsr_block[std::size_t(c) * cells + q];
      double* dst = m.block(c, q);
      if (k < 0)
        std::fill(dst, dst + nb, 0.0);
      else
        std::copy(a.block(k), a.block(k) + nb, dst);
    }
}

Stencil7Matrix stencil7_from_bsr(const BsrMatrix& a, const GridShape& shape, Stencil7Map* map, CellOrder order) {
  check_pattern(a, shape);
  Stencil7Matrix m;
  m.block_size = a.block_size;
  m.schedule = make_wavefront_schedule(shape, order);
  m.values.resize(std::size_t(num_coefficients) * m.cells() * m.block_entries());
  Stencil7Map local = map_bsr_blocks(a, m.schedule);
  update_values(a, local, m);
  if (map) *map = std::move(local);
  return m;
}

BsrMatrix to_bsr(const Stencil7Matrix& m) {
  const WavefrontSchedule& s = m.schedule;
  const index_t cells = m.cells();
  const std::size_t nb = m.block_entries();
  BsrMatrix a;
  a.block_size = m.block_size;
  a.block_rows = a.block_cols = cells;
  for (index_t r = 0; r < cells; ++r) {
    const index_t q = s.position[r];
    // Ascending columns: k-1, j-1, i-1, diagonal, i+1, j+1, k+1.
    const int order[num_coefficients] = {alpha, beta, gamma, delta, epsilon, zeta, eta};
    for (int c : order) {
      index_t col = r;
      if (c != delta) {
        const int d = c < delta ? c : c - 1;
        const index_t nq = s.neighbour[std::size_t(d) * cells + q];
        if (nq < 0) continue;
        col = s.natural[nq];
      }
      a.col_idx.push_back(col);
      a.values.insert(a.values.end(), m.block(c, q), m.block(c, q) + nb);
    }
    a.row_ptr.push_back(a.nnz_blocks());
  }
  return a;
}

void write_matrix_market(const std::string& path, const Stencil7Matrix& m, const std::string& comment) {
  tb::write_matrix_market(path, to_bsr(m), comment);
}

}  // namespace tb::fgbilu
