#include "device_launches.hpp"

#include <atomic>

namespace tb {

namespace {
// Relaxed atomics: a launch costs microseconds, an uncontended increment
// nanoseconds, and a count read between solves needs no ordering.
std::atomic<long> launches{0};
std::atomic<bool> recording{false};
}  // namespace

long device_launches() { return launches.load(std::memory_order_relaxed); }

void count_device_launch() {
  if (!recording.load(std::memory_order_relaxed)) launches.fetch_add(1, std::memory_order_relaxed);
}

void begin_recording_device_launches() { recording.store(true, std::memory_order_relaxed); }
void end_recording_device_launches() { recording.store(false, std::memory_order_relaxed); }

}  // namespace tb
