// A build without PETSc: the name stays in the registry so that a case naming
// it gets a message saying how to have it, not "unknown solver".
#include "petsc_solver.hpp"
#include "solvers/core/error.hpp"

namespace tb::petsc {

bool available() { return false; }

std::unique_ptr<CompleteSolver> make_solver(const PetscSettings&, const StopCriteria&) {
  throw Error(
      "petsc: this build has no PETSc; install it (Debian: scripts/setup.sh --petsc, package petsc-dev) and "
      "configure with -DWITH_PETSC=AUTO or ON");
}

}  // namespace tb::petsc
