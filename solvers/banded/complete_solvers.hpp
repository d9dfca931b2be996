#pragma once
// The registry's bicgstab_dia (GBCG) and cg_stencil (GSCG): complete solvers
// that take the full BSR system on every rank (physics replicated), cut this
// rank's slab at setup (§III-A), solve distributed when the comm::Communicator has
// more than one rank, and return the full solution on every rank.
// bicgstab_dia also takes each rank's own rows (take_own_rows: a decomposed
// loop's assembly), and then b and x's own entries only.
#include <memory>

#include "gbcg.hpp"
#include "gscg.hpp"
#include "owned_rows.hpp"
#include "solvers/krylov/complete_solver.hpp"

namespace tb::banded {

class DiaBicgstabSolver final : public CompleteSolver {
 public:
  // min_fill: diagonals with fewer entries than min_fill * n go to the DIA
  // matrix's sparse remainder (dia_from_bsr).
  DiaBicgstabSolver(BandedStop stop, Backend backend, std::shared_ptr<const comm::Communicator> comm,
                    double min_fill = 0.0, GbcgVariant variant = GbcgVariant::one_reduction);
  void setup(const BsrMatrix& a) override;
  void update(const BsrMatrix& a) override;
  SolveStats solve(std::span<const double> b, std::span<double> x) override;
  // On one process the slab is the whole system: b and x are solved where
  // they are (a resident step's device vectors), without the host round trip.
  bool solves_on(Backend b) const override { return b == backend_ && comm_->size() == 1; }
  SolveStats solve_on_backend(const Vector& b, Vector& x) override;
  bool take_own_rows() override;
  bool spans_ranks() const override { return own_rows_; }
  bool limit(SolveLimit l) override;
  int max_iterations() const override { return stop_.krylov.maxit; }
  // Compute / halo / reduction time of the solves since setup or reset_times().
  const SolveTimes& times() const;
  void reset_times();

 private:
  void keep_pattern(const BsrMatrix& a);
  void setup_own_rows(const BsrMatrix& a);
  void update_own_rows(const BsrMatrix& a);
  SolveStats solve_own_rows(std::span<const double> b, std::span<double> x);

  BandedStop stop_;
  Backend backend_;
  std::shared_ptr<const comm::Communicator> comm_;
  double min_fill_;
  GbcgVariant variant_;
  comm::RowPartition part_;
  BsrMatrix pattern_;  // sizes, row_ptr and col_idx of setup's matrix (no values): update's check
  DiaMap map_, transposed_map_;
  DiaMatrix slab_, transposed_slab_;  // transposed_slab_: the one-reduction variant's
  std::unique_ptr<Gbcg> gbcg_;
  Vector b_, x_;
  std::vector<double> x_local_;
  bool own_rows_ = false;
  std::unique_ptr<OwnedRowsDia> owned_;  // own_rows_: the slabs, which the ranks built together
};

class StencilCgSolver final : public CompleteSolver {
 public:
  // The grid the matrix must be a constant-coefficient 7-point operator on.
  StencilCgSolver(index_t nx, index_t ny, index_t nz, BandedStop stop, Backend backend,
                  std::shared_ptr<const comm::Communicator> comm, GscgVariant variant = GscgVariant::one_reduction);
  // Checks that a IS such an operator (tb::Error names the first row that is not).
  void setup(const BsrMatrix& a) override;
  void update(const BsrMatrix& a) override;
  SolveStats solve(std::span<const double> b, std::span<double> x) override;
  bool limit(SolveLimit l) override;
  int max_iterations() const override { return stop_.krylov.maxit; }
  const SolveTimes& times() const;
  void reset_times();
  const StencilCoefficients& coefficients() const { return coefficients_; }

 private:
  index_t nx_, ny_, nz_;
  BandedStop stop_;
  Backend backend_;
  std::shared_ptr<const comm::Communicator> comm_;
  GscgVariant variant_;
  comm::RowPartition part_;
  StencilCoefficients coefficients_;
  std::unique_ptr<Gscg> gscg_;
  Vector b_, x_;
  std::vector<double> x_local_;
};

}  // namespace tb::banded
