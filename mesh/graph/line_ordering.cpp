#include "mesh/graph/line_ordering.hpp"

#include "mesh/graph/one_way_dissection.hpp"
#include "mesh/graph/rcm.hpp"
#include "solvers/core/error.hpp"

namespace tb {

ContractedGraph contract_lines(const Graph& g, const Lines& lines) {
  TB_REQUIRE(static_cast<index_t>(lines.line_of.size()) == g.size(), "lines were found on a graph of another size");
  ContractedGraph c;
  std::vector<index_t> vertex_of(g.size(), -1);
  std::vector<index_t> vertex_of_line(lines.num_lines(), -1);
  for (index_t v = 0; v < g.size(); ++v) {
    const index_t l = lines.line_of[v];
    if (l < 0) {
      vertex_of[v] = static_cast<index_t>(c.member_ptr.size()) - 1;
      c.members.push_back(v);
      c.member_ptr.push_back(static_cast<index_t>(c.members.size()));
    } else if (vertex_of_line[l] < 0) {
      vertex_of_line[l] = static_cast<index_t>(c.member_ptr.size()) - 1;
      for (index_t k = lines.line_ptr[l]; k < lines.line_ptr[l + 1]; ++k) {
        vertex_of[lines.cells[k]] = vertex_of_line[l];
        c.members.push_back(lines.cells[k]);
      }
      c.member_ptr.push_back(static_cast<index_t>(c.members.size()));
    }
  }
  std::vector<std::pair<index_t, index_t>> edges;
  for (index_t v = 0; v < g.size(); ++v)
    for (const index_t* u = g.begin(v); u != g.end(v); ++u)
      if (*u > v && vertex_of[*u] != vertex_of[v]) edges.push_back({vertex_of[v], vertex_of[*u]});
  c.graph = graph_from_edges(static_cast<index_t>(c.member_ptr.size()) - 1, edges);
  return c;
}

Permutation line_ordering(const Graph& g, const Lines& lines, LineCoarseOrder coarse) {
  const ContractedGraph c = contract_lines(g, lines);
  const Permutation order = coarse == LineCoarseOrder::Rcm                ? rcm_ordering(c.graph)
                            : coarse == LineCoarseOrder::OneWayDissection ? one_way_dissection_ordering(c.graph)
                                                                          : Permutation::identity(c.graph.size());
  std::vector<index_t> n2o;
  n2o.reserve(g.size());
  for (index_t k : order.new_to_old)
    for (index_t m = c.member_ptr[k]; m < c.member_ptr[k + 1]; ++m) n2o.push_back(c.members[m]);
  return Permutation::from_new_to_old(std::move(n2o));
}

Lines permute_lines(const Lines& lines, const Permutation& p) {
  Lines out = lines;
  for (index_t& v : out.cells) v = p.old_to_new[v];
  out.line_of = permute_values(lines.line_of, p);
  return out;
}

}  // namespace tb
