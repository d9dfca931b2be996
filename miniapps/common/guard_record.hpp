#pragma once
// What a StepGuard has learned of a run (step_guard.hpp), carried by the run's
// checkpoints (checkpoint.hpp) so that a resumed run is guarded as the
// uninterrupted one: its growth bound keeps the references of the run's first
// steps, and its count of failed steps in a row goes on.
#include <map>
#include <string>

namespace tb::harness {

struct GuardRecord {
  long checked = 0;          // steps checked since the run began
  long failed_in_a_row = 0;  // steps in a row, up to the last checked, with a failed driver solve
  // Per quantity (its kind and name), its largest magnitude in the run's first
  // steps, and which steps those were.
  struct Reference {
    double largest = 0.0;
    long first = 0, last = 0;
  };
  std::map<std::string, Reference> reference;
};

}  // namespace tb::harness
