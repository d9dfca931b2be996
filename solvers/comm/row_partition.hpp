#pragma once
// The row-oriented decomposition (seed 004 §III-A). Rank p owns the contiguous
// rows [first(p), first(p) + rows(p)) of A, x and b. A rank may own no rows.
// Pure arithmetic, so the rooms that use it need no MPI to be built.
#include <span>
#include <vector>

#include "solvers/core/types.hpp"

namespace tb::comm {

// The part whose range [starts[p], starts[p+1]) holds row, for row in
// [0, starts.back()): a binary search that skips parts owning no rows.
int part_owning(std::span<const index_t> starts, index_t row);

struct RowPartition {
  std::vector<index_t> starts{0, 0};  // parts + 1, non-decreasing, starts[0] = 0

  int parts() const { return int(starts.size()) - 1; }
  index_t n() const { return starts.back(); }
  index_t first(int p) const { return starts[std::size_t(p)]; }
  index_t rows(int p) const { return starts[std::size_t(p) + 1] - starts[std::size_t(p)]; }
  int owner(index_t row) const { return part_owning(starts, row); }
};

// Equal slabs as §III-A asks; the first n % parts ranks get one row more.
RowPartition balanced_partition(index_t n, int parts);
// Slabs of the given sizes (tests: uneven splits, ranks with zero rows);
// tb::Error names the part with a negative size.
RowPartition partition_from_sizes(const std::vector<index_t>& rows);

}  // namespace tb::comm
