#pragma once
// The finest level of the hierarchy: a scalar matrix on a structured grid read
// as its 7-point stencil plus a remainder. The grid is given, or inferred from
// the column offsets the rows share (1, ni, ni * nj); an entry that couples a
// cell to one of its face neighbours goes to the stencil, any other (the
// immersed boundary's image-point rows, periodic wrap-around columns) to the
// remainder, held as CSR. Which entry goes where is found once per pattern;
// new values are then copied without searching.
#include <vector>

#include "kernels.hpp"
#include "solvers/matrix/bsr.hpp"

namespace tb::mg {

// The directions whose extent exceeds 1 (bit 0: i, 1: j, 2: k).
int active_directions(const StructuredIndex& g);
// The star (2 d + 1 points) and the box (3^d points) over the active directions.
StencilPoints star_points(int active);
StencilPoints box_points(int active);
// view.offset from the points on view.grid.
void set_offsets(StencilView& view, const StencilPoints& points);

// The grid of a scalar square matrix: `given` when not null (every extent >= 1,
// checked against the rows), else the smallest offset > 1 shared by a quarter
// of the rows as ni and the smallest multiple of ni above it as ni * nj.
// Throws tb::Error when the matrix is not scalar or square, or the rows share no
// such offsets, saying to give nx, ny, nz.
StructuredIndex infer_grid(const BsrMatrix& a, const StructuredIndex* given = nullptr);

struct StructuredOperator {
  StructuredIndex grid;
  StencilPoints points;                     // the star
  std::vector<double> coef;                 // [points][cells], zero off the grid
  std::vector<index_t> rest_ptr, rest_col;  // the remainder (rest_ptr empty when none)
  std::vector<double> rest_val;
  std::vector<index_t> irregular_rows;   // the rows with remainder entries
  std::vector<unsigned char> irregular;  // per cell
  std::vector<index_t> place;            // per stored entry: coefficient (>= 0) or -1 - remainder position
  bool symmetric = false;                // of the values last read, to 1e-12 relative
  // The scale the hierarchy gives each irregular row (row_scale, per irregular
  // row; cell_scale, per cell: 1 for the others), where the operator is
  // nonsymmetric: an immersed boundary's image-point rows are equations of
  // size 1 beside fluid rows of size 1/h^2, and the Galerkin product weighs
  // them as their rows are scaled. Each is scaled to the largest diagonal of
  // its regular neighbours, so that P^T S A P sees the boundary condition as
  // strongly as the fluid's equations; the cycle restricts S r. Empty where
  // no row is scaled (a symmetric operator keeps its rows: periodic columns).
  std::vector<double> row_scale, cell_scale;

  bool has_remainder() const { return !rest_col.empty(); }
  bool scaled() const { return !row_scale.empty(); }
  // Host pointers; `with_remainder` false leaves the remainder out.
  StencilView view(bool with_remainder = true) const;
};

// Symbolic and numeric. Throws tb::Error when more than half of the
// off-diagonal entries lie outside the stencil (not a structured system).
StructuredOperator structured_operator(const BsrMatrix& a, const StructuredIndex& grid);
// Numeric only: a's values on the pattern read by structured_operator.
void update_values(const BsrMatrix& a, StructuredOperator& op);

}  // namespace tb::mg
