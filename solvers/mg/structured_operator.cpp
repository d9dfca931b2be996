#include "structured_operator.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include "solvers/core/error.hpp"

namespace tb::mg {

namespace {

std::string shape_text(const StructuredIndex& g) {
  return std::to_string(g.ni) + " x " + std::to_string(g.nj) + " x " + std::to_string(g.nk);
}

// The star point of a face-neighbour offset, or -1.
int star_point_of(const StencilPoints& s, int di, int dj, int dk) {
  for (int p = 0; p < s.count; ++p)
    if (s.delta[p][0] == di && s.delta[p][1] == dj && s.delta[p][2] == dk) return p;
  return -1;
}

// The star point that holds entry (row, col), or -1 for the remainder.
int point_of(const StructuredOperator& op, index_t row, index_t col) {
  const StructuredIndex& g = op.grid;
  const index_t d[3] = {g.i_of(col) - g.i_of(row), g.j_of(col) - g.j_of(row), g.k_of(col) - g.k_of(row)};
  int moved = 0;
  for (index_t v : d) {
    if (v < -1 || v > 1) return -1;
    moved += v != 0;
  }
  return moved > 1 ? -1 : star_point_of(op.points, int(d[0]), int(d[1]), int(d[2]));
}

void check_symmetry(StructuredOperator& op) {
  const StencilView v = op.view();
  const std::size_t n = std::size_t(op.grid.cells());
  const int centre = op.points.count / 2;
  bool symmetric = true;
  for (index_t c = 0; c < op.grid.cells() && symmetric; ++c)
    for (int p = 0; p < centre && symmetric; ++p) {
      const double a = op.coef[std::size_t(p) * n + std::size_t(c)];
      if (a == 0.0) continue;
      const index_t m = c + v.offset[p];
      const double b = op.coef[std::size_t(op.points.count - 1 - p) * n + std::size_t(m)];
      symmetric = std::abs(a - b) <= 1e-12 * std::max(std::abs(a), std::abs(b));
    }
  // A remainder entry's transpose must be in the remainder too.
  for (index_t r = 0; r < op.grid.cells() && symmetric && op.has_remainder(); ++r)
    for (index_t k = op.rest_ptr[r]; k < op.rest_ptr[r + 1] && symmetric; ++k) {
      const index_t c = op.rest_col[k];
      bool found = false;
      for (index_t q = op.rest_ptr[c]; q < op.rest_ptr[c + 1]; ++q)
        if (op.rest_col[q] == r)
          found = std::abs(op.rest_val[q] - op.rest_val[k]) <= 1e-12 * std::abs(op.rest_val[k]) ||
                  op.rest_val[q] == op.rest_val[k];
      symmetric = found;
    }
  op.symmetric = symmetric;
}

// StructuredOperator::row_scale: each irregular row's scale, the largest
// |diagonal| of the regular cells next to it (its star's cells, coupled or
// not) over its own (1 where it has none).
void scale_irregular_rows(StructuredOperator& op) {
  if (op.symmetric || !op.has_remainder()) {
    op.row_scale.clear();
    op.cell_scale.clear();
    return;
  }
  const std::size_t n = std::size_t(op.grid.cells());
  const StencilView v = op.view();
  const int centre = op.points.count / 2;
  const double* diag = op.coef.data() + std::size_t(centre) * n;
  op.row_scale.resize(op.irregular_rows.size());
  op.cell_scale.assign(n, 1.0);
  for (std::size_t k = 0; k < op.irregular_rows.size(); ++k) {
    const index_t r = op.irregular_rows[k];
    double largest = 0.0;
    const index_t ijk[3] = {op.grid.i_of(r), op.grid.j_of(r), op.grid.k_of(r)};
    const index_t ext[3] = {op.grid.ni, op.grid.nj, op.grid.nk};
    for (int p = 0; p < op.points.count; ++p) {
      bool inside = p != centre;
      for (int d = 0; d < 3; ++d) {
        const index_t x = ijk[d] + op.points.delta[p][d];
        inside = inside && x >= 0 && x < ext[d];
      }
      const index_t c = r + v.offset[p];
      if (inside && !op.irregular[std::size_t(c)]) largest = std::max(largest, std::abs(diag[c]));
    }
    const double own = std::abs(diag[r]);
    const double s = largest > 0.0 && own > 0.0 ? largest / own : 1.0;
    op.row_scale[k] = s;
    op.cell_scale[std::size_t(r)] = s;
  }
}

}  // namespace

int active_directions(const StructuredIndex& g) { return (g.ni > 1 ? 1 : 0) | (g.nj > 1 ? 2 : 0) | (g.nk > 1 ? 4 : 0); }

StencilPoints star_points(int active) {
  StencilPoints s;
  auto add = [&](int di, int dj, int dk) {
    s.delta[s.count][0] = static_cast<signed char>(di);
    s.delta[s.count][1] = static_cast<signed char>(dj);
    s.delta[s.count][2] = static_cast<signed char>(dk);
    ++s.count;
  };
  // k slowest, then j, then i: point p and count-1-p are opposite.
  if (active & 4) add(0, 0, -1);
  if (active & 2) add(0, -1, 0);
  if (active & 1) add(-1, 0, 0);
  add(0, 0, 0);
  if (active & 1) add(1, 0, 0);
  if (active & 2) add(0, 1, 0);
  if (active & 4) add(0, 0, 1);
  return s;
}

StencilPoints box_points(int active) {
  StencilPoints s;
  const int rk = active & 4 ? 1 : 0, rj = active & 2 ? 1 : 0, ri = active & 1 ? 1 : 0;
  for (int dk = -rk; dk <= rk; ++dk)
    for (int dj = -rj; dj <= rj; ++dj)
      for (int di = -ri; di <= ri; ++di) {
        s.delta[s.count][0] = static_cast<signed char>(di);
        s.delta[s.count][1] = static_cast<signed char>(dj);
        s.delta[s.count][2] = static_cast<signed char>(dk);
        ++s.count;
      }
  return s;
}

void set_offsets(StencilView& view, const StencilPoints& points) {
  view.points = points.count;
  for (int p = 0; p < points.count; ++p)
    view.offset[p] = points.delta[p][0] * view.grid.stride(0) + points.delta[p][1] * view.grid.stride(1) +
                     points.delta[p][2] * view.grid.stride(2);
}

StructuredIndex infer_grid(const BsrMatrix& a, const StructuredIndex* given_grid) {
  a.validate();
  if (a.block_size != 1)
    throw Error("mg: needs a scalar matrix (block size 1); given block size " + std::to_string(a.block_size));
  if (a.block_rows != a.block_cols) throw Error("mg: the matrix is not square");
  const index_t n = a.block_rows;
  if (n == 0) throw Error("mg: the matrix is empty");
  if (given_grid) {
    const StructuredIndex& given = *given_grid;
    if (given.ni < 1 || given.nj < 1 || given.nk < 1)
      throw Error("mg: grid " + shape_text(given) + ": give nx, ny and nz together, each >= 1 (or none)");
    if (long(given.ni) * given.nj * given.nk != n)
      throw Error("mg: grid " + shape_text(given) + " (nx, ny, nz) has " +
                  std::to_string(long(given.ni) * given.nj * given.nk) + " cells; the matrix has " + std::to_string(n) +
                  " rows");
    return given;
  }
  std::map<index_t, long> count;
  for (index_t r = 0; r < n; ++r)
    for (index_t k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k)
      if (a.col_idx[k] > r) ++count[a.col_idx[k] - r];
  const long shared = std::max<long>(1, n / 4);
  StructuredIndex g;
  auto first_offset = [&](index_t above, index_t multiple_of) -> index_t {
    for (const auto& [offset, c] : count)
      if (offset > above && offset % multiple_of == 0 && c >= shared) return offset;
    return 0;
  };
  const index_t ni = first_offset(1, 1);
  if (ni == 0) {
    if (count[1] < shared)
      throw Error("mg: the rows share no structured-grid offsets (1, nx, nx*ny); give the grid as mg(nx=,ny=,nz=)");
    g.ni = n;
    return g;
  }
  const index_t nij = first_offset(ni, ni);
  g.ni = ni;
  g.nj = nij > 0 ? nij / ni : n / ni;
  g.nk = nij > 0 ? n / nij : 1;
  if (long(g.ni) * g.nj * g.nk != n)
    throw Error("mg: the offsets shared by the rows suggest a grid " + shape_text(g) + ", which does not hold the " +
                std::to_string(n) + " rows; give the grid as mg(nx=,ny=,nz=)");
  return g;
}

StencilView StructuredOperator::view(bool with_remainder) const {
  StencilView v;
  v.grid = grid;
  v.box = false;
  set_offsets(v, points);
  v.coef = coef.data();
  if (with_remainder && has_remainder()) {
    v.rest_ptr = rest_ptr.data();
    v.rest_col = rest_col.data();
    v.rest_val = rest_val.data();
    v.irregular = irregular.data();
  }
  return v;
}

StructuredOperator structured_operator(const BsrMatrix& a, const StructuredIndex& grid) {
  StructuredOperator op;
  op.grid = grid;
  op.points = star_points(active_directions(grid));
  const index_t n = grid.cells();
  if (a.block_rows != n)
    throw Error("mg: the matrix has " + std::to_string(a.block_rows) + " rows, the grid " + shape_text(grid) + " " +
                std::to_string(n) + " cells");
  op.coef.assign(std::size_t(op.points.count) * std::size_t(n), 0.0);
  op.place.resize(std::size_t(a.nnz_blocks()));
  op.irregular.assign(std::size_t(n), 0);
  std::vector<index_t> rest_count(std::size_t(n), 0);
  long off_diagonal = 0, outside = 0;
  for (index_t r = 0; r < n; ++r)
    for (index_t k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) {
      const index_t c = a.col_idx[k];
      const int p = point_of(op, r, c);
      off_diagonal += c != r;
      if (p >= 0) {
        op.place[std::size_t(k)] = index_t(p) * n + r;
      } else {
        ++outside;
        ++rest_count[std::size_t(r)];
      }
    }
  if (2 * outside > off_diagonal)
    throw Error("mg: " + std::to_string(outside) + " of the " + std::to_string(off_diagonal) +
                " off-diagonal entries lie outside the 7-point stencil of the grid " + shape_text(grid) +
                ": not a structured system (give the grid as mg(nx=,ny=,nz=) if it is one)");
  if (outside > 0) {
    op.rest_ptr.assign(std::size_t(n) + 1, 0);
    for (index_t r = 0; r < n; ++r)
      op.rest_ptr[std::size_t(r) + 1] = op.rest_ptr[std::size_t(r)] + rest_count[std::size_t(r)];
    op.rest_col.resize(std::size_t(outside));
    op.rest_val.assign(std::size_t(outside), 0.0);
    for (index_t r = 0; r < n; ++r) {
      index_t next = op.rest_ptr[std::size_t(r)];
      for (index_t k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k)
        if (point_of(op, r, a.col_idx[k]) < 0) {
          op.rest_col[std::size_t(next)] = a.col_idx[k];
          op.place[std::size_t(k)] = -1 - next;
          ++next;
        }
      if (rest_count[std::size_t(r)] > 0) {
        op.irregular[std::size_t(r)] = 1;
        op.irregular_rows.push_back(r);
      }
    }
  }
  update_values(a, op);
  return op;
}

void update_values(const BsrMatrix& a, StructuredOperator& op) {
  if (a.block_size != 1 || a.nnz_blocks() != index_t(op.place.size()))
    throw Error("mg: the matrix pattern changed since set-up; call setup() again");
  for (std::size_t k = 0; k < op.place.size(); ++k) {
    const index_t at = op.place[k];
    if (at >= 0)
      op.coef[std::size_t(at)] = a.values[k];
    else
      op.rest_val[std::size_t(-1 - at)] = a.values[k];
  }
  check_symmetry(op);
  scale_irregular_rows(op);
}

}  // namespace tb::mg
