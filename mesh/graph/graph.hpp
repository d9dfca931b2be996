#pragma once
// Undirected graphs in compressed adjacency form: the cell adjacency of a mesh
// (mesh/mesh_graph.hpp) or the block pattern of a matrix. Symmetric, no self loops, sorted rows.
#include <utility>
#include <vector>

#include "solvers/core/types.hpp"

namespace tb {

struct Graph {
  std::vector<index_t> row_ptr{0};
  std::vector<index_t> col_idx;

  index_t size() const { return static_cast<index_t>(row_ptr.size()) - 1; }
  index_t degree(index_t v) const { return row_ptr[v + 1] - row_ptr[v]; }
  const index_t* begin(index_t v) const { return col_idx.data() + row_ptr[v]; }
  const index_t* end(index_t v) const { return col_idx.data() + row_ptr[v + 1]; }
  index_t num_edges() const { return static_cast<index_t>(col_idx.size()) / 2; }
};

// From a list of undirected edges; duplicates and self loops are dropped.
Graph graph_from_edges(index_t n, const std::vector<std::pair<index_t, index_t>>& edges);

// From the pattern of an n-by-n sparse matrix (CSR row_ptr/col_idx, e.g. a BSR
// matrix's block pattern): symmetrised, diagonal dropped. Throws tb::Error on a
// column index out of range.
Graph graph_from_pattern(index_t n, const index_t* row_ptr, const index_t* col_idx);

// The graph joining vertices that are at most `hops` edges apart in g (hops >=
// 1; hops = 1 gives g). Its distance-1 colourings are distance-`hops`
// colourings of g: a finite-difference Jacobian whose rows reach `r` edges
// colours its columns with hops = 2 r, so that no two columns of a colour
// share a row. Throws tb::Error on hops < 1.
Graph graph_power(const Graph& g, int hops);

}  // namespace tb
