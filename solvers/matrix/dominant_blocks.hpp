#pragma once
// Seed 002 §V's test values on a given block pattern: random blocks, strictly
// diagonally dominant by rows. The pattern is an adjacency (CSR, each row
// sorted, no self loops, e.g. a mesh's node graph); the diagonal block is added
// to every row. The same seed gives the same matrix on every platform.
#include <span>

#include "bsr.hpp"

namespace tb {

// Every entry uniform in [-1, 1], then each diagonal entry set to its row's
// off-diagonal absolute sum times a uniform factor in [1.1, 1.6] (a margin of
// 10-60 %). Throws tb::Error on an unsorted row, a self loop, a column out of
// range, a block size outside 1..max_block_size, or a size past 32-bit indices.
BsrMatrix dominant_block_matrix(std::span<const index_t> adjacency_ptr, std::span<const index_t> adjacency_idx,
                                index_t block_size, unsigned seed);

}  // namespace tb
