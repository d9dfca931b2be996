#pragma once
// PETSc's KSP as a complete solver: the harness's BSR system is handed to PETSc
// as a BAIJ or AIJ matrix whose pattern is set once at setup and whose values
// are replaced by update, and PETSc's own stopping reason, iteration count and
// residual history come back as SolveStats. Nothing here includes a PETSc
// header: petsc_solver.cpp does, or petsc_absent.cpp (a build without PETSc)
// refuses with a message saying how to get it; CMakeLists.txt links one.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "solvers/krylov/complete_solver.hpp"
#include "solvers/krylov/krylov_method.hpp"

namespace tb::petsc {

struct PetscSettings {
  std::string ksp = "gmres";    // KSPType
  std::string pc = "ilu";       // PCType
  std::string format = "baij";  // baij or aij
  int restart = 30;             // GMRES / FGMRES restart length
  // Extra PETSc options, "name:value;name:value" or "name" for a flag; a
  // leading '-' is optional. Read after ksp and pc, so they refine them.
  std::string options;
};

// True when the library was built with PETSc.
bool available();

// Throws tb::Error when the library has no PETSc or an option is refused by PETSc.
std::unique_ptr<CompleteSolver> make_solver(const PetscSettings& settings, const StopCriteria& stop);

// "name:value;flag" -> {"-name value", "-flag"}: the options text as PETSc's
// option names and values. Throws tb::Error naming the malformed item.
std::vector<std::pair<std::string, std::string>> parse_options(const std::string& text);

}  // namespace tb::petsc
