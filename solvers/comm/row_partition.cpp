#include "row_partition.hpp"

#include <algorithm>
#include <string>

#include "solvers/core/error.hpp"

namespace tb::comm {

int part_owning(std::span<const index_t> starts, index_t row) {
  // The last part whose range starts at or before row: empty parts share
  // their start with the next one and are skipped by upper_bound.
  return int(std::upper_bound(starts.begin(), starts.end(), row) - starts.begin()) - 1;
}

RowPartition balanced_partition(index_t n, int parts) {
  if (parts < 1) throw Error("row partition: " + std::to_string(parts) + " parts; expected at least 1");
  if (n < 0) throw Error("row partition: " + std::to_string(n) + " rows; expected at least 0");
  RowPartition p;
  p.starts.assign(std::size_t(parts) + 1, 0);
  const index_t base = n / parts, extra = n % parts;
  for (int q = 0; q < parts; ++q) p.starts[std::size_t(q) + 1] = p.starts[std::size_t(q)] + base + (q < extra);
  return p;
}

RowPartition partition_from_sizes(const std::vector<index_t>& rows) {
  if (rows.empty()) throw Error("row partition: no parts given");
  RowPartition p;
  p.starts.assign(1, 0);
  for (std::size_t q = 0; q < rows.size(); ++q) {
    if (rows[q] < 0)
      throw Error("row partition: part " + std::to_string(q) + " has " + std::to_string(rows[q]) +
                  " rows; expected at least 0");
    p.starts.push_back(p.starts.back() + rows[q]);
  }
  return p;
}

}  // namespace tb::comm
