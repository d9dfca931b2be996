#pragma once
#include "mesh/graph/permutation.hpp"

namespace tb {

// Reverse Cuthill-McKee (George & Liu 1981, GENRCM): per connected component a
// pseudo-peripheral root, breadth-first numbering with neighbours by increasing
// degree, then the whole order reversed. Reduces bandwidth and profile.
Permutation rcm_ordering(const Graph& g);

}  // namespace tb
