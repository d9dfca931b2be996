#pragma once
// The cell-centred Cartesian grid of the immersed-boundary solver (seed 004,
// §II-B): per-direction stretched nodes, cell centres and widths, the layout
// (i fastest) of every field and matrix row. Unlike the incompressible room's
// FvGrid it is always three-dimensional, may start anywhere in space and has no
// periodic directions; the nodes come from mesh/structured (uniform, tanh) or
// from clustered_axis_nodes, which refines a box around the body.
#include <array>
#include <vector>

#include "mesh/structured/slab.hpp"
#include "mesh/structured/structured_grid.hpp"
#include "physics/immersed/grid_view.hpp"

namespace tb::immersed {

using Vec3 = std::array<double, 3>;

// Nodes from lo to hi with uniform width h inside [core_lo, core_hi] and widths
// growing by `ratio` per cell towards both ends (the last cell on each side is
// widened or narrowed so that the nodes end exactly at lo and hi). Throws
// tb::Error naming the parameter when the core is not inside [lo, hi], h <= 0 or ratio < 1.
std::vector<double> clustered_axis_nodes(double lo, double hi, double core_lo, double core_hi, double h, double ratio);

// lo + axis_nodes(spec): mesh/structured's uniform, geometric or tanh axis shifted to start at lo.
std::vector<double> shifted_axis_nodes(double lo, const AxisSpec& spec);

struct GridAxis {
  std::vector<double> nodes;    // cells + 1, increasing
  std::vector<double> widths;   // Delta x_i of Eq. 7
  std::vector<double> centres;  // cells
  index_t cells() const { return index_t(centres.size()); }
};

class CartesianGrid {
 public:
  // Throws tb::Error naming the direction when it has fewer than 2 cells or
  // nodes that do not increase.
  explicit CartesianGrid(const std::array<std::vector<double>, 3>& nodes);
  // A rank's slab of `whole` (docs/distributed.md): z planes [first, first + count), of
  // which local planes [owned_begin, owned_end) are owned; the same node values,
  // so widths and centres have the whole grid's bits. tb::Error on a range outside the grid.
  static CartesianGrid piece(const CartesianGrid& whole, index_t first, index_t count, index_t owned_begin,
                             index_t owned_end);

  const GridAxis& axis(int d) const { return axes_[d]; }
  index_t cells(int d) const { return axes_[d].cells(); }
  index_t num_cells() const { return n_[0] * n_[1] * n_[2]; }
  StructuredIndex shape() const { return {n_[0], n_[1], n_[2]}; }
  index_t index(index_t i, index_t j, index_t k) const { return shape().natural(i, j, k); }
  index_t index(const std::array<index_t, 3>& c) const { return index(c[0], c[1], c[2]); }
  index_t stride(int d) const { return shape().stride(d); }
  std::array<index_t, 3> ijk(index_t cell) const {
    const StructuredIndex s = shape();
    return {s.i_of(cell), s.j_of(cell), s.k_of(cell)};
  }
  Vec3 centre(const std::array<index_t, 3>& c) const {
    return {axes_[0].centres[c[0]], axes_[1].centres[c[1]], axes_[2].centres[c[2]]};
  }
  double volume(const std::array<index_t, 3>& c) const {
    return axes_[0].widths[c[0]] * axes_[1].widths[c[1]] * axes_[2].widths[c[2]];
  }
  // The smallest width of cell c: the length scale of its image-point tolerances.
  double min_width(const std::array<index_t, 3>& c) const;
  // Lower index i0 of the pair of centres bracketing x in direction d,
  // clamped to [0, cells - 2] (points beyond the outer centres extrapolate).
  index_t bracket(int d, double x) const;
  // Distance between the centres of cells i and i+1 (the 0.5 (Delta x_i + Delta x_{i+1}) of Eq. 7).
  double spacing(int d, index_t i) const { return axes_[d].centres[i + 1] - axes_[d].centres[i]; }

  // The z planes this grid holds; the whole grid owns them all.
  const PlaneRange& planes() const { return planes_; }
  // Owns fewer planes than the whole grid has (a piece may hold them all, its ghosts included).
  bool is_piece() const { return planes_.owned_end - planes_.owned_begin != planes_.whole_planes; }
  // This rank's cells: local cells [owned_cell_begin, owned_cell_end), whole planes in natural order.
  index_t owned_cell_begin() const { return planes_.owned_begin * stride(2); }
  index_t owned_cell_end() const { return planes_.owned_end * stride(2); }
  bool owns(const std::array<index_t, 3>& c) const { return c[2] >= planes_.owned_begin && c[2] < planes_.owned_end; }
  // The whole grid's index of local cell `cell` (its row in the distributed system).
  index_t global_index(index_t cell) const { return cell + planes_.first * stride(2); }
  index_t whole_cells() const { return planes_.whole_planes * stride(2); }
  // A side of the piece between two ranks rather than on the box.
  bool is_interface(int side) const;
  // The plain view the kernels read (kernels.hpp), with these cell types; its
  // pointers are into this grid's axes and `types`.
  GridView view(const CellType* types) const;

 private:
  std::array<GridAxis, 3> axes_;
  std::array<index_t, 3> n_{};
  PlaneRange planes_;
};

}  // namespace tb::immersed
