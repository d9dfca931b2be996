#include "dist_bsr_operator.hpp"

#include <string>

#include "solvers/core/error.hpp"

namespace tb::dist {

DistBsrOperator::DistBsrOperator(MPI_Comm comm, const RowDistribution& rows, const RankBlocks& blocks)
    : local_(blocks.local), off_rank_(blocks.off_rank) {
  if (comm != MPI_COMM_NULL) {
    halo_ = std::make_unique<HaloExchange>(comm, matrix_halo_plan(comm, rows, blocks.ghost_columns),
                                           blocks.local.block_size);
  } else if (!blocks.ghost_columns.empty()) {
    throw Error("distributed matrix: " + std::to_string(blocks.ghost_columns.size()) +
                " ghost columns on one process without MPI");
  }
  ghosts_.resize(std::size_t(off_rank_.cols()));
  off_product_.resize(std::size_t(off_rank_.rows()));
}

void DistBsrOperator::update_values(const RankBlocks& blocks) {
  if (!local_.same_pattern(blocks.local) || !off_rank_.same_pattern(blocks.off_rank))
    throw Error("distributed matrix: update_values on another pattern");
  local_.values = blocks.local.values;  // same size: no allocation
  off_rank_.values = blocks.off_rank.values;
}

void DistBsrOperator::apply(const Vector& x, Vector& y) const {
  if (halo_) halo_->begin(x.data());
  spmv(local_, x.data(), y.data());
  if (!halo_) return;
  halo_->end(ghosts_.data(), local_.block_rows);
  if (off_rank_.nnz_blocks() == 0) return;
  spmv(off_rank_, ghosts_.data(), off_product_.data());
  double* yd = y.data();
  for (std::size_t i = 0; i < off_product_.size(); ++i) yd[i] += off_product_[i];
}

}  // namespace tb::dist
