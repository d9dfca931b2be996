#include "petsc_library.hpp"

#include "solvers/core/shared_library.hpp"

namespace tb::petsc {

namespace {

// The library CMake found for this build (TB_PETSC_LIBRARY, by its SONAME).
PetscLibrary open_petsc_library() {
  void* library = shared_library::open(TB_PETSC_LIBRARY, "petsc",
                                       "the PETSc this build was configured with; Debian: libpetsc-real3.18");
  const auto find = [&](const char* name) { return shared_library::symbol(library, TB_PETSC_LIBRARY, name, "petsc"); };
  PetscLibrary p;
#define TB_PETSC_FIND(function) p.function = reinterpret_cast<decltype(p.function)>(find(TB_SYMBOL_NAME(function)));
  TB_PETSC_FUNCTIONS(TB_PETSC_FIND)
#undef TB_PETSC_FIND
  p.converged_reasons = reinterpret_cast<const char* const* const*>(find("KSPConvergedReasons"));
  return p;
}

}  // namespace

const PetscLibrary& petsc_library() {
  static const PetscLibrary p = open_petsc_library();
  return p;
}

}  // namespace tb::petsc
