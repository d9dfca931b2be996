#include "dist_bsr_operator.hpp"

#include <string>
#include <utility>

#include "solvers/core/error.hpp"

namespace tb::dist {

DistBsrOperator::DistBsrOperator(MPI_Comm comm, const RowDistribution& rows, RankBlocks blocks)
    : held_(std::make_unique<RankBlocks>(std::move(blocks))) {
  local_ = &held_->local;
  off_ = {&held_->off_rank, held_->ghost_columns};
  start(comm, rows);
}

DistBsrOperator::DistBsrOperator(MPI_Comm comm, const RowDistribution& rows, const BsrMatrix& local, OffRankRows off)
    : local_(&local), off_(off) {
  if (!off_.blocks) throw Error("distributed matrix: no off-rank block");
  start(comm, rows);
}

void DistBsrOperator::start(MPI_Comm comm, const RowDistribution& rows) {
  const BsrMatrix& off = *off_.blocks;
  if (off.block_rows != local_->block_rows || std::size_t(off.block_cols) != off_.ghost_columns.size() ||
      local_->block_cols != local_->block_rows)
    throw Error("distributed matrix: a local block of " + std::to_string(local_->block_rows) + " x " +
                std::to_string(local_->block_cols) + " and an off-rank block of " + std::to_string(off.block_rows) +
                " x " + std::to_string(off.block_cols) + " for " + std::to_string(off_.ghost_columns.size()) +
                " ghost columns");
  const std::span<const index_t> ghosts = off_.ghost_columns;
  if (comm != MPI_COMM_NULL) {
    halo_ = std::make_unique<HaloExchange>(comm, matrix_halo_plan(comm, rows, ghosts), local_->block_size);
  } else if (!ghosts.empty()) {
    throw Error("distributed matrix: " + std::to_string(ghosts.size()) + " ghost columns on one process without MPI");
  }
  ghosts_.resize(std::size_t(off.cols()));
  for (index_t i = 0; i < off.block_rows; ++i)
    if (off.row_ptr[i + 1] > off.row_ptr[i]) interface_rows_.push_back(i);
}

void DistBsrOperator::refresh_values(const BsrMatrix& source) {
  if (!held_) throw Error("internal: refresh_values on an operator that reads the caller's blocks");
  held_->refresh_values(source);
}

void DistBsrOperator::borrow(const BsrMatrix& local) {
  if (held_) throw Error("internal: borrow on an operator that holds its blocks");
  if (!local.same_pattern(*local_)) throw Error("distributed matrix: a local block of another pattern");
  local_ = &local;
}

void DistBsrOperator::apply(const Vector& x, Vector& y) const {
  if (halo_) halo_->begin(x.data());
  spmv(*local_, x.data(), y.data());
  if (!halo_) return;
  halo_->end(ghosts_.data(), local_->block_rows);
  // The off-rank block's rows that hold any block (the interface), each summed
  // as the host product sums a row, then added: no pass over the other rows.
  const BsrView off = view(*off_.blocks);
  const std::size_t bs = std::size_t(off.block_size);
  double* yd = y.data();
  for (const index_t i : interface_rows_) {
    double acc[max_block_size];
    block_row_product(off, i, ghosts_.data(), acc);
    for (std::size_t r = 0; r < bs; ++r) yd[std::size_t(i) * bs + r] += acc[r];
  }
}

}  // namespace tb::dist
