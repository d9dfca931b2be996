#pragma once
// The asynchronous (block) ILU(0) as a Preconditioner: registered as
// async_bilu (block) and async_ilu (scalar) in solvers/factory.
#include <memory>

#include "async_ilu.hpp"
#include "solvers/krylov/preconditioner.hpp"

namespace tb {

std::unique_ptr<Preconditioner> make_async_ilu(const async_ilu::Options& o);

// The diagnostics of the last factorization when p is an asynchronous ILU
// built with diagnostics=true, else nullptr (for the bench and tests).
const async_ilu::Diagnostics* async_ilu_diagnostics(const Preconditioner& p);

}  // namespace tb
