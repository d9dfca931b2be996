#pragma once
#include <chrono>

namespace tb {

// Wall-clock seconds since construction or the last restart().
class WallTimer {
 public:
  WallTimer() : start_(clock::now()) {}
  void restart() { start_ = clock::now(); }
  double seconds() const { return std::chrono::duration<double>(clock::now() - start_).count(); }

 private:
  using clock = std::chrono::steady_clock;
  clock::time_point start_;
};

}  // namespace tb
