#include "dist_bsr_operator.hpp"

#include <string>
#include <utility>

#include "solvers/core/error.hpp"

namespace tb::dist {

DistBsrOperator::DistBsrOperator(MPI_Comm comm, const RowDistribution& rows, RankBlocks blocks)
    : blocks_(std::move(blocks)) {
  const std::vector<index_t>& ghosts = blocks_.ghost_columns;
  if (comm != MPI_COMM_NULL) {
    halo_ = std::make_unique<HaloExchange>(comm, matrix_halo_plan(comm, rows, ghosts), blocks_.local.block_size);
  } else if (!ghosts.empty()) {
    throw Error("distributed matrix: " + std::to_string(ghosts.size()) + " ghost columns on one process without MPI");
  }
  ghosts_.resize(std::size_t(blocks_.off_rank.cols()));
  off_product_.resize(std::size_t(blocks_.off_rank.rows()));
}

void DistBsrOperator::apply(const Vector& x, Vector& y) const {
  if (halo_) halo_->begin(x.data());
  spmv(blocks_.local, x.data(), y.data());
  if (!halo_) return;
  halo_->end(ghosts_.data(), blocks_.local.block_rows);
  if (blocks_.off_rank.nnz_blocks() == 0) return;
  spmv(blocks_.off_rank, ghosts_.data(), off_product_.data());
  double* yd = y.data();
  for (std::size_t i = 0; i < off_product_.size(); ++i) yd[i] += off_product_[i];
}

}  // namespace tb::dist
