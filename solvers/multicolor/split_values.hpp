#pragma once
// Numeric part (seed 002 §II), refilled whenever A's values change: D holds the
// diagonal blocks in fp64, each LU-factored in place without pivoting (unit L
// below the diagonal, U on and above), and O the off-diagonal blocks in fp32
// (mixed precision, the paper's default: half the bytes of the dominant stream)
// or fp64. Blocks are row-major like the source BSR, so the host kernels read a
// block row contiguously.
#include <vector>

#include "colour_pattern.hpp"

namespace tb::multicolor {

enum class Precision { mixed, fp64 };

struct SplitValues {
  Precision precision = Precision::mixed;
  std::vector<double> d;    // block_rows blocks, LU-factored
  std::vector<float> o32;   // nnz(O) blocks when precision is mixed
  std::vector<double> o64;  // nnz(O) blocks when precision is double
};

// Sizes the arrays once per pattern.
SplitValues allocate_split_values(const ColourPattern& p, Precision precision);

// Gathers A's values into D and O and factors D. Throws tb::Error naming the
// (original) block row whose diagonal block has a zero or non-finite pivot.
void fill_split_values(const ColourPattern& p, const BsrMatrix& a, SplitValues& v);

// In-place LU without pivoting of one n x n row-major block; false on a zero or
// non-finite pivot.
bool factor_block_lu(double* block, index_t n);

}  // namespace tb::multicolor
