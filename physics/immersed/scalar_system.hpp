#pragma once
// The scalar systems of seed 004 on the immersed-boundary grid, all one
// pattern per body position (block size 1):
//   fluid rows  alpha phi_P + beta (-delta^2 phi)_P  with delta^2 of Eq. 7:
//               Eq. 5 (Crank-Nicolson advection-diffusion) has alpha = 1, beta = dt nu / 2;
//               Eq. 6 (pressure Poisson) has alpha = 0, beta = 1;
//   ghost rows  phi_G - sum_k w_k phi_k (ghost_cells.hpp), Dirichlet or Neumann;
//   solid rows  the identity (their values are never read by a fluid row).
// Box faces are Dirichlet (the value sits on the face, half a cell from the
// centre) or Neumann with zero gradient. On a rank's piece of the grid
// (CartesianGrid::piece) the rows, right-hand sides and Laplacians are the
// owned cells' and the columns the whole grid's: the rank's rows of the
// distributed system; the ghost planes' cells are only read.
#include <array>
#include <functional>
#include <span>
#include <vector>

#include "physics/immersed/ghost_cells.hpp"
#include "solvers/matrix/bsr.hpp"

namespace tb::immersed {

// Per box side 2 d + (0 low, 1 high).
using BoxConditions = std::array<FaceKind, 6>;
enum class BodyCondition : std::uint8_t { dirichlet, neumann };

inline constexpr int side_of(int d, int s) { return 2 * d + (s > 0 ? 1 : 0); }

struct SystemPattern {
  BsrMatrix matrix;               // the pattern, values zero
  std::vector<index_t> diagonal;  // per cell
  std::vector<std::array<index_t, 6>>
      neighbour;  // per cell: position of the (d, s) neighbour, slot side_of(d, s); -1 at the box
  // Per ghost (owned): the position of each entry of its Dirichlet and Neumann stencils (GhostCell).
  std::vector<std::vector<index_t>> ghost_dirichlet, ghost_neumann;
};

// Symbolic work, once per body position.
SystemPattern make_system_pattern(const CartesianGrid& grid, const GhostCells& ib);

// Eq. 7's coefficient between cell c and its (d, s) neighbour, or the box face.
double eq7_coefficient(const CartesianGrid& grid, const std::array<index_t, 3>& c, int d, int s);
bool has_neighbour(const CartesianGrid& grid, const std::array<index_t, 3>& c, int d, int s);

// The ghost rows' stencils of one body condition, flattened for the ghost_rows
// kernel (kernels.hpp): per ghost, the positions of its entries in p's matrix
// and their weights. Symbolic work, once per body position.
FlatStencils ghost_row_stencils(const GhostCells& ib, const SystemPattern& p, BodyCondition body);

// Where the system_rows kernel writes the rows of `values` (p's pattern) and how it weights them.
cell::RowsView rows_view(const SystemPattern& p, const BoxConditions& box, double alpha, double beta, double* values);

// Numeric work: the values of the matrix into a (which has p's pattern), by
// the system_rows and ghost_rows kernels on the host.
void assemble_system(const CartesianGrid& grid, const GhostCells& ib, const SystemPattern& p, const BoxConditions& box,
                     BodyCondition body, double alpha, double beta, BsrMatrix& a);

// Boundary values: a function of the box side and the face centre.
using FaceValue = std::function<double(int side, const Vec3& x)>;

// rhs_P += beta * coefficient * value on the Dirichlet box faces of fluid cells.
void add_box_values(const CartesianGrid& grid, const GhostCells& ib, const BoxConditions& box, double beta,
                    const FaceValue& value, std::span<double> rhs);

// The ghost rows' right-hand sides; `value` gives phi_B (Dirichlet) or dphi/dn (Neumann) at a ghost's B.
void set_ghost_rhs(const GhostCells& ib, BodyCondition body, const std::function<double(const GhostCell&)>& value,
                   std::span<double> rhs);

// out_P = (delta^2 phi)_P (the Laplacian, Eq. 7 with its sign turned to +) on fluid cells, 0 elsewhere.
void apply_laplacian(const CartesianGrid& grid, const GhostCells& ib, const BoxConditions& box, const FaceValue& value,
                     std::span<const double> phi, std::span<double> out);

}  // namespace tb::immersed
