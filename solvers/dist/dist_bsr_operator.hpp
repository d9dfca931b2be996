#pragma once
// y = A x for a distributed BSR matrix (docs/distributed.md): this rank's block rows as a
// local block (owned columns) and an off-rank block (ghost columns). The ghost
// exchange of x is started first and completed after the local product, so the
// messages travel while the local block is multiplied. Host vectors, or, once
// placed on a backend (place_on), vectors of that backend: the blocks, the
// send items and the ghosts held there, the product run by its kernels.
#include <mpi.h>

#include <memory>
#include <span>

#include "backend_halo_exchange.hpp"
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
  ~DistBsrOperator() override;
  // New numbers on the pattern: `source` as RankBlocks::refresh_values takes it
  // (an operator holding its blocks).
  void refresh_values(const BsrMatrix& source);
  // The local block is now `local` (an operator reading the caller's blocks; same pattern).
  void borrow(const BsrMatrix& local);
  // A placed operator over split rows whose off-rank values are on its
  // backend (OffRankRows::values_on_backend): applies `local`'s values and
  // those in place from now on, nothing copied (same pattern; until the next
  // refresh_values or borrow, which take the host's values again).
  bool reads_in_place() const { return placed_ && off_.readable_on_backend(); }
  void read_in_place(const BsrView& local);

  // Places the product on `backend` (collective; once, before any apply):
  // the two blocks copied there (their pattern now, their values again at
  // every refresh_values and borrow), the ghosts received there
  // (BackendHaloExchange on `path`), and apply() then takes vectors of that
  // backend only. Backend::host runs the same steps on host memory.
  void place_on(Backend backend, HaloPath path);
  bool placed() const { return placed_ != nullptr; }
  // The exchange of a placed operator (null unplaced, or on one process).
  const BackendHaloExchange* backend_halo() const;

  index_t rows() const override { return local_->rows(); }
  Backend backend() const override;
  void apply(const Vector& x, Vector& y) const override;

  // The exchange of one vector's ghosts (null on one process): Schwarz
  // preconditioners with overlap reuse it for the residual's ghosts.
  HaloExchange* halo() const { return halo_.get(); }
  const BsrMatrix& local() const { return *local_; }
  const BsrMatrix& off_rank() const { return *off_.blocks; }
  std::span<const index_t> ghost_columns() const { return off_.ghost_columns; }
  bool holds_blocks() const { return held_ != nullptr; }

 private:
  struct Placed;  // the blocks, interface rows and exchange on a backend
  void start(MPI_Comm comm, const RowDistribution& rows);
  void apply_placed(const Vector& x, Vector& y) const;
  void copy_values_to_backend();

  std::unique_ptr<RankBlocks> held_;  // null when reading the caller's blocks
  const BsrMatrix* local_ = nullptr;
  OffRankRows off_;
  std::unique_ptr<HaloExchange> halo_;
  std::vector<index_t> interface_rows_;  // rows of the off-rank block that hold blocks
  mutable std::vector<double> ghosts_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  std::unique_ptr<Placed> placed_;
};

}  // namespace tb::dist
