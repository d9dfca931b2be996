#pragma once
// y = A x for a distributed BSR matrix (issue 28): this rank's block rows as a
// local block (owned columns) and an off-rank block (ghost columns). The ghost
// exchange of x is started first and completed after the local product, so the
// messages travel while the local block is multiplied. Host vectors.
#include <mpi.h>

#include <memory>

#include "halo_exchange.hpp"
#include "row_distribution.hpp"
#include "solvers/core/linear_operator.hpp"

namespace tb::dist {

class DistBsrOperator final : public LinearOperator {
 public:
  // Collective. comm = MPI_COMM_NULL: one process without MPI (no ghosts allowed).
  DistBsrOperator(MPI_Comm comm, const RowDistribution& rows, RankBlocks blocks);
  // New numbers on the pattern: `source` as RankBlocks::refresh_values takes it.
  void refresh_values(const BsrMatrix& source) { blocks_.refresh_values(source); }

  index_t rows() const override { return blocks_.local.rows(); }
  Backend backend() const override { return Backend::host; }
  void apply(const Vector& x, Vector& y) const override;

  // The exchange of one vector's ghosts (null on one process): Schwarz
  // preconditioners with overlap reuse it for the residual's ghosts.
  HaloExchange* halo() const { return halo_.get(); }
  const RankBlocks& blocks() const { return blocks_; }

 private:
  RankBlocks blocks_;
  std::unique_ptr<HaloExchange> halo_;
  mutable std::vector<double> ghosts_, off_product_;
};

}  // namespace tb::dist
