#pragma once
// Preconditioners over ranks whose subdomain solver is any registry
// preconditioner (docs/distributed.md; seeds 000 and 001 use their ILUs as subdomain
// solvers): block Jacobi (overlap 0: the local solver on this rank's diagonal
// block) and restricted additive Schwarz with one layer of overlap (the local
// solver on the rows of this rank and of its ghost columns, the matrix graph's
// first layer; the ghosts' part of the correction is dropped, so the apply
// needs one exchange, of the residual's ghosts, and none of the result).
#include <mpi.h>

#include <memory>
#include <vector>

#include "dist_bsr_operator.hpp"
#include "row_distribution.hpp"
#include "solvers/krylov/preconditioner.hpp"

namespace tb::dist {

class SchwarzPreconditioner final : public Preconditioner {
 public:
  // overlap: 0 or 1. The operator supplies the ghost columns and the
  // residual's ghost exchange, and must outlive this preconditioner; comm as
  // for the operator.
  SchwarzPreconditioner(MPI_Comm comm, const RowDistribution& rows, int overlap, std::unique_ptr<Preconditioner> local,
                        const DistBsrOperator& op);
  ~SchwarzPreconditioner() override;
  // a: this rank's block rows, global block columns (collective).
  void setup(const BsrMatrix& a, Backend backend) override;
  void update(const BsrMatrix& a) override;
  // Block Jacobi whose local solver refreshes from values on its backend:
  // the local block's values there (the operator's pattern).
  bool updates_in_place() const override { return overlap_ == 0 && local_->updates_in_place(); }
  void update_in_place(const BsrView& local) override;
  void apply(const Vector& r, Vector& z) const override;
  // Block Jacobi: the local solver's backends; with overlap: the host.
  bool supports(Backend b) const override { return overlap_ == 0 ? local_->supports(b) : b == Backend::host; }
  bool is_variable() const override { return local_->is_variable(); }

  // The block rows the local solver works on: owned, plus the overlap's ghosts.
  index_t subdomain_rows() const { return subdomain().block_rows; }
  // Overlap 0: the operator's local block itself; overlap 1: owned and ghost rows.
  const BsrMatrix& subdomain() const { return ghost_rows_ ? subdomain_ : op_.local(); }
  Preconditioner& local() { return *local_; }

 private:
  struct GhostRows;  // the ghost rows' shipment (overlap 1)
  void assemble(const BsrMatrix& a);

  MPI_Comm comm_;
  RowDistribution rows_;
  int overlap_;
  std::unique_ptr<Preconditioner> local_;
  const DistBsrOperator& op_;
  int rank_ = 0;
  BsrMatrix subdomain_;
  std::vector<index_t> owned_source_;  // per subdomain block: its block in a, or -1 when it came from a ghost row
  std::unique_ptr<GhostRows> ghost_rows_;
  mutable Vector r_ext_, z_ext_;
};

}  // namespace tb::dist
