#pragma once
// What a multicolor(...) specification chooses (registry: solvers/factory/register_multicolor.cpp).
#include "split_values.hpp"

namespace tb::multicolor {

// `ref` is the plain twin (host: the sequential loop; CUDA: one thread per
// block row), `tuned` the fast kernels (host: OpenMP within each colour; CUDA:
// Table I SpMV + warp-per-block substitution), `library` the paper's cuSPARSE
// bsrmv + cuBLAS trsmBatched baseline (CUDA, fp64 only), `fused` (CUDA only,
// nb <= 32) one launch per sweep: a lane per scalar row runs steps 1-3, the
// colours ordered by device-side counters.
enum class Kernel { ref, tuned, library, fused };

struct Options {
  int sweeps = 1;
  Precision precision = Precision::mixed;
  bool balance = true;
  Kernel kernel = Kernel::tuned;
};

}  // namespace tb::multicolor
