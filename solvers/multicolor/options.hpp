#pragma once
// What a multicolor(...) specification chooses (registry: solvers/factory/register_multicolor.cpp).
#include "split_values.hpp"

namespace tb::multicolor {

// `ref` is the plain twin (host: the sequential loop; CUDA: one thread per
// block row), `tuned` the fast kernels (host: OpenMP within each colour; CUDA:
// Table I SpMV + warp-per-block substitution), `library` the paper's cuSPARSE
// bsrmv + cuBLAS trsmBatched baseline (CUDA, fp64 only), `fused` (CUDA only,
// nb <= 32) one launch per sweep: a lane per scalar row runs steps 1-3, the
// colours ordered by device-side counters. `automatic` (the registry's
// `auto`, the default) is resolved by choose_kernel at setup.
enum class Kernel { ref, tuned, library, fused, automatic };

// kernel=fused gives each block row nb lanes of one warp.
inline constexpr index_t fused_max_block_size = 32;

struct Options {
  int sweeps = 1;
  Precision precision = Precision::mixed;
  bool balance = true;
  Kernel kernel = Kernel::automatic;
};

// What kernel=auto runs: `tuned` on the host; on CUDA `fused` for nb <= 8 on
// at least 50,000 block rows, `tuned` otherwise: on an H100 fused is the faster
// for nb 1..8 from 103,823 rows up, tuned on small systems, where launches, not
// bytes, set the time (docs/multicolor.md). Any other `asked` is returned as it is.
Kernel choose_kernel(Kernel asked, bool on_cuda, index_t block_rows, index_t block_size);

}  // namespace tb::multicolor
