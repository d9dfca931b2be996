#pragma once
// The natural numbering of an ni x nj x nk structured grid, i fastest:
// cell (i, j, k) is i + ni * (j + nj * k). The one copy of this map, shared by
// the structured meshes, the finite-volume grids, the 7-point stencil matrices
// and their host and CUDA kernels (hence TB_HOST_DEVICE and no std::array).
#include "solvers/core/host_device.hpp"
#include "solvers/core/types.hpp"

namespace tb {

struct StructuredIndex {
  index_t ni = 1, nj = 1, nk = 1;

  TB_HOST_DEVICE index_t cells() const { return ni * nj * nk; }
  TB_HOST_DEVICE index_t natural(index_t i, index_t j, index_t k) const { return i + ni * (j + nj * k); }
  // Distance between neighbours along direction d (0: i, 1: j, 2: k).
  TB_HOST_DEVICE index_t stride(int d) const { return d == 0 ? 1 : d == 1 ? ni : ni * nj; }
  TB_HOST_DEVICE index_t i_of(index_t cell) const { return cell % ni; }
  TB_HOST_DEVICE index_t j_of(index_t cell) const { return (cell / ni) % nj; }
  TB_HOST_DEVICE index_t k_of(index_t cell) const { return cell / (ni * nj); }
};

}  // namespace tb
