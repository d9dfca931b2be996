#pragma once
#include "mesh/graph/permutation.hpp"

namespace tb {

// One-way dissection (George, SIAM J. Numer. Anal. 17, 1980; George & Liu 1981
// §7.3, GEN1WD/FN1WD): per component a long rooted level structure, separators
// taken from every delta-th level (delta = sqrt((3w+13)/2), w the average level
// width) cut it into independent blocks; blocks are numbered first, each by its
// own level structure, separators last, and the result reversed as in GEN1WD.
Permutation one_way_dissection_ordering(const Graph& g);

// The ordering with its block partition (GEN1WD's XBLK): block b holds new
// indices block_ptr[b] .. block_ptr[b+1]; separator blocks (one per component)
// come after their component's independent blocks, which share no edge.
struct OneWayDissection {
  Permutation permutation;
  std::vector<index_t> block_ptr{0};
  std::vector<char> separator_block;  // per block
};
OneWayDissection one_way_dissection(const Graph& g);

}  // namespace tb
