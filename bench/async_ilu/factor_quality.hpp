#pragma once
// The factor-quality side of seed 001's study (Fig. 7 and 9): after a few
// build sweeps, the ILU fixed-point residual relative to the initial guess's,
// the max-norms of the Jacobi iteration matrices of L and U, and the distance
// to the exact BILU(0), per ordering and variant.
#include <string>
#include <vector>

#include "solvers/core/machine.hpp"
#include "solvers/matrix/bsr.hpp"

namespace tb::bench {

struct NamedMatrix {
  std::string name;
  const BsrMatrix* a = nullptr;
};

// Runs the measurements and writes them as JSON and Markdown (either path may be empty).
void factor_quality_study(const std::vector<NamedMatrix>& systems, int chunk, const Machine& machine,
                          const std::string& json_path, const std::string& md_path);

}  // namespace tb::bench
