#pragma once
// A LinearSolver for a system of which each rank passes only its own block
// rows (global block columns; rank r's rows follow rank r-1's), as a
// decomposed time loop assembles it (docs/distributed.md). On more than one rank it is
// make_distributed_solver's solver behind the LinearSolver interface (setup,
// update and solve collective); on one process, make_solver's. No MPI here.
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "solvers/dist/row_distribution.hpp"
#include "solvers/krylov/linear_solver.hpp"

namespace tb {

// Preconditioners that are the same over any number of ranks, taken as written.
bool rank_independent_preconditioner(const std::string& name);

// The specification a decomposed run on `ranks` ranks solves with: a
// preconditioner that needs the whole matrix (bilu0, fgbilu, ...) becomes the
// local solver of block Jacobi over the ranks, as PETSc's default does:
//   fgmres(restart=30)+bilu0  ->  fgmres(restart=30)+bjacobi(local=bilu0)
// A Krylov method's backend=cuda keeps the whole solve on each rank's device
// (make_distributed_solver's resident solve: the method's vectors, the
// operator's blocks, the halo's buffers and the local solver there):
//   fgmres(backend=cuda)+multicolor  ->  fgmres(backend=cuda)+bjacobi(local=multicolor)
// except where that solve cannot run: with restricted additive Schwarz (its
// ghost rows are exchanged on the host) or a block Jacobi whose local solver
// names backend=host, the method runs on the host and the backend goes to the
// Schwarz method's local solves:
//   cg(backend=cuda)+asm(local=X)    ->  cg+asm(local=X,backend=cuda)
// Everything else (bjacobi, asm, rank-independent preconditioners, complete
// solvers: bicgstab_dia takes each rank's own rows, cg_stencil is refused
// with its reason) unchanged, and every specification on one rank.
std::string partitioned_form(std::string_view spec, int ranks);

// Over solver_communicator()'s ranks. resident: the backend a distributed
// solve resides on where the specification names none (a Krylov method's
// backend=cuda does): Backend::host runs the device's steps on host memory,
// the tests' stand-in for a time loop's solves on the GPU.
std::unique_ptr<LinearSolver> make_partitioned_solver(std::string_view spec,
                                                      std::optional<Backend> resident = std::nullopt);

// Tells make_partitioned_solver's solver that each rank's rows come split, as
// tb-comp2d and tb-incomp assemble them: from its next set-up on, the matrix
// of each set-up, update and solve is the rank's local block (owned rows and
// columns, numbered from 0), and `off` holds the rest, read where it is. A
// complete solver over its own rows (bicgstab_dia) gets them joined into
// global columns, a copy. With off.values_on_backend, a resident block
// Jacobi whose local solver refreshes in place reads the values on its
// backend (LinearSolver::updates_in_place): nothing of the matrix crosses to
// the host after its first set-up. False on one process (no
// make_partitioned_solver's solver there).
bool take_split_rows(LinearSolver& solver, dist::OffRankRows off);

}  // namespace tb
