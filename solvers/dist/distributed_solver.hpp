#pragma once
// A Krylov method over a distributed BSR system with a preconditioner over
// ranks (docs/distributed.md): the method's dots reduce over the ranks (MpiVectorSpace),
// its products exchange ghosts (DistBsrOperator), and the preconditioner is
// block Jacobi or restricted additive Schwarz around any registry
// preconditioner (SchwarzPreconditioner). solvers/factory builds one from a
// specification (make_distributed_solver). No MPI header here.
//
// Resident on a backend (the constructor's `resident`), the method's vectors,
// the operator's blocks, the halo's buffers and block Jacobi's local solver
// live there (the device under CUDA): solve(Vector, Vector) takes b and x
// where they are, and nothing crosses to the host but the method's scalars and
// the staged halo (docs/distributed.md, "On a backend").
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "halo_path.hpp"
#include "row_distribution.hpp"
#include "solvers/comm/communicator.hpp"
#include "solvers/krylov/krylov_method.hpp"

namespace tb::dist {

class DistributedSolver {
 public:
  // overlap 0: block Jacobi over ranks; 1: restricted additive Schwarz. comm:
  // the ranks that share the system (a one-process group needs no MPI).
  // resident: the backend the solve lives on, or none for the host solve of
  // host vectors (Backend::host resident runs the device's steps on host
  // memory). Resident takes overlap 0 only and a local solver with kernels
  // there, else tb::Error naming the specification.
  DistributedSolver(std::string spec, std::unique_ptr<KrylovMethod> method, std::unique_ptr<Preconditioner> local,
                    int overlap, std::shared_ptr<const comm::Communicator> comm,
                    std::optional<Backend> resident = std::nullopt);
  ~DistributedSolver();

  // my_rows: this rank's block rows (rows.owned(rank)), global block columns.
  // Symbolic and numeric; collective.
  void setup(const BsrMatrix& my_rows, const RowDistribution& rows);
  // The same rows already split: `local` (owned columns, numbered from 0) and
  // `off` (the ghosts'), both read where they are (the physics refills them;
  // no copy per rank but the one Schwarz with overlap makes of its subdomain).
  // update() then takes the local block.
  void setup(const BsrMatrix& local, OffRankRows off, const RowDistribution& rows);
  // Numbers only, the pattern of setup; collective.
  void update(const BsrMatrix& my_rows);
  // Resident block Jacobi whose local solver refreshes from values on the
  // backend: set up from split rows whose off-rank values are there too
  // (OffRankRows::values_on_backend), update_in_place takes the local block's
  // values where they are (a view on the pattern of setup) and nothing
  // crosses to the host; attach_in_place only points the product at them.
  bool updates_in_place() const;
  void update_in_place(const BsrView& local);
  void attach_in_place(const BsrView& local);
  // This rank's rows of b and x (x: the initial guess in, the solution out); collective.
  // Resident: b and x are copied to the backend and x back, once a solve.
  SolveStats solve(std::span<const double> b, std::span<double> x);
  // The same for vectors on the resident backend, read and written where they are.
  SolveStats solve(const Vector& b, Vector& x);
  // Before setup: the path of a resident solve's halo (default_halo_path of its backend).
  void choose_halo_path(HaloPath path) { halo_path_ = path; }
  bool resident() const { return resident_.has_value(); }
  Backend backend() const { return resident_.value_or(Backend::host); }
  // How the product's ghosts travel, for a start-up line: the host
  // exchange's transport ("persistent", "neighbourhood"), or resident,
  // "staged" or "cuda_aware".
  const char* halo_transport() const;
  // The resident product's halo staging since setup (zero otherwise).
  std::uint64_t halo_bytes_staged() const;
  // Limits the solves that follow to l.iterations ({} lifts it; at or above
  // maxit: none). Seconds are dropped: each rank's clock would stop it at
  // another iteration. False where no limit applies.
  bool limit(SolveLimit l);
  int max_iterations() const;
  // LinearSolver::recompute_final_residual: off, a solve skips the true
  // residual's product (a halo exchange) and its reduction.
  void recompute_final_residual(bool on) { recompute_ = on; }

  const std::string& spec() const { return spec_; }
  int rank() const { return comm_->rank(); }
  int ranks() const { return comm_->size(); }
  // Block rows this rank's subdomain solver works on (owned + overlap) and ghost columns of the product.
  index_t subdomain_rows() const;
  index_t ghost_columns() const;
  double setup_seconds() const { return setup_seconds_; }

 private:
  struct Parts;  // the MPI objects
  void check_parts(const RowDistribution& rows) const;
  void start(std::unique_ptr<Parts> p, const BsrMatrix& rows_for_schwarz, const RowDistribution& rows);
  SolveStats run(const Vector& b, Vector& x);
  std::string spec_;
  std::unique_ptr<KrylovMethod> method_;
  std::unique_ptr<Preconditioner> local_;
  int overlap_;
  std::shared_ptr<const comm::Communicator> comm_;
  std::optional<Backend> resident_;
  std::optional<HaloPath> halo_path_;
  std::unique_ptr<Parts> parts_;
  double setup_seconds_ = 0.0;
  bool recompute_ = true;
};

}  // namespace tb::dist
