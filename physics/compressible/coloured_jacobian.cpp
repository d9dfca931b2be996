#include "physics/compressible/coloured_jacobian.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "mesh/graph/colouring.hpp"
#include "solvers/core/error.hpp"

namespace tb::compressible {

ColouredJacobian::ColouredJacobian(const Graph& cells) {
  const index_t n = cells.size();
  // Rows: each cell and the cells within two edges of it, sorted.
  const Graph reach = graph_power(cells, 2);
  pattern_.block_size = num_vars;
  pattern_.block_rows = pattern_.block_cols = n;
  pattern_.row_ptr.assign(std::size_t(n) + 1, 0);
  pattern_.col_idx.reserve(reach.col_idx.size() + std::size_t(n));
  for (index_t i = 0; i < n; ++i) {
    const index_t* diag = std::lower_bound(reach.begin(i), reach.end(i), i);
    pattern_.col_idx.insert(pattern_.col_idx.end(), reach.begin(i), diag);
    pattern_.col_idx.push_back(i);
    pattern_.col_idx.insert(pattern_.col_idx.end(), diag, reach.end(i));
    pattern_.row_ptr[std::size_t(i) + 1] = pattern_.nnz_blocks();
  }
  diagonal_ = pattern_.diagonal_positions();
  // The pattern is symmetric: column j's rows are row j's columns, and block
  // (i, j) is found in row i.
  transposed_.resize(pattern_.col_idx.size());
  for (index_t j = 0; j < n; ++j)
    for (index_t e = pattern_.row_ptr[std::size_t(j)]; e < pattern_.row_ptr[std::size_t(j) + 1]; ++e)
      transposed_[std::size_t(e)] = pattern_.find_block(pattern_.col_idx[std::size_t(e)], j);
  // Columns j and k share a row when some cell is within two edges of both.
  const Colouring c = greedy_colouring(graph_power(cells, 4));
  colour_cells_ = colour_ordering(c).new_to_old;
  for (index_t size : c.sizes()) colour_start_.push_back(colour_start_.back() + size);
}

void ColouredJacobian::assemble(EulerDiscretisation& disc, const std::vector<State>& w, const std::vector<State>& r,
                                int order, std::span<const double> shift, BsrMatrix& a) {
  const std::size_t n = std::size_t(pattern_.block_rows);
  if (w.size() != n || r.size() != n || shift.size() != n)
    throw Error("coloured Jacobian: states, residuals and shifts for " + std::to_string(w.size()) + ", " +
                std::to_string(r.size()) + " and " + std::to_string(shift.size()) + " cells, the mesh has " +
                std::to_string(n));
  if (!a.same_pattern(pattern_)) a = pattern_;
  a.values.resize(std::size_t(a.nnz_blocks()) * std::size_t(a.block_entries()));
  trial_ = w;
  for (index_t c = 0; c < colours(); ++c) {
    for (std::size_t k = 0; k < num_vars; ++k) {
      // 2^-26: the square root of the unit roundoff, as the difference's step.
      const auto step = [&](index_t j) { return 1.4901161193847656e-08 * (1.0 + std::abs(w[std::size_t(j)][k])); };
      for (index_t j : cells_of(c)) trial_[std::size_t(j)][k] = w[std::size_t(j)][k] + step(j);
      disc.residual(trial_, order, trial_r_);
      for (index_t j : cells_of(c)) {
        const auto jj = std::size_t(j);
        // The step as it was represented, not as it was asked for.
        const double h = trial_[jj][k] - w[jj][k];
        trial_[jj][k] = w[jj][k];
        for (index_t e = pattern_.row_ptr[jj]; e < pattern_.row_ptr[jj + 1]; ++e) {
          const auto i = std::size_t(pattern_.col_idx[std::size_t(e)]);
          double* block = a.block(transposed_[std::size_t(e)]);
          for (std::size_t m = 0; m < num_vars; ++m) block[m * num_vars + k] = (trial_r_[i][m] - r[i][m]) / h;
        }
      }
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    double* d = a.block(diagonal_[i]);
    for (std::size_t m = 0; m < num_vars; ++m) d[m * num_vars + m] += shift[i];
  }
}

}  // namespace tb::compressible
