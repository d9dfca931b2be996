#pragma once
// CUDA kernels of the multicolour point-implicit solver (seed 002 §IV). Plain
// C++ declarations: no CUDA header reaches the includer. Every pointer is a
// device pointer; the blocks of D and O are column-major on the device (the
// paper's layout), so RelaxView here describes column-major blocks.
#include <memory>

#include "solvers/core/stage_groups.hpp"
#include "solvers/multicolor/relax_colour.hpp"

namespace tb::multicolor::kernels::cuda {

// One thread per block row running relax_row, the host loop body, is
// relax_colour (solvers/multicolor/kernels.hpp): the twin the tuned kernels
// below are tested against.

// kernel=fused: one whole sweep (every colour, steps 1-3) in one launch, nb <= 32.
// A group of nb lanes takes a block row, one lane per scalar row; workgroups
// of fused_threads threads, fused_rows_per_group(nb) block rows, take the
// colours in order through solvers/core/cuda/stage_order.cuh. g: the colours
// as stages, in groups of fused_rows_per_group(nb).
inline constexpr int fused_threads = 128;
inline index_t fused_rows_per_group(index_t nb) { return (fused_threads / 32) * (32 / nb); }
void relax_sweep_fused(const RelaxView<float>& m, const StageGroupsView& g, const double* b, double* x);
void relax_sweep_fused(const RelaxView<double>& m, const StageGroupsView& g, const double* b, double* x);

// Step 1, q_i = b_i - O_i x for the rows of one colour: cuda_matvec_kernel_1_16
// with Table I's work split (nb <= 16) or cuda_matvec_kernel_17_64 (nb <= 64).
void matvec_colour(const RelaxView<float>& m, index_t begin, index_t end, const double* b, const double* x, double* q);
void matvec_colour(const RelaxView<double>& m, index_t begin, index_t end, const double* b, const double* x, double* q);

// Steps 2-3, L_i U_i x_i = q_i: cuda_fb_kernel_1_64, one warp per diagonal block
// with shuffles and prefetching (Fig. 10-13).
void forward_backward_colour(index_t block_size, const double* d, index_t begin, index_t end, const double* q,
                             double* x);

// to[i] = from[new_to_old[i]] and back, block rows of n entries.
void gather_blocks(const index_t* new_to_old, index_t block_rows, index_t n, const double* from, double* to);
void scatter_blocks(const index_t* new_to_old, index_t block_rows, index_t n, const double* from, double* to);

// The paper's baseline path (Fig. 6, nb > 64 there): cusparseDbsrmv for step 1
// and two cublasDtrsmBatched calls for steps 2-3, per colour. fp64 only:
// cuSPARSE's bsrmv has no fp32-matrix / fp64-vector form.
//
// The solver is opaque (cuSPARSE and cuBLAS handles, pointer arrays), defined in
// the .cu file, so that host-only builds link without it.
struct LibraryColourSolver;
// colour_begin and ia are the host arrays of the pattern; m's pointers and q
// (block_rows x nb scratch) are on the device.
std::shared_ptr<LibraryColourSolver> make_library_colour_solver(const RelaxView<double>& m,
                                                                const index_t* colour_begin_host, index_t num_colours,
                                                                const index_t* ia_host, index_t block_rows, double* q);
void relax_colour_library(LibraryColourSolver& s, index_t colour, const double* b, double* x);
// Opens cuSPARSE and cuBLAS for the baseline and finds each function it calls,
// without a GPU (make_library_colour_solver does it on first use); tb::Error
// names what is missing.
void check_vendor_libraries();

}  // namespace tb::multicolor::kernels::cuda
