#pragma once
// The scalar variant of seed 001 (Chow-Patel ILU(0), Alg. 3/4) works on the
// scalar pattern of A's blocks: every entry of every stored block, zeros
// included, so scalar and block ILU(0) have the same number of unknowns
// (section 6). The expansion is symbolic, done once per pattern; `source`
// maps each scalar entry to its place in the BSR values for numeric updates.
#include <span>
#include <vector>

#include "solvers/matrix/bsr.hpp"

namespace tb::async_ilu {

struct ScalarPattern {
  BsrMatrix scalar;             // block size 1, rows numbered as A's scalar rows
  std::vector<index_t> source;  // scalar.values[q] = a.values[source[q]]
};

ScalarPattern expand_to_scalar(const BsrMatrix& a);
// Copies A's values into the scalar pattern's order.
void gather_scalar_values(const ScalarPattern& s, std::span<const double> bsr_values, std::span<double> out);

}  // namespace tb::async_ilu
