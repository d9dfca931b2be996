#include "dia_matrix.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <string>

#include "solvers/core/error.hpp"
#include "solvers/matrix/stencil7_matrix.hpp"

namespace tb::banded {

index_t DiaMatrix::band() const {
  index_t b = 0;
  for (index_t o : offsets) b = std::max(b, std::abs(o));
  return std::max(b, rest_band);
}

namespace {

void check_scalar(const BsrMatrix& a) {
  if (a.block_size != 1)
    throw Unsupported("DIA conversion: the BSR matrix has block size " + std::to_string(a.block_size) +
                      "; the banded solvers take scalar matrices (block size 1)");
  if (a.block_rows != a.block_cols)
    throw Unsupported("DIA conversion: the matrix is " + std::to_string(a.block_rows) + " x " +
                      std::to_string(a.block_cols) + ", not square");
}

void check_range(index_t n, index_t first_row, index_t rows, const char* who) {
  if (first_row < 0 || rows < 0 || first_row > n - rows)
    throw Error(std::string(who) + ": rows [" + std::to_string(first_row) + ", " + std::to_string(first_row + rows) +
                ") are not inside the " + std::to_string(n) + " rows of the matrix");
}

index_t diagonal_of(const std::vector<index_t>& offsets, index_t offset) {
  return index_t(std::lower_bound(offsets.begin(), offsets.end(), offset) - offsets.begin());
}

void check_min_fill(double min_fill) {
  if (!(min_fill >= 0.0 && min_fill <= 1.0))
    throw Error("DIA conversion: min_fill = " + std::to_string(min_fill) + ", expected a fraction in [0, 1]");
}

// Rows [first_row, first_row + rows) of the global matrix, which a holds from
// its row 0 = global row a_first on.
DiaMatrix cut(const BsrMatrix& a, index_t a_first, index_t first_row, index_t rows, const DiagonalChoice& choice,
              DiaMap* map) {
  DiaMatrix m;
  m.n = a.block_cols;
  m.first_row = first_row;
  m.rows = rows;
  m.offsets = choice.offsets;
  m.rest_band = choice.rest_band;
  const std::size_t nd = m.offsets.size();
  DiaMap local;
  DiaMap& mp = map ? *map : local;
  mp.bsr_entry.assign(std::size_t(rows) * nd, -1);
  mp.rest_entry.clear();
  if (choice.sparse) m.rest_ptr.assign(std::size_t(rows) + 1, 0);
  for (index_t i = 0; i < rows; ++i) {
    const index_t g = first_row + i, held = g - a_first;
    for (index_t k = a.row_ptr[held]; k < a.row_ptr[held + 1]; ++k) {
      const index_t offset = a.col_idx[k] - g, d = diagonal_of(m.offsets, offset);
      if (d < index_t(nd) && m.offsets[std::size_t(d)] == offset) {
        mp.bsr_entry[std::size_t(i) * nd + std::size_t(d)] = k;
      } else if (choice.sparse) {
        m.rest_offsets.push_back(offset);
        mp.rest_entry.push_back(k);
      } else {
        throw Error("DIA conversion: row " + std::to_string(g) + " has an entry on diagonal " + std::to_string(offset) +
                    ", which the whole matrix's diagonals do not include");
      }
    }
    if (choice.sparse) m.rest_ptr[std::size_t(i) + 1] = index_t(m.rest_offsets.size());
  }
  m.values.assign(std::size_t(rows) * nd, 0.0);
  m.rest_values.assign(m.rest_offsets.size(), 0.0);
  update_values(a, mp, m);
  return m;
}

}  // namespace

DiagonalCounts count_diagonals(const BsrMatrix& rows, index_t first_row) {
  DiagonalCounts count;
  for (index_t i = 0; i < rows.block_rows; ++i)
    for (index_t k = rows.row_ptr[i]; k < rows.row_ptr[i + 1]; ++k) ++count[rows.col_idx[k] - (first_row + i)];
  return count;
}

DiagonalChoice choose_diagonals(const DiagonalCounts& whole, index_t n, double min_fill) {
  check_min_fill(min_fill);
  DiagonalChoice c;
  for (const auto& [offset, entries] : whole) {
    if (offset == 0 || double(entries) >= min_fill * double(n)) {
      c.offsets.push_back(offset);
    } else {
      c.sparse = true;
      c.rest_band = std::max(c.rest_band, std::abs(offset));
    }
  }
  return c;
}

DiaMatrix dia_from_bsr(const BsrMatrix& a, index_t first_row, index_t rows, DiaMap* map, double min_fill) {
  a.validate();
  check_scalar(a);
  check_range(a.block_rows, first_row, rows, "DIA conversion");
  // Offsets of the whole matrix, not of the slab: every rank then stores the
  // same diagonals and the same band, which the ghost zones are sized by.
  return cut(a, 0, first_row, rows, choose_diagonals(count_diagonals(a, 0), a.block_rows, min_fill), map);
}

DiaMatrix dia_from_rows(const BsrMatrix& rows, index_t first_row, const DiagonalChoice& choice, DiaMap* map) {
  rows.validate();
  if (rows.block_size != 1)
    throw Error("DIA conversion: the BSR rows have block size " + std::to_string(rows.block_size) +
                "; the banded solvers take scalar matrices (block size 1)");
  check_range(rows.block_cols, first_row, rows.block_rows, "DIA conversion of a block of rows");
  return cut(rows, first_row, first_row, rows.block_rows, choice, map);
}

void update_values(const BsrMatrix& a, const DiaMap& map, DiaMatrix& m) { update_values(a.values, map, m); }

void update_values(std::span<const double> values, const DiaMap& map, DiaMatrix& m) {
  if (map.bsr_entry.size() != m.values.size() || map.rest_entry.size() != m.rest_values.size())
    throw Error("DIA update: the map holds " + std::to_string(map.bsr_entry.size() + map.rest_entry.size()) +
                " entries, the matrix " + std::to_string(m.values.size() + m.rest_values.size()) +
                "; update needs the matrix setup was given");
  for (std::size_t e = 0; e < m.values.size(); ++e) {
    const index_t k = map.bsr_entry[e];
    m.values[e] = k < 0 ? 0.0 : values[std::size_t(k)];
  }
  for (std::size_t e = 0; e < m.rest_values.size(); ++e) m.rest_values[e] = values[std::size_t(map.rest_entry[e])];
}

DiaMatrix transposed_dia_from_bsr(const BsrMatrix& a, index_t first_row, index_t rows, DiaMap& map, double min_fill) {
  check_scalar(a);
  // A^T in CSR by a counting sort on the columns; from[k] is the entry of A
  // that entry k of A^T holds.
  const index_t n = a.block_rows;
  BsrMatrix at;
  at.block_size = 1;
  at.block_rows = at.block_cols = n;
  at.row_ptr.assign(std::size_t(n) + 1, 0);
  for (index_t j : a.col_idx) ++at.row_ptr[std::size_t(j) + 1];
  for (index_t j = 0; j < n; ++j) at.row_ptr[std::size_t(j) + 1] += at.row_ptr[std::size_t(j)];
  at.col_idx.resize(a.col_idx.size());
  at.values.resize(a.values.size());
  std::vector<index_t> from(a.col_idx.size());
  std::vector<index_t> next(at.row_ptr.begin(), at.row_ptr.end() - 1);
  for (index_t i = 0; i < n; ++i)
    for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      const index_t dst = next[std::size_t(a.col_idx[k])]++;
      at.col_idx[std::size_t(dst)] = i;
      at.values[std::size_t(dst)] = a.values[std::size_t(k)];
      from[std::size_t(dst)] = k;
    }
  DiaMatrix m = dia_from_bsr(at, first_row, rows, &map, min_fill);
  for (index_t& k : map.bsr_entry)
    if (k >= 0) k = from[std::size_t(k)];
  for (index_t& k : map.rest_entry) k = from[std::size_t(k)];
  return m;
}

