#pragma once
// The preconditioners every later family is measured against: identity, point
// Jacobi, block Jacobi (exact inverses of the diagonal blocks) and sequential
// BILU(0) in natural order, the reference of seeds 000 and 001.
#include <memory>

#include "solvers/krylov/preconditioner.hpp"

namespace tb {

std::unique_ptr<Preconditioner> make_identity();
std::unique_ptr<Preconditioner> make_point_jacobi();
std::unique_ptr<Preconditioner> make_block_jacobi();
std::unique_ptr<Preconditioner> make_bilu0();

}  // namespace tb
