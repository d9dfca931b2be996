#pragma once
// The simulation's state after its last accepted step, kept in memory so that a
// run that blows up can write the last good state for inspection. The buffer is
// reused from step to step, fitted to the state's size: after the first step a
// snapshot of the same size allocates nothing. A simulation that keeps its own
// copy where its state lives (Simulation::keep_state, a device-resident step)
// is asked to first, so that the snapshot moves nothing across PCIe.
#include <string>

#include "simulation.hpp"

namespace tb::harness {

class StateSnapshot {
 public:
  void take(Simulation& sim, long step);
  // Puts the state back into sim; false when no snapshot was taken.
  bool restore(Simulation& sim) const;
  long step() const { return step_; }

 private:
  std::string bytes_;
  bool kept_by_simulation_ = false;
  long step_ = -1;
};

}  // namespace tb::harness
