#pragma once
// Plain views of what the per-cell kernels read (cell_kernels.hpp): the grid's
// axes, the boundary faces' velocities, the face velocities and the blocks of
// a matrix, as raw pointers that live on one backend (the host's vectors, or
// their device copies). Every index and geometric factor is computed as
// FvGrid, Boundaries and FaceVelocities compute it, so the kernels give the
// bits of the host code they replaced.
#include <cstddef>

#include "mesh/graph/structured_index.hpp"
#include "physics/split_rows.hpp"
#include "solvers/core/host_device.hpp"
#include "solvers/core/types.hpp"

namespace tb::incompressible {

// A cell's (i, j, k); std::array is not usable in CUDA device code.
struct CellIndex {
  index_t v[3] = {0, 0, 0};
  TB_HOST_DEVICE index_t& operator[](int d) { return v[d]; }
  TB_HOST_DEVICE index_t operator[](int d) const { return v[d]; }
};

struct AxisView {
  index_t cells = 1;
  bool periodic = false;
  const double* nodes = nullptr;    // cells + 1
  const double* widths = nullptr;   // cells
  const double* centres = nullptr;  // cells
  const double* spacing = nullptr;  // cells - 1 (cells when periodic)
  const double* weight = nullptr;   // cells - 1 (cells when periodic)
};

// FvGrid's geometry (fv_grid.hpp) over plain pointers.
struct GridView {
  AxisView axis[3];
  int dim = 3;
  index_t owned_begin = 0, owned_end = 0;  // the owned cells (all of them on a whole grid)
  index_t pin = -1;                        // FvGrid::pressure_pin

  TB_HOST_DEVICE StructuredIndex shape() const { return {axis[0].cells, axis[1].cells, axis[2].cells}; }
  TB_HOST_DEVICE index_t num_cells() const { return axis[0].cells * axis[1].cells * axis[2].cells; }
  TB_HOST_DEVICE index_t index(const CellIndex& c) const { return shape().natural(c[0], c[1], c[2]); }
  TB_HOST_DEVICE CellIndex ijk(index_t cell) const {
    const StructuredIndex s = shape();
    CellIndex c;
    c[0] = s.i_of(cell), c[1] = s.j_of(cell), c[2] = s.k_of(cell);
    return c;
  }
  TB_HOST_DEVICE bool has_neighbour(const CellIndex& c, int d, int s) const {
    return d < dim && (axis[d].periodic || (c[d] + s >= 0 && c[d] + s < axis[d].cells));
  }
  TB_HOST_DEVICE index_t neighbour(index_t cell, const CellIndex& c, int d, int s) const {
    const index_t n = axis[d].cells;
    const index_t stride = shape().stride(d);
    if (c[d] + s < 0) return cell + (n - 1) * stride;
    if (c[d] + s >= n) return cell - (n - 1) * stride;
    return cell + s * stride;
  }
  TB_HOST_DEVICE index_t face_below(const CellIndex& c, int d, int s) const {
    return s > 0 ? c[d] : (c[d] == 0 ? axis[d].cells - 1 : c[d] - 1);
  }
  TB_HOST_DEVICE double volume(const CellIndex& c) const {
    return axis[0].widths[c[0]] * axis[1].widths[c[1]] * axis[2].widths[c[2]];
  }
  TB_HOST_DEVICE double area(int d, const CellIndex& c) const {
    const int a = d == 0 ? 1 : 0, b = d == 2 ? 1 : 2;
    return axis[a].widths[c[a]] * axis[b].widths[c[b]];
  }
};

// Sides are numbered 2 d + (s > 0), as boundaries.hpp's side_of.
TB_HOST_DEVICE inline int side_index(int d, int s) { return 2 * d + (s > 0 ? 1 : 0); }

// The velocities (3 per face) of the boundary faces of each side (Boundaries).
struct BoundaryView {
  const double* values[6] = {nullptr, nullptr, nullptr, nullptr, nullptr, nullptr};
  index_t cells[3] = {1, 1, 1};  // the grid's, for the face index

  TB_HOST_DEVICE const double* value(int side, const CellIndex& c) const {
    const int d = side / 2;
    const int t1 = d == 0 ? 1 : 0, t2 = d == 2 ? 1 : 2;
    return values[side] + 3 * (c[t1] + cells[t1] * c[t2]);
  }
};

// Normal velocity on every face, one array per direction (FaceVelocities).
template <class T>
struct FaceArrays {
  T* normal[3] = {nullptr, nullptr, nullptr};
  index_t ext[3][3] = {{1, 1, 1}, {1, 1, 1}, {1, 1, 1}};
  index_t wrap[3] = {-1, -1, -1};

  FaceArrays() = default;
  // A view of writable faces read only.
  template <class U>
  TB_HOST_DEVICE FaceArrays(const FaceArrays<U>& o) {  // NOLINT: implicit, as T* to const T*
    for (int d = 0; d < 3; ++d) {
      normal[d] = o.normal[d];
      wrap[d] = o.wrap[d];
      for (int e = 0; e < 3; ++e) ext[d][e] = o.ext[d][e];
    }
  }

  TB_HOST_DEVICE index_t face(int d, const CellIndex& c, int s) const {
    CellIndex f = c;
    f[d] += s > 0 ? 1 : 0;
    if (f[d] == wrap[d]) f[d] = 0;
    return f[0] + ext[d][0] * (f[1] + ext[d][1] * f[2]);
  }
};
using FaceView = FaceArrays<double>;
using ConstFaceView = FaceArrays<const double>;

// The blocks of a matrix by position (physics/split_rows.hpp): a position >= 0
// is a block of `own`, one below no_block a block of `off_rank`.
template <class T>
struct BlockArrays {
  T* own = nullptr;
  T* off_rank = nullptr;
  index_t entries = 1;  // n * n

  TB_HOST_DEVICE T* at(index_t position) const {
    return position >= 0 ? own + std::size_t(position) * std::size_t(entries)
                         : off_rank + std::size_t(-2 - position) * std::size_t(entries);
  }
};
using BlockView = BlockArrays<double>;
using ConstBlockView = BlockArrays<const double>;

// The 7 slots of each cell's row (StencilPattern::position: where each slot's
// block is, no_block where there is none), 7 per cell.
inline constexpr int stencil_slots = 7;
inline constexpr int centre_slot = 3;
TB_HOST_DEVICE inline int stencil_slot(int d, int s) { return 3 + s * (d + 1); }

}  // namespace tb::incompressible
