#pragma once
// CUDA kernels of ParILUT (seed 003 §III-IV). Plain C++ declarations: no CUDA
// header reaches the includer. All pointers are device pointers. These are the
// paper's element-parallel kernels, tested against the host twins on a GPU; the
// ParILUT preconditioner itself still runs on the host (docs/parilut.md).
#include <cstddef>
#include <cstdint>

#include "solvers/parilut/fixed_point.hpp"

namespace tb::parilut::cuda {

// Fig. 6: one thread per entry of L (l_row: each entry's row), then one per
// entry of U, each running l_entry / u_entry in place: the paper's asynchronous
// sweep.
void sweep(const FactorView& v, const index_t* l_row, index_t l_nnz, const index_t* u_row, index_t u_nnz);

// Fig. 7: r_ij at the candidate entries (c_row, c_col), one thread each.
void candidate_residuals(const FactorView& v, const index_t* c_row, const index_t* c_col, index_t nnz, double* r);

// Fig. 5 with shared-memory atomics (§III, "Parallel counting"): each element's
// bucket in `oracles`, and the 256 bucket sizes in `counts` (overwritten).
void classify(const double* data, std::size_t n, const double* tree, std::uint8_t* oracles, unsigned long long* counts);

}  // namespace tb::parilut::cuda
