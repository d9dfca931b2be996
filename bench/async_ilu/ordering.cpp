#include "ordering.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>

#include "mesh/graph/graph.hpp"
#include "mesh/graph/line_detection.hpp"
#include "mesh/graph/line_ordering.hpp"
#include "mesh/graph/one_way_dissection.hpp"
#include "mesh/graph/rcm.hpp"

namespace tb::bench {

namespace {

double block_norm(const BsrMatrix& a, index_t p) {
  double s = 0.0;
  for (index_t e = 0; e < a.block_entries(); ++e) s += a.block(p)[e] * a.block(p)[e];
  return std::sqrt(s);
}

// Coupling strength per adjacency entry of g: the larger of ||A_ij|| and ||A_ji||.
std::vector<double> coupling_weights(const BsrMatrix& a, const Graph& g) {
  std::vector<double> w(g.col_idx.size(), 0.0);
  for (index_t i = 0; i < g.size(); ++i)
    for (index_t e = g.row_ptr[i]; e < g.row_ptr[i + 1]; ++e) {
      const index_t j = g.col_idx[e];
      const index_t pij = a.find_block(i, j), pji = a.find_block(j, i);
      w[e] = std::max(pij >= 0 ? block_norm(a, pij) : 0.0, pji >= 0 ? block_norm(a, pji) : 0.0);
    }
  return w;
}

}  // namespace

BsrMatrix permute_symmetric(const BsrMatrix& a, const Permutation& p) {
  BsrMatrix b;
  b.block_size = a.block_size;
  b.block_rows = b.block_cols = a.block_rows;
  b.row_ptr.assign(1, 0);
  const std::size_t nb = std::size_t(a.block_entries());
  std::vector<std::pair<index_t, index_t>> row;  // (new column, old position)
  for (index_t i = 0; i < a.block_rows; ++i) {
    const index_t old = p.new_to_old[std::size_t(i)];
    row.clear();
    for (index_t k = a.row_ptr[old]; k < a.row_ptr[old + 1]; ++k)
      row.emplace_back(p.old_to_new[std::size_t(a.col_idx[k])], k);
    std::sort(row.begin(), row.end());
    for (const auto& [col, k] : row) {
      b.col_idx.push_back(col);
      b.values.insert(b.values.end(), a.block(k), a.block(k) + nb);
    }
    b.row_ptr.push_back(index_t(b.col_idx.size()));
  }
  return b;
}

std::vector<Ordering> study_orderings(const BsrMatrix& a) {
  const Graph g = graph_from_pattern(a.block_rows, a.row_ptr.data(), a.col_idx.data());
  std::vector<index_t> seeds(std::size_t(g.size()));
  std::iota(seeds.begin(), seeds.end(), 0);
  const Lines lines = detect_lines(g, coupling_weights(a, g), seeds, 4.0, 2);
  std::vector<Ordering> out;
  out.push_back({"natural", Permutation::identity(a.block_rows), 0});
  out.push_back({"rcm", rcm_ordering(g), 0});
  out.push_back({"1wd", one_way_dissection_ordering(g), 0});
  out.push_back({"line", line_ordering(g, lines, LineCoarseOrder::Natural), lines.num_line_cells()});
  out.push_back({"line-1wd", line_ordering(g, lines, LineCoarseOrder::OneWayDissection), lines.num_line_cells()});
  return out;
}

}  // namespace tb::bench
