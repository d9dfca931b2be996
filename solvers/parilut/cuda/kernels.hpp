#pragma once
// CUDA kernels of ParILUT (seed 003 §III-IV), with no host twin of the same
// signature (kernels.hpp says why). Plain C++ declarations: no CUDA header
// reaches the includer. All pointers are device pointers unless their name says
// host. These are the paper's element-parallel kernels and the device steps of
// Sampleselect (Fig. 3) that device_sample_select.cpp drives, tested against
// the host twins on a GPU; the ParILUT preconditioner itself runs on the host
// (docs/parilut.md).
#include <cstddef>
#include <cstdint>

#include "solvers/parilut/fixed_point.hpp"

namespace tb::parilut::kernels::cuda {

// Fig. 6: one thread per entry of L (l_row: each entry's row), then one per
// entry of U, each running l_entry / u_entry in place: the paper's asynchronous
// sweep.
void sweep(const FactorView& v, const index_t* l_row, index_t l_nnz, const index_t* u_row, index_t u_nnz);

// Fig. 7: r_ij at the candidate entries (c_row, c_col), one thread each.
void candidate_residuals(const FactorView& v, const index_t* c_row, const index_t* c_col, index_t nnz, double* r);

// Fig. 5 with shared-memory atomics (§III, "Parallel counting"): each element's
// bucket in `oracles`, and the 256 bucket sizes in `counts` (overwritten).
void classify(const double* data, std::size_t n, const double* tree, std::uint8_t* oracles, unsigned long long* counts);

// The device steps of Sampleselect (seed 003 §III, Fig. 3); classification is
// classify above.
// The most blocks the bucket filter uses, and so the size of its scratch.
inline constexpr int filter_block_limit = 1024;

// Fig. 3 line 7 in one block: the sample at pick_splitters' positions, sorted
// (bitonic, in shared memory), its 255 quantiles as the level-order `tree` and
// in sorted order as `splitters`. Equal to the host's pick_splitters. n >= 1.
void pick_splitters(const double* data, std::size_t n, double* tree, double* splitters);

// Fig. 3 line 15: the elements whose oracle is `bucket`, in input order, to
// `out` (deterministic: per-block counts, their exclusive scan, then each block
// scatters its chunk tile by tile). `block_scratch` holds filter_block_limit
// values.
void extract_bucket(const double* data, const std::uint8_t* oracles, std::size_t n, int bucket, double* out,
                    unsigned long long* block_scratch);

// The first n values of `data` into host memory (blocking).
void copy_to_host(const double* data, std::size_t n, double* host_out);

}  // namespace tb::parilut::kernels::cuda
