#include "row_distribution.hpp"

#include <algorithm>
#include <string>

#include "solvers/comm/row_partition.hpp"
#include "solvers/core/error.hpp"

namespace tb::dist {

// The shares are seed 004's row partitions (solvers/comm/row_partition.hpp).
RowDistribution RowDistribution::balanced(index_t n, int parts) {
  return RowDistribution{comm::balanced_partition(n, parts).starts};
}

RowDistribution RowDistribution::from_counts(std::span<const index_t> counts) {
  return RowDistribution{comm::partition_from_sizes(std::vector<index_t>(counts.begin(), counts.end())).starts};
}

int RowDistribution::owner(index_t i) const {
  if (i < 0 || i >= n())
    throw Error("RowDistribution: row " + std::to_string(i) + " outside [0, " + std::to_string(n()) + ")");
  return comm::part_owning(begin, i);
}

namespace {

void start_like(BsrMatrix& m, index_t block_size, index_t block_rows, index_t block_cols) {
  m.block_size = block_size;
  m.block_rows = block_rows;
  m.block_cols = block_cols;
  m.row_ptr.assign(1, 0);
  m.col_idx.clear();
  m.values.clear();
}

void append_block(BsrMatrix& m, index_t col, const double* block) {
  m.col_idx.push_back(col);
  m.values.insert(m.values.end(), block, block + m.block_entries());
}

// Splits rows [row_begin, row_begin + count) of `source` (global columns); the
// source block index of row i's blocks starts at source.row_ptr[row_begin + i].
RankBlocks split_range(const BsrMatrix& source, index_t row_begin, index_t count, const RowDistribution& rows, int rank,
                       std::vector<index_t>& local_source, std::vector<index_t>& off_source) {
  if (source.block_cols != rows.n())
    throw Error("distributed matrix: " + std::to_string(source.block_cols) + " block columns for " +
                std::to_string(rows.n()) + " distributed rows");
  const index_t first = rows.first(rank), owned = rows.owned(rank);
  RankBlocks out;
  for (index_t i = row_begin; i < row_begin + count; ++i)
    for (index_t k = source.row_ptr[i]; k < source.row_ptr[i + 1]; ++k) {
      const index_t j = source.col_idx[k];
      if (j < 0 || j >= rows.n())
        throw Error("distributed matrix: block row " + std::to_string(first + i - row_begin) + " has column " +
                    std::to_string(j) + " outside [0, " + std::to_string(rows.n()) + ")");
      if (j < first || j >= first + owned) out.ghost_columns.push_back(j);
    }
  // Every off-rank block was listed above: the two blocks' sizes are known, and
  // reserved (grown by doubling, the values took up to twice their size).
  const auto off_blocks = out.ghost_columns.size();
  const auto local_blocks = std::size_t(source.row_ptr[row_begin + count] - source.row_ptr[row_begin]) - off_blocks;
  std::sort(out.ghost_columns.begin(), out.ghost_columns.end());
  out.ghost_columns.erase(std::unique(out.ghost_columns.begin(), out.ghost_columns.end()), out.ghost_columns.end());
  out.ghost_columns.shrink_to_fit();
  const index_t ghosts = index_t(out.ghost_columns.size());
  start_like(out.local, source.block_size, count, owned);
  start_like(out.off_rank, source.block_size, count, ghosts);
  const auto be = std::size_t(source.block_entries());
  out.local.col_idx.reserve(local_blocks);
  out.local.values.reserve(local_blocks * be);
  out.off_rank.col_idx.reserve(off_blocks);
  out.off_rank.values.reserve(off_blocks * be);
  local_source.clear();
  off_source.clear();
  local_source.reserve(local_blocks);
  off_source.reserve(off_blocks);
  for (index_t i = row_begin; i < row_begin + count; ++i) {
    // Columns are sorted in the source, so both parts stay sorted.
    for (index_t k = source.row_ptr[i]; k < source.row_ptr[i + 1]; ++k) {
      const index_t j = source.col_idx[k];
      if (j >= first && j < first + owned) {
        append_block(out.local, j - first, source.block(k));
        local_source.push_back(k);
      } else {
        const auto g = std::lower_bound(out.ghost_columns.begin(), out.ghost_columns.end(), j);
        append_block(out.off_rank, index_t(g - out.ghost_columns.begin()), source.block(k));
        off_source.push_back(k);
      }
    }
    out.local.row_ptr.push_back(out.local.nnz_blocks());
    out.off_rank.row_ptr.push_back(out.off_rank.nnz_blocks());
  }
  return out;
}

}  // namespace

RankBlocks RankBlocks::from_rows(const BsrMatrix& my_rows, const RowDistribution& rows, int rank) {
  if (my_rows.block_rows != rows.owned(rank))
    throw Error("distributed matrix: rank " + std::to_string(rank) + " holds " + std::to_string(my_rows.block_rows) +
                " block rows, the distribution gives it " + std::to_string(rows.owned(rank)));
  std::vector<index_t> ls, os;
  RankBlocks out = split_range(my_rows, 0, my_rows.block_rows, rows, rank, ls, os);
  out.local_source_ = std::move(ls);
  out.off_source_ = std::move(os);
  return out;
}

RankBlocks RankBlocks::split(const BsrMatrix& global, const RowDistribution& rows, int rank) {
  if (global.block_rows != rows.n())
    throw Error("distributed matrix: " + std::to_string(global.block_rows) + " block rows for a distribution of " +
                std::to_string(rows.n()));
  std::vector<index_t> ls, os;
  RankBlocks out = split_range(global, rows.first(rank), rows.owned(rank), rows, rank, ls, os);
  out.local_source_ = std::move(ls);
  out.off_source_ = std::move(os);
  return out;
}

void RankBlocks::refresh_values(const BsrMatrix& source) {
  const index_t be = local.block_entries();
  for (std::size_t k = 0; k < local_source_.size(); ++k)
    std::copy_n(source.block(local_source_[k]), be, local.block(index_t(k)));
  for (std::size_t k = 0; k < off_source_.size(); ++k)
    std::copy_n(source.block(off_source_[k]), be, off_rank.block(index_t(k)));
}

BsrMatrix rows_of(const BsrMatrix& global, const RowDistribution& rows, int rank) {
  const index_t first = rows.first(rank), count = rows.owned(rank);
  BsrMatrix m;
  start_like(m, global.block_size, count, global.block_cols);
  const auto blocks = std::size_t(global.row_ptr[first + count] - global.row_ptr[first]);
  m.col_idx.reserve(blocks);
  m.values.reserve(blocks * std::size_t(global.block_entries()));
  for (index_t i = first; i < first + count; ++i) {
    for (index_t k = global.row_ptr[i]; k < global.row_ptr[i + 1]; ++k)
      append_block(m, global.col_idx[k], global.block(k));
    m.row_ptr.push_back(m.nnz_blocks());
  }
  return m;
}

void join_rank_rows(const BsrMatrix& local, const OffRankRows& off, index_t first, index_t n, BsrMatrix& out) {
  const BsrMatrix& o = *off.blocks;
  if (o.block_rows != local.block_rows || o.block_size != local.block_size ||
      std::size_t(o.block_cols) != off.ghost_columns.size())
    throw Error("distributed matrix: an off-rank block of " + std::to_string(o.block_rows) + " x " +
                std::to_string(o.block_cols) + " for " + std::to_string(local.block_rows) + " local rows and " +
                std::to_string(off.ghost_columns.size()) + " ghost columns");
  start_like(out, local.block_size, local.block_rows, n);
  for (index_t i = 0; i < local.block_rows; ++i) {
    // Both parts are sorted, and every ghost column lies outside [first, first + rows): a merge.
    index_t k = local.row_ptr[i], g = o.row_ptr[i];
    while (k < local.row_ptr[i + 1] || g < o.row_ptr[i + 1]) {
      const index_t jl = k < local.row_ptr[i + 1] ? first + local.col_idx[k] : n;
      const index_t jg = g < o.row_ptr[i + 1] ? off.ghost_columns[std::size_t(o.col_idx[g])] : n;
      if (jl < jg)
        append_block(out, jl, local.block(k++));
      else
        append_block(out, jg, o.block(g++));
    }
    out.row_ptr.push_back(out.nnz_blocks());
  }
}

}  // namespace tb::dist
