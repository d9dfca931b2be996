#include "mesh/graph/line_detection.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "solvers/core/error.hpp"

namespace tb {

std::vector<double> anisotropy(const Graph& g, const std::vector<double>& weight) {
  std::vector<double> a(g.size(), 1.0);
  for (index_t v = 0; v < g.size(); ++v) {
    if (g.degree(v) < 2) continue;
    const auto first = weight.begin() + g.row_ptr[v], last = weight.begin() + g.row_ptr[v + 1];
    const auto [lo, hi] = std::minmax_element(first, last);
    a[v] = *lo > 0.0 ? *hi / *lo : std::numeric_limits<double>::infinity();
  }
  return a;
}

namespace {

// True when w is one of the two largest couplings of v.
bool among_two_strongest(const Graph& g, const std::vector<double>& weight, index_t v, double w) {
  index_t stronger = 0;
  for (index_t k = g.row_ptr[v]; k < g.row_ptr[v + 1]; ++k) stronger += weight[k] > w;
  return stronger < 2;
}

double weakest(const Graph& g, const std::vector<double>& weight, index_t v) {
  return *std::min_element(weight.begin() + g.row_ptr[v], weight.begin() + g.row_ptr[v + 1]);
}

}  // namespace

Lines detect_lines(const Graph& g, const std::vector<double>& weight, const std::vector<index_t>& seeds,
                   double threshold, index_t min_length) {
  TB_REQUIRE(weight.size() == g.col_idx.size(), "one coupling weight per adjacency entry");
  TB_REQUIRE(threshold >= 1.0, "the line anisotropy threshold must be at least 1");
  const std::vector<double> a = anisotropy(g, weight);
  Lines lines;
  lines.line_of.assign(g.size(), -1);
  for (index_t seed : seeds) {
    if (lines.line_of[seed] >= 0 || a[seed] < threshold) continue;
    const index_t id = lines.num_lines();
    const std::size_t first = lines.cells.size();
    lines.cells.push_back(seed);
    lines.line_of[seed] = id;
    for (index_t cur = seed;;) {
      index_t next = -1;
      double w = 0.0;
      for (index_t k = g.row_ptr[cur]; k < g.row_ptr[cur + 1]; ++k)
        if (lines.line_of[g.col_idx[k]] < 0 && weight[k] > w) next = g.col_idx[k], w = weight[k];
      if (next < 0 || a[next] < threshold || w < threshold * weakest(g, weight, cur) ||
          !among_two_strongest(g, weight, next, w))
        break;
      lines.cells.push_back(next);
      lines.line_of[next] = id;
      cur = next;
    }
    if (static_cast<index_t>(lines.cells.size() - first) < min_length) {
      for (std::size_t k = first; k < lines.cells.size(); ++k) lines.line_of[lines.cells[k]] = -1;
      lines.cells.resize(first);
      continue;
    }
    lines.line_ptr.push_back(static_cast<index_t>(lines.cells.size()));
  }
  return lines;
}

}  // namespace tb
