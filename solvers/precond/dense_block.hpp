#pragma once
// Small dense block kernels shared by the block preconditioners: a block is
// n x n, row-major, contiguous (the BSR layout).
#include "solvers/core/types.hpp"

namespace tb::dense {

// In-place inverse by Gauss-Jordan elimination with partial pivoting. Returns
// false, leaving the block undefined, when a pivot is zero or not finite.
bool invert(double* a, index_t n);
// c = a * b
void multiply(const double* a, const double* b, double* c, index_t n);
// c -= a * b
void multiply_subtract(const double* a, const double* b, double* c, index_t n);
// y = a x
void matvec(const double* a, const double* x, double* y, index_t n);
// y -= a x
void matvec_subtract(const double* a, const double* x, double* y, index_t n);

}  // namespace tb::dense
