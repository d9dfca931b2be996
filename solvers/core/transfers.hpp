#pragma once
// The one counting point of every copy between host and device memory: the
// copies of Array and tb::memory (memory.cpp, cuda/memory.cu) and the
// kernels' reads of a result (a dot product, a flag) all end in count(), so a
// run can say how many bytes crossed each way and how long that took
// (docs/systems.md, "Accounting"). Copies within one side are not counted.
// No CUDA header here.
#include <cstddef>
#include <cstdint>

namespace tb::transfers {

enum class Direction { to_device, to_host };

struct Tally {
  std::uint64_t copies = 0;
  std::uint64_t bytes = 0;
  double seconds = 0.0;
};

struct Totals {
  Tally to_device, to_host;
  double seconds() const { return to_device.seconds + to_host.seconds; }
};

// The tallies since the process started (thread-safe).
Totals totals();
// What happened between two readings of totals().
Totals since(const Totals& before);

// One copy of `bytes` that took `seconds`, finished (synchronous).
void count(Direction d, std::size_t bytes, double seconds);

// The results the host twins of the device steps hand back (a reduction's
// sums, a flag, GMRES's check record): what a device run of the same steps
// copies back, counted where each host branch returns it, so that a resident
// step's traffic per step is measured on a machine without a device (the
// resident steps' tests on the host backend). Not a copy: counted apart from
// the tallies above, which a device run's copies feed. Since the process started.
void count_twin_result(std::size_t bytes);
Tally twin_results();

}  // namespace tb::transfers
