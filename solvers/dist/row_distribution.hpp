#pragma once
// A distributed BSR system (docs/distributed.md): rank r owns the contiguous block rows
// [first(r), first(r) + owned(r)) of A, x and b, in the global numbering (a
// partitioned mesh numbers each rank's cells contiguously, as PETSc does). A
// rank holds only its rows, with global block columns; RankBlocks splits them
// into the block that multiplies owned entries and the one that multiplies
// ghosts, the other ranks' entries. No MPI here: pure index work, once per pattern.
#include <span>
#include <vector>

#include "solvers/matrix/bsr.hpp"

namespace tb::dist {

struct RowDistribution {
  std::vector<index_t> begin{0, 0};  // parts + 1, non-decreasing, begin[0] = 0

  // Equal shares; the first n % parts ranks get one block row more; ranks past n own nothing.
  static RowDistribution balanced(index_t n, int parts);
  // From each rank's count; tb::Error names a negative count or no ranks.
  static RowDistribution from_counts(std::span<const index_t> counts);

  int parts() const { return int(begin.size()) - 1; }
  index_t n() const { return begin.back(); }
  index_t first(int r) const { return begin[std::size_t(r)]; }
  index_t owned(int r) const { return begin[std::size_t(r) + 1] - begin[std::size_t(r)]; }
  // The rank that owns block row i (a binary search; ranks that own nothing are skipped).
  int owner(index_t i) const;
};

// One rank's block rows: local (owned x owned columns, renumbered from 0) and
// off_rank (owned x ghost columns, numbered into ghost_columns).
struct RankBlocks {
  BsrMatrix local;
  BsrMatrix off_rank;
  std::vector<index_t> ghost_columns;  // global block columns of other ranks, ascending

  // From this rank's rows (block_rows = rows.owned(rank), global block columns
  // 0..rows.n()). tb::Error on a size or column out of range.
  static RankBlocks from_rows(const BsrMatrix& my_rows, const RowDistribution& rows, int rank);
  // From the whole matrix, of which this rank keeps its rows (tests, and
  // drivers that read one file on every rank).
  static RankBlocks split(const BsrMatrix& global, const RowDistribution& rows, int rank);
  // New values on the pattern this was made from (the same kind of source as
  // at construction): numbers only, no allocation.
  void refresh_values(const BsrMatrix& source);

 private:
  std::vector<index_t> local_source_, off_source_;  // the source's block index of each stored block
};

// The off-rank part of a rank's rows where its assembly already splits them
// (tb-comp2d's pieces): the blocks in ghost columns, held and refilled by the
// physics and read there by the solvers (no split copy per rank), beside the
// local block each solve is given. Where the values are written on a device
// (SystemMatrix), values_on_backend holds them there too, on blocks' pattern:
// a solve resident on that backend reads them in place.
struct OffRankRows {
  const BsrMatrix* blocks = nullptr;       // owned rows x ghost columns
  std::span<const index_t> ghost_columns;  // the global block column of each column of blocks, ascending
  const double* values_on_backend = nullptr;
  // A resident solve can read them in place: they are on the backend, or there are none.
  bool readable_on_backend() const { return values_on_backend || (blocks && blocks->col_idx.empty()); }
};

// This rank's rows of a whole matrix, columns kept global.
BsrMatrix rows_of(const BsrMatrix& global, const RowDistribution& rows, int rank);

// The rows of a split pair with global columns again, into out (rebuilt in
// place: no allocation once out has held them); `first` is the rank's first
// global row. What Schwarz with overlap reads (its ghost rows travel in global
// columns); the inverse of RankBlocks::from_rows.
void join_rank_rows(const BsrMatrix& local, const OffRankRows& off, index_t first, index_t n, BsrMatrix& out);

}  // namespace tb::dist
