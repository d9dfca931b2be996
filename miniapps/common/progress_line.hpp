#pragma once
// "step 12/100  t=1.2e-01  res 3.4e-05  ETA 0:42" redrawn in place on a
// terminal; silent when standard error is not a terminal (logs, CI).
#include <string>

#include "solvers/core/timer.hpp"

namespace tb::harness {

class ProgressLine {
 public:
  ProgressLine(std::string app, long first_step, long last_step, bool wanted);
  void update(long step, double time, double residual);
  void finish();

 private:
  std::string app_;
  long first_, last_;
  bool active_;
  WallTimer timer_;
};

}  // namespace tb::harness
