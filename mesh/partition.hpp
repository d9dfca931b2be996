#pragma once
// k-way graph partitions for distributed runs (METIS_PartGraphKway).
#include <span>
#include <vector>

#include "mesh/graph/permutation.hpp"

namespace tb {

// True when the build found METIS; otherwise partition_graph throws tb::Error.
bool metis_available();

// Part of each vertex, 0..parts-1, with few cut edges and parts about equal
// in size (METIS's default imbalance tolerance, 3%): in vertices, or in the
// vertices' weights where given (one positive weight each). Deterministic
// for a given graph.
std::vector<index_t> partition_graph(const Graph& g, index_t parts, std::span<const index_t> weights = {});

// The work of each vertex's row in a Krylov solve on a matrix with this
// graph, in blocks: its 1 + degree blocks (the sparse product and the
// triangular solves read each once) plus `vector_blocks` for its share of
// the vector kernels. Parts balanced in cells alone are not balanced in work
// where degrees vary: unweighted parts of the medium NACA0012 mesh hold
// 8,128 to 10,051 blocks on 16 ranks (the boundary layer's quadrilaterals
// have four neighbours, the triangles three).
std::vector<index_t> row_work_weights(const Graph& g, index_t vector_blocks);

// vector_blocks for a row of 4x4 blocks in GMRES(10) with BILU(0), what
// tb-comp2d's mesh.partition = work uses: some 15 vector passes of 32 bytes an
// iteration, against 2 x 128 bytes a block in the product and BILU(0)'s solves.
inline constexpr index_t gmres_bilu0_vector_blocks = 2;

// Part-major order, original order kept within a part: each rank's cells contiguous.
Permutation partition_ordering(const std::vector<index_t>& part, index_t parts);

}  // namespace tb
