#pragma once
// What a multicolor(...) specification chooses (registry: solvers/factory/register_multicolor.cpp).
#include "split_values.hpp"

namespace tb::multicolor {

// The same three choices on either backend: `ref` is the plain twin (host: the
// sequential loop; CUDA: one thread per block row), `tuned` the fast kernels
// (host: OpenMP within each colour; CUDA: Table I SpMV + warp-per-block
// substitution), `library` the paper's cuSPARSE bsrmv + cuBLAS trsmBatched
// baseline (CUDA, fp64 only).
enum class Kernel { ref, tuned, library };

struct Options {
  int sweeps = 1;
  Precision precision = Precision::mixed;
  bool balance = true;
  Kernel kernel = Kernel::tuned;
};

}  // namespace tb::multicolor
