#pragma once
// y = A x for a distributed BSR matrix (docs/distributed.md): this rank's block rows as a
// local block (owned columns) and an off-rank block (ghost columns). The ghost
// exchange of x is started first and completed after the local product, so the
// messages travel while the local block is multiplied. Host vectors.
#include <mpi.h>

#include <memory>
#include <span>

#include "halo_exchange.hpp"
#include "row_distribution.hpp"
#include "solvers/core/linear_operator.hpp"

namespace tb::dist {

class DistBsrOperator final : public LinearOperator {
 public:
  // Collective. comm = MPI_COMM_NULL: one process without MPI (no ghosts allowed).
  // Holds the two blocks (split from a rank's rows with global columns).
  DistBsrOperator(MPI_Comm comm, const RowDistribution& rows, RankBlocks blocks);
  // Reads them where the caller keeps them (the physics' own, refilled there):
  // both must outlive this operator or a later borrow(), and keep their pattern.
  DistBsrOperator(MPI_Comm comm, const RowDistribution& rows, const BsrMatrix& local, OffRankRows off);
  // New numbers on the pattern: `source` as RankBlocks::refresh_values takes it
  // (an operator holding its blocks).
  void refresh_values(const BsrMatrix& source);
  // The local block is now `local` (an operator reading the caller's blocks; same pattern).
  void borrow(const BsrMatrix& local);

  index_t rows() const override { return local_->rows(); }
  Backend backend() const override { return Backend::host; }
  void apply(const Vector& x, Vector& y) const override;

  // The exchange of one vector's ghosts (null on one process): Schwarz
  // preconditioners with overlap reuse it for the residual's ghosts.
  HaloExchange* halo() const { return halo_.get(); }
  const BsrMatrix& local() const { return *local_; }
  const BsrMatrix& off_rank() const { return *off_.blocks; }
  std::span<const index_t> ghost_columns() const { return off_.ghost_columns; }
  bool holds_blocks() const { return held_ != nullptr; }

 private:
  void start(MPI_Comm comm, const RowDistribution& rows);

  std::unique_ptr<RankBlocks> held_;  // null when reading the caller's blocks
  const BsrMatrix* local_ = nullptr;
  OffRankRows off_;
  std::unique_ptr<HaloExchange> halo_;
  std::vector<index_t> interface_rows_;  // rows of the off-rank block that hold blocks
  mutable std::vector<double> ghosts_;
};

}  // namespace tb::dist
