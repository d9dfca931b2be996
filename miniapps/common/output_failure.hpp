#pragma once
// An output the run could not write once it had started (a full disk, a
// folder removed under it, a file that cannot be replaced): the input was
// accepted and the run failed, so a miniapp exits with status 1 naming the
// path (exit_status_rule), not 2 (refused input) nor 0 with the output lost.
#include "solvers/core/error.hpp"

namespace tb::harness {

class OutputFailure : public Error {
 public:
  using Error::Error;
};

}  // namespace tb::harness
