#pragma once
// The cell orderings of seed 001 section 5 applied to a matrix's block graph:
// natural, RCM, one-way dissection, line and line-1WD. A symmetric block
// permutation is applied to the BSR matrix once, before any solve, as the
// paper reorders its grid once in pre-processing.
#include <string>
#include <vector>

#include "mesh/graph/permutation.hpp"
#include "solvers/matrix/bsr.hpp"

namespace tb::bench {

struct Ordering {
  std::string name;
  Permutation permutation;
  index_t line_cells = 0;  // block rows in lines (line orderings only)
};

// The orderings the study compares, in a fixed order. Lines follow the
// strongest couplings (Frobenius norms of the off-diagonal blocks) with the
// mesh module's detector (seed 001 section 5.1), seeded from every block row.
std::vector<Ordering> study_orderings(const BsrMatrix& a);

// B = P A P^T on block rows: B(i, j) = A(new_to_old[i], new_to_old[j]).
BsrMatrix permute_symmetric(const BsrMatrix& a, const Permutation& p);

}  // namespace tb::bench
