#pragma once
// PETSc opened with dlopen on the first PETSc solver instead of linked: libpetsc
// brings about a hundred shared libraries (hypre, MUMPS, ScaLAPACK, HDF5, ...)
// that would cost every process memory and start-up time, whether or
// not it ever builds a PETSc solver, and every miniapp links this room
// (docs/petsc.md). Included by petsc_solver.cpp and petsc_library.cpp only: it
// brings PETSc's headers, for the functions' types.
#include <petscksp.h>

namespace tb::petsc {

// Every function petsc_solver.cpp calls.
#define TB_PETSC_FUNCTIONS(X)      \
  X(PetscInitialized)              \
  X(PetscInitializeNoArguments)    \
  X(PetscFinalize)                 \
  X(PetscErrorMessage)             \
  X(PetscPushErrorHandler)         \
  X(PetscReturnErrorHandler)       \
  X(PetscOptionsCreate)            \
  X(PetscOptionsDestroy)           \
  X(PetscOptionsSetValue)          \
  X(PetscOptionsLeftGet)           \
  X(PetscOptionsLeftRestore)       \
  X(PetscObjectSetOptions)         \
  X(MatCreate)                     \
  X(MatDestroy)                    \
  X(MatSetSizes)                   \
  X(MatSetType)                    \
  X(MatSetBlockSize)               \
  X(MatSetOption)                  \
  X(MatXAIJSetPreallocation)       \
  X(MatSetValuesBlocked)           \
  X(MatAssemblyBegin)              \
  X(MatAssemblyEnd)                \
  X(MatMult)                       \
  X(MatCreateVecs)                 \
  X(VecDestroy)                    \
  X(VecDuplicate)                  \
  X(VecGetSize)                    \
  X(VecNorm)                       \
  X(VecAYPX)                       \
  X(VecGetArrayRead)               \
  X(VecRestoreArrayRead)           \
  X(VecGetArrayWrite)              \
  X(VecRestoreArrayWrite)          \
  X(KSPCreate)                     \
  X(KSPDestroy)                    \
  X(KSPSetType)                    \
  X(KSPGetType)                    \
  X(KSPGetPC)                      \
  X(KSPSetOperators)               \
  X(KSPSetTolerances)              \
  X(KSPSetInitialGuessNonzero)     \
  X(KSPConvergedDefaultSetUIRNorm) \
  X(KSPGMRESSetRestart)            \
  X(KSPSetResidualHistory)         \
  X(KSPSetFromOptions)             \
  X(KSPSetUp)                      \
  X(KSPSolve)                      \
  X(KSPGetIterationNumber)         \
  X(KSPGetConvergedReason)         \
  X(KSPGetResidualHistory)         \
  X(PCSetType)                     \
  X(PCGetType)                     \
  X(PCSetUp)

struct PetscLibrary {
#define TB_PETSC_POINTER(function) decltype(&::function) function = nullptr;
  TB_PETSC_FUNCTIONS(TB_PETSC_POINTER)
#undef TB_PETSC_POINTER
  // PETSc's variable KSPConvergedReasons (the reasons' names, indexed by the
  // reason), read when used: PETSc may set it after the library is opened.
  const char* const* const* converged_reasons = nullptr;
  const char* reason_name(KSPConvergedReason r) const { return (*converged_reasons)[r]; }
};

// Opened once per process (thread-safe); tb::Error names the library or the
// symbol that could not be found.
const PetscLibrary& petsc_library();

}  // namespace tb::petsc