DiaMatrix dia_from_stencil7(const fgbilu::Stencil7Matrix& s) {
  if (s.block_size != 1)
    throw Error("DIA conversion: the 7-point matrix has block size " + std::to_string(s.block_size) +
                "; the banded solvers take scalar matrices (block size 1)");
  const fgbilu::WavefrontSchedule& w = s.schedule;
  const index_t cells = s.cells();
  const fgbilu::GridShape g = w.shape;
  // Column offset of each coefficient alpha..eta (seed 000, Fig. 2).
  const index_t step[fgbilu::num_coefficients] = {-g.ni * g.nj, -g.ni, -1, 0, 1, g.ni, g.ni * g.nj};
  DiaMatrix m;
  m.n = m.rows = cells;
  m.offsets.assign(step, step + fgbilu::num_coefficients);
  std::sort(m.offsets.begin(), m.offsets.end());
  m.offsets.erase(std::unique(m.offsets.begin(), m.offsets.end()), m.offsets.end());
  const std::size_t nd = m.offsets.size();
  m.values.assign(std::size_t(cells) * nd, 0.0);
  for (index_t q = 0; q < cells; ++q) {
    const index_t row = w.natural[q];
    for (int c = 0; c < fgbilu::num_coefficients; ++c) {
      const bool on_grid =
          c == fgbilu::delta || w.neighbour[std::size_t(c < fgbilu::delta ? c : c - 1) * cells + q] >= 0;
      if (on_grid) m.values[std::size_t(row) * nd + diagonal_of(m.offsets, step[c])] += s.block(c, q)[0];
    }
  }
  return m;
}

