#include "petsc_library.hpp"

#include <dlfcn.h>

#include <string>

#include "solvers/core/error.hpp"

namespace tb::petsc {

namespace {

void* find(void* library, const char* symbol) {
  dlerror();
  void* address = dlsym(library, symbol);
  if (!address) throw Error(std::string("petsc: ") + TB_PETSC_LIBRARY + " has no symbol " + symbol);
  return address;
}

#define TB_STRING(x) TB_STRING_(x)
#define TB_STRING_(x) #x

// The library CMake found for this build (TB_PETSC_LIBRARY, by its SONAME).
PetscLibrary open_petsc_library() {
  void* library = dlopen(TB_PETSC_LIBRARY, RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char* why = dlerror();
    throw Error(std::string("petsc: cannot open ") + TB_PETSC_LIBRARY + ": " + (why ? why : "dlopen failed") +
                " (the PETSc this build was configured with; Debian: libpetsc-real3.18)");
  }
  PetscLibrary p;
#define TB_PETSC_FIND(function) p.function = reinterpret_cast<decltype(p.function)>(find(library, TB_STRING(function)));
  TB_PETSC_FUNCTIONS(TB_PETSC_FIND)
#undef TB_PETSC_FIND
  p.converged_reasons = reinterpret_cast<const char* const* const*>(find(library, "KSPConvergedReasons"));
  return p;  // the library stays open until the process ends
}

}  // namespace

const PetscLibrary& petsc_library() {
  static const PetscLibrary p = open_petsc_library();
  return p;
}

}  // namespace tb::petsc
