#pragma once
// Symbolic part of the multicolour point-implicit solver (seed 002 §II-III),
// built once per matrix pattern: the block rows are coloured so that no two rows
// of one colour are coupled, renumbered colour by colour (rows of colour k are
// bc[k] .. bc[k+1]-1, the paper's bc/ec arrays), and A = D + O is split into its
// diagonal blocks D and the off-diagonal blocks O in the paper's modified CSR
// (ia/ja without the diagonal), all in the new numbering.
#include <vector>

#include "solvers/matrix/bsr.hpp"

namespace tb::multicolor {

struct ColourPattern {
  index_t block_size = 1;
  index_t block_rows = 0;
  std::vector<index_t> new_to_old;  // block row placed at position i
  std::vector<index_t> old_to_new;
  std::vector<index_t> colour_begin;  // num_colours + 1 entries: bc[k] = colour_begin[k], ec[k] = colour_begin[k+1]-1
  std::vector<index_t> ia;            // block_rows + 1: O's row pointers (Eq. 1 without the diagonal)
  std::vector<index_t> ja;            // O's block columns, new numbering, sorted per row
  std::vector<index_t> o_source;      // for each O block, its position in the source BSR's values
  std::vector<index_t> d_source;      // for each new block row, the position of its diagonal block in the source

  index_t num_colours() const { return index_t(colour_begin.size()) - 1; }
  index_t colour_size(index_t k) const { return colour_begin[k + 1] - colour_begin[k]; }
};

// Greedy colouring of the symmetrised block graph, balanced when asked (the
// paper notes the last colours of a greedy colouring hold few rows), then the
// colour-major renumbering. Throws tb::Error naming the first block row without
// a diagonal block, or when the matrix is not square.
ColourPattern build_colour_pattern(const BsrMatrix& a, bool balance);

// True when no stored off-diagonal block couples two rows of the same colour.
bool colours_are_independent(const ColourPattern& p);

}  // namespace tb::multicolor
