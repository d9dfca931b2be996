#pragma once
// k-way graph partitions for distributed runs (METIS_PartGraphKway).
#include <vector>

#include "mesh/graph/permutation.hpp"

namespace tb {

// True when the build found METIS; otherwise partition_graph throws tb::Error.
bool metis_available();

// Part of each vertex, 0..parts-1, parts about equal in size (METIS's default
// imbalance tolerance, 3%) with few cut edges. Deterministic for a given graph.
std::vector<index_t> partition_graph(const Graph& g, index_t parts);

// Part-major order, original order kept within a part: each rank's cells contiguous.
Permutation partition_ordering(const std::vector<index_t>& part, index_t parts);

}  // namespace tb
