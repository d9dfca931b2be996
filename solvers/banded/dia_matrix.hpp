#pragma once
// Seed 004 §III-B: the banded matrix in DIA storage with each row's diagonals
// contiguous, values[i * ndiag + d] = A(first_row + i, first_row + i + offsets[d]).
// A DiaMatrix holds the rows [first_row, first_row + rows) of a global n x n
// matrix: the whole matrix on one rank, one slab of the row decomposition of
// §III-A on several. Entries whose column falls outside [0, n) are stored as 0.
#include <map>
#include <span>
#include <vector>

#include "solvers/matrix/bsr.hpp"

namespace tb::fgbilu {
struct Stencil7Matrix;
}

namespace tb::banded {

struct DiaMatrix {
  index_t n = 0;                 // global rows and columns
  index_t first_row = 0;         // global index of local row 0
  index_t rows = 0;              // local rows
  std::vector<index_t> offsets;  // column - row of each stored diagonal, ascending
  std::vector<double> values;    // rows * ndiag, row-contiguous
  // The entries of diagonals too sparse to store whole (dia_from_bsr's
  // min_fill): per local row, CSR with column offsets instead of columns, so
  // they read the same extended vectors. Empty rest_offsets: pure DIA.
  std::vector<index_t> rest_ptr;      // rows + 1, or empty
  std::vector<index_t> rest_offsets;  // column - row
  std::vector<double> rest_values;
  // max |offset| of the whole matrix's sparse diagonals, not only this slab's:
  // every rank's ghost zones must have the same size.
  index_t rest_band = 0;

  index_t ndiag() const { return index_t(offsets.size()); }
  // max |offset| over both parts: the ghost zone on each side of an extended vector.
  index_t band() const;
};

// Raw pointers of a DiaMatrix on whichever backend holds them: what kernels read.
struct DiaView {
  index_t rows = 0;
  index_t ndiag = 0;
  index_t band = 0;
  const index_t* offsets = nullptr;
  const double* values = nullptr;
  const index_t* rest_ptr = nullptr;  // nullptr: no sparse remainder
  const index_t* rest_offsets = nullptr;
  const double* rest_values = nullptr;
};

inline DiaView view(const DiaMatrix& a) {
  const bool rest = !a.rest_offsets.empty();
  return {a.rows,
          a.ndiag(),
          a.band(),
          a.offsets.data(),
          a.values.data(),
          rest ? a.rest_ptr.data() : nullptr,
          rest ? a.rest_offsets.data() : nullptr,
          rest ? a.rest_values.data() : nullptr};
}

// Where each DIA value comes from in the BSR matrix it was made from, found once
// per pattern so that update_values copies numbers without searching.
struct DiaMap {
  std::vector<index_t> bsr_entry;   // [i * ndiag + d]: position in a.values, or -1 (stored 0)
  std::vector<index_t> rest_entry;  // per remainder entry: position in a.values
};

// Rows [first_row, first_row + rows) of a scalar BSR matrix (block size 1;
// tb::Error names the block size otherwise, or the row range when it is not
// inside the matrix). The diagonals are chosen on the whole matrix, so every
// slab of one matrix has the same offsets and band. A diagonal with fewer than
// min_fill * n entries (other than the main one) goes to the sparse remainder
// instead: an immersed boundary's interpolation rows add dozens of diagonals
// holding a few entries each (docs/banded.md), which whole DIA storage would
// multiply by every row. min_fill = 0 keeps every diagonal (the paper's format).
DiaMatrix dia_from_bsr(const BsrMatrix& a, index_t first_row, index_t rows, DiaMap* map = nullptr,
                       double min_fill = 0.0);
inline DiaMatrix dia_from_bsr(const BsrMatrix& a, DiaMap* map = nullptr, double min_fill = 0.0) {
  return dia_from_bsr(a, 0, a.block_rows, map, min_fill);
}
// Numeric only: the values of a matrix with the pattern map was made from.
void update_values(const BsrMatrix& a, const DiaMap& map, DiaMatrix& m);
// The same from the values the map's positions index (a.values, or those
// followed by the entries other ranks sent: owned_rows.hpp).
void update_values(std::span<const double> values, const DiaMap& map, DiaMatrix& m);

// dia_from_bsr in its three steps, for rows that no single process holds all of:
// the entries per diagonal (column - row) of a block of rows whose local row i
// is global row first_row + i,
using DiagonalCounts = std::map<index_t, index_t>;
DiagonalCounts count_diagonals(const BsrMatrix& rows, index_t first_row);
// the diagonals stored whole given the whole matrix's counts (the main one
// always; others with at least min_fill * n entries) and the band of the rest,
struct DiagonalChoice {
  std::vector<index_t> offsets;  // ascending
  index_t rest_band = 0;
  bool sparse = false;  // some entries go to the remainder
};
DiagonalChoice choose_diagonals(const DiagonalCounts& whole, index_t n, double min_fill);
// and the DIA rows of a block of scalar rows (block_rows local, block_cols = n
// global columns) whose row 0 is global row first_row.
DiaMatrix dia_from_rows(const BsrMatrix& rows, index_t first_row, const DiagonalChoice& choice, DiaMap* map = nullptr);

// Rows [first_row, first_row + rows) of A^T, as dia_from_bsr would cut them
// from the transposed matrix; map refers to A's own values, so
// update_values(a, map, m) refreshes them from A without transposing again.
// The one-reduction GBCG's (A K^{-1})^T r0hat reads it (gbcg.hpp).
DiaMatrix transposed_dia_from_bsr(const BsrMatrix& a, index_t first_row, index_t rows, DiaMap& map,
                                  double min_fill = 0.0);

// The scalar (block size 1) 7-point matrix of seed 000's format: offsets
// -I*J, -I, -1, 0, 1, I, I*J (those a degenerate grid direction makes
// duplicate are merged away).
DiaMatrix dia_from_stencil7(const fgbilu::Stencil7Matrix& m);

// Rows [first_row, first_row + rows) of a (whole or sliced) DiaMatrix; the
// range must lie inside the rows a holds.
DiaMatrix slice_rows(const DiaMatrix& a, index_t first_row, index_t rows);

// y = A x for a DiaMatrix holding all n rows, on the host, without extended
// vectors: the independent check the tests compare the kernels against.
void multiply_whole(const DiaMatrix& a, const double* x, double* y);

}  // namespace tb::banded
