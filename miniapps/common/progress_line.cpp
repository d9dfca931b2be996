#include "progress_line.hpp"

#include <unistd.h>

#include <cmath>
#include <cstdio>

namespace tb::harness {

ProgressLine::ProgressLine(std::string app, long first_step, long last_step, bool wanted)
    : app_(std::move(app)), first_(first_step), last_(last_step), active_(wanted && ::isatty(STDERR_FILENO)) {}

void ProgressLine::update(long step, double time, double residual) {
  if (!active_) return;
  const double done = double(step - first_ + 1);
  const double eta = timer_.seconds() / done * double(last_ - step);
  std::fprintf(stderr, "\r[%s] step %ld/%ld  t=%.4e  res %.3e  ETA %ld:%02ld   ", app_.c_str(), step, last_, time,
               residual, long(eta) / 60, long(eta) % 60);
  std::fflush(stderr);
}

void ProgressLine::finish() {
  if (active_) std::fputc('\n', stderr);
}

}  // namespace tb::harness
