#pragma once
// The CUDA BSR SpMV kernels beyond the one bsr_operator.hpp declares for
// dispatch. Plain C++ declarations: no CUDA header reaches the includer.
#include "solvers/matrix/bsr.hpp"

namespace tb::kernels::cuda {

// y = A x with one thread per scalar row: the simple twin that the tuned
// bsr_spmv is tested against on a GPU. Device pointers, any block size 1..64.
void bsr_spmv_ref(const BsrView& a, const double* x, double* y);

// y = A x by the flat walk (see kernels.cu), block sizes 1..8: the mapping
// bsr_spmv used before an H100 measured it slower; kept to compare on other GPUs.
void bsr_spmv_flat(const BsrView& a, const double* x, double* y);

}  // namespace tb::kernels::cuda
