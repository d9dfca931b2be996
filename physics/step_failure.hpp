#pragma once
// A time or pseudo-time step that cannot be completed (a solution that stays
// non-physical, a diverged iteration): the input was accepted, the run failed.
// Drivers report it with exit status 1, bad input with 2. A physics notion, so
// it lives here and not in the solver layer, which knows no time steps.
#include "solvers/core/error.hpp"

namespace tb {

class StepFailure : public Error {
 public:
  using Error::Error;
};

}  // namespace tb
