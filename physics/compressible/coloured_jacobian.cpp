#include "physics/compressible/coloured_jacobian.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "mesh/graph/colouring.hpp"
#include "physics/compressible/kernels.hpp"
#include "physics/compressible/resident_flow.hpp"
#include "solvers/core/array.hpp"
#include "solvers/core/error.hpp"

namespace tb::compressible {

struct ColouredJacobian::OnBackend {
  Backend backend;
  Array<index_t> row_ptr, col_idx, transposed, diagonal, colour_cells;
  Vector trial, trial_r;
  OnBackend(Backend b, const BsrMatrix& p, std::span<const index_t> t, std::span<const index_t> d,
            std::span<const index_t> cells)
      : backend(b),
        row_ptr(b, std::span<const index_t>(p.row_ptr)),
        col_idx(b, std::span<const index_t>(p.col_idx)),
        transposed(b, t),
        diagonal(b, d),
        colour_cells(b, cells),
        trial(b, std::size_t(p.block_rows) * num_vars),
        trial_r(b, std::size_t(p.block_rows) * num_vars) {}
};

ColouredJacobian::~ColouredJacobian() = default;

ColumnPattern ColouredJacobian::column_pattern() const {
  return {pattern_.row_ptr.data(), pattern_.col_idx.data(), transposed_.data()};
}

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
  const ColumnPattern p = column_pattern();
  const double* ws = w.front().data();
  double* trial = trial_.front().data();
  for (index_t c = 0; c < colours(); ++c) {
    const std::span<const index_t> cells = cells_of(c);
    for (int k = 0; k < num_vars; ++k) {
      kernels::perturb_columns(Backend::host, cells.data(), index_t(cells.size()), k, ws, trial);
      disc.residual(trial_, order, trial_r_);
      kernels::difference_columns(Backend::host, p, cells.data(), index_t(cells.size()), k, ws, r.front().data(),
                                  trial_r_.front().data(), trial, a.values.data());
    }
  }
  kernels::add_diagonal_shift(Backend::host, index_t(n), diagonal_.data(), shift.data(), a.values.data());
}

void ColouredJacobian::assemble_on(ResidentFlow& flow, int order, double* values) {
  const Backend b = flow.backend();
  if (flow.num_cells() != pattern_.block_rows)
    throw Error("internal: a coloured Jacobian of " + std::to_string(pattern_.block_rows) + " cells on a flow of " +
                std::to_string(flow.num_cells()));
  if (!on_ || on_->backend != b) on_ = std::make_unique<OnBackend>(b, pattern_, transposed_, diagonal_, colour_cells_);
  OnBackend& d = *on_;
  d.trial.copy_from(flow.state_array());
  const ColumnPattern p{d.row_ptr.data(), d.col_idx.data(), d.transposed.data()};
  for (index_t c = 0; c < colours(); ++c) {
    const index_t* cells = d.colour_cells.data() + colour_start_[std::size_t(c)];
    const index_t count = colour_start_[std::size_t(c) + 1] - colour_start_[std::size_t(c)];
    for (int k = 0; k < num_vars; ++k) {
      kernels::perturb_columns(b, cells, count, k, flow.state(), d.trial.data());
      flow.residual_of(d.trial.data(), order, d.trial_r.data());
      kernels::difference_columns(b, p, cells, count, k, flow.state(), flow.residual_values(), d.trial_r.data(),
                                  d.trial.data(), values);
    }
  }
  kernels::add_diagonal_shift(b, pattern_.block_rows, d.diagonal.data(), flow.shift(), values);
}

}  // namespace tb::compressible
