#pragma once
// Distributed solves from a specification (docs/distributed.md), in builds with MPI:
//   fgmres(restart=30)+bjacobi(local=bilu0)
//   fgmres+asm(overlap=1,local=async_bilu(build_sweeps=1,apply_sweeps=3))
//   cg+jacobi    (point or block Jacobi: the same on any number of ranks)
// The Krylov method is any registry method; the preconditioner is bjacobi or
// asm around any registry preconditioner, or a rank-independent one
// (identity, jacobi, block_jacobi). One that needs the whole matrix (bilu0
// written alone) is refused with the bjacobi/asm form to write instead.
#include <memory>
#include <optional>
#include <string_view>

#include "solvers/dist/distributed_solver.hpp"

namespace tb {

// comm: the ranks that share the system; null for solver_communicator().
// The Krylov method's backend=cuda makes the solve resident on each rank's
// device (DistributedSolver's `resident`; block Jacobi only). `resident`
// names the backend instead, whatever the method says: Backend::host runs the
// device's steps on host memory (the tests' stand-in for a device).
std::unique_ptr<dist::DistributedSolver> make_distributed_solver(
    std::string_view spec, std::shared_ptr<const comm::Communicator> comm = nullptr,
    std::optional<Backend> resident = std::nullopt);

}  // namespace tb
