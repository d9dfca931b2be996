#pragma once
// The device steps of Sampleselect (seed 003 §III, Fig. 3) that the host-side
// driver (device_sample_select.cpp) calls; classification is cuda::classify in
// parilut_kernels.hpp. Plain C++ declarations: no CUDA header reaches the
// includer. Pointers are device pointers unless their name says host.
#include <cstddef>
#include <cstdint>

namespace tb::parilut::cuda {

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

}  // namespace tb::parilut::cuda
