#include "colour_pattern.hpp"

#include <algorithm>
#include <numeric>
#include <string>

#include "mesh/graph/colouring.hpp"
#include "solvers/core/error.hpp"

namespace tb::multicolor {

namespace {

std::vector<index_t> colour_offsets(const Colouring& c) {
  std::vector<index_t> begin(std::size_t(c.num_colours) + 1, 0);
  for (index_t colour : c.colour) ++begin[colour + 1];
  std::partial_sum(begin.begin(), begin.end(), begin.begin());
  return begin;
}

// O's pattern in the new numbering: each new row takes its old row's blocks
// except the diagonal, columns renamed and sorted (the source positions travel
// with them, so update() is a gather).
void split_off_diagonal(const BsrMatrix& a, ColourPattern& p) {
  p.ia.assign(std::size_t(p.block_rows) + 1, 0);
  p.d_source.assign(std::size_t(p.block_rows), -1);
  std::vector<std::pair<index_t, index_t>> row;  // (new column, source position)
  for (index_t i = 0; i < p.block_rows; ++i) {
    const index_t old = p.new_to_old[i];
    row.clear();
    for (index_t k = a.row_ptr[old]; k < a.row_ptr[old + 1]; ++k) {
      if (a.col_idx[k] == old)
        p.d_source[i] = k;
      else
        row.emplace_back(p.old_to_new[a.col_idx[k]], k);
    }
    if (p.d_source[i] < 0) throw Error("multicolor: block row " + std::to_string(old) + " has no diagonal block");
    std::sort(row.begin(), row.end());
    for (const auto& [col, src] : row) {
      p.ja.push_back(col);
      p.o_source.push_back(src);
    }
    p.ia[i + 1] = index_t(p.ja.size());
  }
}

}  // namespace

ColourPattern build_colour_pattern(const BsrMatrix& a, bool balance) {
  if (a.block_rows != a.block_cols)
    throw Unsupported("multicolor: the matrix must be square, got " + std::to_string(a.block_rows) + " x " +
                      std::to_string(a.block_cols) + " blocks");
  const Graph g = graph_from_pattern(a.block_rows, a.row_ptr.data(), a.col_idx.data());
  Colouring c = greedy_colouring(g);
  if (balance) balance_colours(g, c);
  const Permutation order = colour_ordering(c);

  ColourPattern p;
  p.block_size = a.block_size;
  p.block_rows = a.block_rows;
  p.new_to_old = order.new_to_old;
  p.old_to_new = order.old_to_new;
  p.colour_begin = colour_offsets(c);
  split_off_diagonal(a, p);
  return p;
}

bool colours_are_independent(const ColourPattern& p) {
  std::vector<index_t> colour(std::size_t(p.block_rows));
  for (index_t k = 0; k < p.num_colours(); ++k)
    for (index_t i = p.colour_begin[k]; i < p.colour_begin[k + 1]; ++i) colour[i] = k;
  for (index_t i = 0; i < p.block_rows; ++i)
    for (index_t k = p.ia[i]; k < p.ia[i + 1]; ++k)
      if (colour[p.ja[k]] == colour[i]) return false;
  return true;
}

}  // namespace tb::multicolor
