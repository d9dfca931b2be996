#pragma once
// cuSPARSE and cuBLAS for the baseline path, opened with dlopen on its first
// use instead of linked: loading libcublasLt (which libcublas needs) and
// libnvJitLink (libcusparse's) would cost every process most of its resident
// memory at start-up, whether or not it ever runs the baseline, and every
// miniapp links this room (docs/multicolor.md, "Library baseline"). Included
// by .cu files only: it brings the CUDA libraries' headers.
#include <cublas_v2.h>
#include <cusparse.h>

namespace tb::multicolor::kernels::cuda {

// Every function the baseline calls, by the name its header gives it
// (cublasCreate is cublasCreate_v2 after cublas_v2.h's macros).
#define TB_VENDOR_FUNCTIONS(X)       \
  X(sparse, cusparseGetErrorString)  \
  X(sparse, cusparseCreate)          \
  X(sparse, cusparseDestroy)         \
  X(sparse, cusparseCreateMatDescr)  \
  X(sparse, cusparseDestroyMatDescr) \
  X(sparse, cusparseCreateDnVec)     \
  X(sparse, cusparseDestroyDnVec)    \
  X(sparse, cusparseDnVecSetValues)  \
  X(sparse, cusparseCreateCsr)       \
  X(sparse, cusparseDestroySpMat)    \
  X(sparse, cusparseSpMV_bufferSize) \
  X(sparse, cusparseSpMV)            \
  X(sparse, cusparseDbsrmv)          \
  X(blas, cublasCreate)              \
  X(blas, cublasDestroy)             \
  X(blas, cublasDtrsmBatched)

struct VendorLibraries {
#define TB_VENDOR_POINTER(library, function) decltype(&::function) function = nullptr;
  TB_VENDOR_FUNCTIONS(TB_VENDOR_POINTER)
#undef TB_VENDOR_POINTER
};

// Opened once per process (thread-safe); tb::Error names the library or the
// function that could not be found.
const VendorLibraries& vendor_libraries();

}  // namespace tb::multicolor::kernels::cuda
