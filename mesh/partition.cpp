#include "mesh/partition.hpp"

#include <string>

#include "solvers/core/error.hpp"

#ifdef TB_WITH_METIS
#include <metis.h>
#endif

namespace tb {

bool metis_available() {
#ifdef TB_WITH_METIS
  return true;
#else
  return false;
#endif
}

std::vector<index_t> row_work_weights(const Graph& g, index_t vector_blocks) {
  if (vector_blocks < 0) throw Error("row_work_weights: vector_blocks must not be negative");
  std::vector<index_t> w(std::size_t(g.size()));
  for (index_t v = 0; v < g.size(); ++v) w[std::size_t(v)] = vector_blocks + 1 + index_t(g.end(v) - g.begin(v));
  return w;
}

std::vector<index_t> partition_graph(const Graph& g, index_t parts, std::span<const index_t> weights) {
  if (parts < 1) throw Error("the number of partitions must be positive, not " + std::to_string(parts));
  if (!weights.empty() && weights.size() != std::size_t(g.size()))
    throw Error("partition weights: " + std::to_string(weights.size()) + " for a graph of " + std::to_string(g.size()) +
                " vertices");
  for (index_t w : weights)
    if (w < 1) throw Error("partition weights must be positive, got " + std::to_string(w));
  std::vector<index_t> part(g.size(), 0);
  if (parts == 1 || g.size() == 0) return part;
  if (parts > g.size())
    throw Error("cannot cut " + std::to_string(g.size()) + " cells into " + std::to_string(parts) + " partitions");
#ifdef TB_WITH_METIS
  static_assert(sizeof(idx_t) == sizeof(index_t) || sizeof(idx_t) == 8, "METIS idx_t is 32 or 64 bits");
  std::vector<idx_t> xadj(g.row_ptr.begin(), g.row_ptr.end());
  std::vector<idx_t> adjncy(g.col_idx.begin(), g.col_idx.end());
  std::vector<idx_t> vwgt(weights.begin(), weights.end());
  std::vector<idx_t> result(g.size());
  idx_t n = g.size(), ncon = 1, nparts = parts, objval = 0;
  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_SEED] = 1;  // same partition on every run
  const int status = METIS_PartGraphKway(&n, &ncon, xadj.data(), adjncy.data(), vwgt.empty() ? nullptr : vwgt.data(),
                                         nullptr, nullptr, &nparts, nullptr, nullptr, options, &objval, result.data());
  if (status != METIS_OK) throw Error("METIS_PartGraphKway failed with status " + std::to_string(status));
  for (index_t v = 0; v < g.size(); ++v) part[v] = static_cast<index_t>(result[v]);
  return part;
#else
  throw Error("partitioning needs METIS, which this build did not find (configure with WITH_METIS=ON)");
#endif
}

Permutation partition_ordering(const std::vector<index_t>& part, index_t parts) {
  std::vector<index_t> start(parts + 1, 0);
  for (index_t p : part) {
    if (p < 0 || p >= parts) throw Error("partition number " + std::to_string(p) + " is out of range");
    ++start[p + 1];
  }
  for (index_t p = 0; p < parts; ++p) start[p + 1] += start[p];
  std::vector<index_t> n2o(part.size());
  for (index_t v = 0; v < static_cast<index_t>(part.size()); ++v) n2o[start[part[v]]++] = v;
  return Permutation::from_new_to_old(std::move(n2o));
}

}  // namespace tb
