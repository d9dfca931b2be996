#pragma once
// tb-bench-face-sums' alternatives to the compressible room's per-cell gather
// (kernels.hpp's gather_face_sums, the project's way): the same face-to-cell
// sums by scattering from the faces, on the device. Plain C++ declarations;
// defined in cuda/face_scatter.cu, called through TB_CUDA_CALL. Pointers on the
// device; face_right < 0 on a boundary face. FaceSign::out_of_left: the left
// cell gains the face's value, the right cell loses it.
#include <vector>

#include "solvers/core/types.hpp"

namespace tb::bench::face_scatter {

// cell zeroed, then one atomicAdd per face, side and component: the sums'
// order, and so their last bits, follows the schedule.
void atomic(index_t num_cells, index_t num_faces, const index_t* left, const index_t* right, int width,
            const double* face, double* cell);

// cell zeroed, then one launch per colour of a colouring of the faces in which
// faces sharing a cell differ (colour_faces: the faces colour by colour,
// colour_ptr: where each colour starts, on the host): no two threads of a
// launch write one cell, and the sums follow the colour order, run to run.
void coloured(index_t num_cells, const index_t* colour_faces, const std::vector<index_t>& colour_ptr,
              const index_t* left, const index_t* right, int width, const double* face, double* cell);

}  // namespace tb::bench::face_scatter
