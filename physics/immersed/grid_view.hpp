#pragma once
// Plain views of what the per-cell kernels of the immersed-boundary step read
// (cell_kernels.hpp): the Cartesian grid's axes, the cell types, the face
// velocities and the box sides, as raw pointers that live on one backend (the
// host's vectors, or their device copies). Every index and geometric factor is
// computed as CartesianGrid, FaceField and scalar_system.hpp compute it, so the
// kernels give the bits of the host code they replaced.
#include <cstdint>

#include "mesh/graph/structured_index.hpp"
#include "solvers/core/host_device.hpp"
#include "solvers/core/types.hpp"

namespace tb::immersed {

enum class CellType : std::uint8_t { fluid = 0, ghost = 1, solid = 2 };
enum class FaceKind : std::uint8_t { dirichlet, neumann };
enum class SideKind : std::uint8_t { inflow, wall, outflow };

// A cell's (i, j, k); std::array is not usable in CUDA device code.
struct CellIndex {
  index_t v[3] = {0, 0, 0};
  TB_HOST_DEVICE index_t& operator[](int d) { return v[d]; }
  TB_HOST_DEVICE index_t operator[](int d) const { return v[d]; }
};

// Sides are numbered 2 d + (s > 0), as scalar_system.hpp's side_of.
TB_HOST_DEVICE inline int side_index(int d, int s) { return 2 * d + (s > 0 ? 1 : 0); }

struct AxisView {
  index_t cells = 2;
  const double* nodes = nullptr;    // cells + 1
  const double* widths = nullptr;   // cells
  const double* centres = nullptr;  // cells
  // CartesianGrid::spacing: between the centres of cells i and i + 1.
  TB_HOST_DEVICE double spacing(index_t i) const { return centres[i + 1] - centres[i]; }
};

struct GridView {
  AxisView axis[3];
  StructuredIndex shape{};
  index_t owned_begin = 0, owned_end = 0;                          // the owned cells
  index_t faces_end = 0;                                           // the owned cells and the first plane above
  bool interface[6] = {false, false, false, false, false, false};  // a side between ranks
  const CellType* types = nullptr;

  TB_HOST_DEVICE index_t stride(int d) const { return shape.stride(d); }
  TB_HOST_DEVICE CellIndex ijk(index_t cell) const {
    CellIndex c;
    c[0] = shape.i_of(cell), c[1] = shape.j_of(cell), c[2] = shape.k_of(cell);
    return c;
  }
  TB_HOST_DEVICE bool fluid(index_t cell) const { return types[cell] == CellType::fluid; }
  TB_HOST_DEVICE bool has_neighbour(const CellIndex& c, int d, int s) const {
    return c[d] + s >= 0 && c[d] + s < axis[d].cells;
  }
  // Eq. 7's coefficient between c and its (d, s) neighbour, or the box face (eq7_coefficient).
  TB_HOST_DEVICE double eq7_coefficient(const CellIndex& c, int d, int s) const {
    const double w = axis[d].widths[c[d]];
    if (!has_neighbour(c, d, s)) return 1.0 / (w * 0.5 * w);
    return 1.0 / (w * axis[d].spacing(s > 0 ? c[d] : c[d] - 1));
  }
  // Where the face between centres lo and lo + 1 sits between them, as a fraction of their spacing.
  TB_HOST_DEVICE double face_fraction(int d, index_t lo) const {
    return (axis[d].nodes[lo + 1] - axis[d].centres[lo]) / axis[d].spacing(lo);
  }
};

// Normal velocity on every face, one array per direction (FaceField).
template <class T>
struct FaceArrays {
  T* normal[3] = {nullptr, nullptr, nullptr};
  index_t ext[3][2] = {{0, 0}, {0, 0}, {0, 0}};  // face counts along x and y for each direction

  TB_HOST_DEVICE index_t face(int d, const CellIndex& c, int s) const {
    CellIndex f = c;
    f[d] += s > 0 ? 1 : 0;
    return f[0] + ext[d][0] * (f[1] + ext[d][1] * f[2]);
  }
};
using FaceView = FaceArrays<double>;
using ConstFaceView = FaceArrays<const double>;

// The box sides of the flow: their kind, the velocity's and the pressure's
// condition, and the velocity on a Dirichlet side (ImmersedFlow::face_value).
struct SidesView {
  SideKind kind[6] = {};
  FaceKind velocity[6] = {};
  FaceKind pressure[6] = {};
  double value[3][6] = {};  // component, side
};

}  // namespace tb::immersed
