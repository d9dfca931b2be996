#pragma once
// The exact Jacobian of the residual, second order included, by one-sided
// finite differences over a colouring of its columns (for studies:
// `jacobian.form = exact`). The paper's system keeps
// the analytic first-order Jacobian (jacobian_pattern.hpp); this one is the
// linearisation of the residual the pseudo-time iteration drives to zero.
//
// A cell's second-order residual reaches the gradient stencils of the cells
// across its faces (the limiter and the viscous flux reach no further): with
// seed 001's face-neighbour stencil every cell within two faces, in general
// every cell within two edges of the reconstruction graph (gradients.hpp).
// Columns that share no row take one colour: cells more than four edges apart
// (a distance-4 colouring of that graph, distance-2 of the Jacobian's), so
// each colour and variable costs one residual evaluation:
// 4 x colours evaluations per Jacobian. Symbolic work (pattern, colouring,
// positions) once per mesh; each assembly allocates nothing. A colour's
// perturbation and its columns are kernels.hpp's perturb_columns and
// difference_columns, so the assembly runs where the state lives: on the host
// from EulerDiscretisation's residual, or on a backend from ResidentFlow's
// (assemble_on), with the same bits on the host backend.
#include <memory>
#include <span>
#include <vector>

#include "physics/compressible/euler_discretisation.hpp"
#include "solvers/matrix/bsr.hpp"

namespace tb::compressible {

class ResidentFlow;
struct ColumnPattern;

class ColouredJacobian {
 public:
  // reach: reconstruction_graph(mesh, the discretisation's gradient stencil).
  explicit ColouredJacobian(const Graph& reach);

  // Block size 4, the cells within two edges of `reach` of each row, columns sorted; no values.
  const BsrMatrix& pattern() const { return pattern_; }
  index_t colours() const { return index_t(colour_start_.size()) - 1; }
  // The cells of colour c.
  std::span<const index_t> cells_of(index_t c) const {
    return {colour_cells_.data() + colour_start_[std::size_t(c)],
            std::size_t(colour_start_[std::size_t(c) + 1] - colour_start_[std::size_t(c)])};
  }

  // a = dr/dw at w, with r = disc.residual(w, order) given, plus shift[c] on
  // each diagonal block's diagonal (Eq. 1's V / dtau). Column (j, k) is
  // (r(w + h e_jk) - r(w)) / h, h = 1.49e-8 (1 + |w_jk|). a takes pattern()'s
  // pattern (its values are sized here).
  void assemble(EulerDiscretisation& disc, const std::vector<State>& w, const std::vector<State>& r, int order,
                std::span<const double> shift, BsrMatrix& a);
  // The same on flow's backend at its state, from its residual of `order`
  // (residual_values(), current) and its shift, into `values` there
  // (pattern()'s layout, overwritten). The pattern and the colours go there
  // at the first call, with two states of work space.
  void assemble_on(ResidentFlow& flow, int order, double* values);

  ColouredJacobian(const ColouredJacobian&) = delete;
  ColouredJacobian& operator=(const ColouredJacobian&) = delete;
  ~ColouredJacobian();

 private:
  struct OnBackend;
  ColumnPattern column_pattern() const;

  BsrMatrix pattern_;
  std::vector<index_t> diagonal_;         // position of each cell's diagonal block
  std::vector<index_t> colour_start_{0};  // colour c's cells: colour_cells_[start[c] .. start[c + 1])
  std::vector<index_t> colour_cells_;     // the cells in colour-major order (colour_ordering)
  std::vector<index_t> transposed_;       // per entry (j, i) of row j: the position of block (i, j)
  std::vector<State> trial_, trial_r_;    // the perturbed states and their residual
  std::unique_ptr<OnBackend> on_;         // assemble_on's copies and work space
};

}  // namespace tb::compressible