DiaMatrix slice_rows(const DiaMatrix& a, index_t first_row, index_t rows) {
  check_range(a.rows, first_row - a.first_row, rows, "DIA slice");
  DiaMatrix m;
  m.n = a.n;
  m.first_row = first_row;
  m.rows = rows;
  m.offsets = a.offsets;
  m.rest_band = a.rest_band;
  const std::size_t nd = a.offsets.size();
  const std::size_t skip = std::size_t(first_row - a.first_row);
  const auto from = a.values.begin() + std::ptrdiff_t(skip * nd);
  m.values.assign(from, from + std::ptrdiff_t(std::size_t(rows) * nd));
  if (!a.rest_ptr.empty()) {
    const index_t begin = a.rest_ptr[skip], end = a.rest_ptr[skip + std::size_t(rows)];
    m.rest_ptr.resize(std::size_t(rows) + 1);
    for (std::size_t i = 0; i <= std::size_t(rows); ++i) m.rest_ptr[i] = a.rest_ptr[skip + i] - begin;
    m.rest_offsets.assign(a.rest_offsets.begin() + begin, a.rest_offsets.begin() + end);
    m.rest_values.assign(a.rest_values.begin() + begin, a.rest_values.begin() + end);
  }
  return m;
}

void multiply_whole(const DiaMatrix& a, const double* x, double* y) {
  if (a.first_row != 0 || a.rows != a.n)
    throw Error("multiply_whole: the DIA matrix holds rows [" + std::to_string(a.first_row) + ", " +
                std::to_string(a.first_row + a.rows) + ") of " + std::to_string(a.n) + ", not all of them");
  const index_t nd = a.ndiag();
  for (index_t i = 0; i < a.n; ++i) {
    double s = 0.0;
    for (index_t d = 0; d < nd; ++d) {
      const index_t j = i + a.offsets[d];
      if (j >= 0 && j < a.n) s += a.values[std::size_t(i) * nd + d] * x[j];
    }
    if (!a.rest_ptr.empty())
      for (index_t k = a.rest_ptr[std::size_t(i)]; k < a.rest_ptr[std::size_t(i) + 1]; ++k)
        s += a.rest_values[std::size_t(k)] * x[i + a.rest_offsets[std::size_t(k)]];
    y[i] = s;
  }
}

}  // namespace tb::banded
