#include "transfers.hpp"

#include <atomic>

namespace tb::transfers {

namespace {

struct AtomicTally {
  std::atomic<std::uint64_t> copies{0}, bytes{0};
  std::atomic<double> seconds{0.0};
  Tally read() const { return {copies.load(), bytes.load(), seconds.load()}; }
};

AtomicTally& tally(Direction d) {
  static AtomicTally to_device, to_host;
  return d == Direction::to_device ? to_device : to_host;
}

Tally minus(const Tally& a, const Tally& b) { return {a.copies - b.copies, a.bytes - b.bytes, a.seconds - b.seconds}; }

}  // namespace

Totals totals() { return {tally(Direction::to_device).read(), tally(Direction::to_host).read()}; }

Totals since(const Totals& before) {
  const Totals now = totals();
  return {minus(now.to_device, before.to_device), minus(now.to_host, before.to_host)};
}

void count(Direction d, std::size_t bytes, double seconds) {
  AtomicTally& t = tally(d);
  t.copies.fetch_add(1, std::memory_order_relaxed);
  t.bytes.fetch_add(bytes, std::memory_order_relaxed);
  t.seconds.fetch_add(seconds, std::memory_order_relaxed);
}

namespace {
AtomicTally& twin_tally() {
  static AtomicTally t;
  return t;
}
}  // namespace

void count_twin_result(std::size_t bytes) {
  twin_tally().copies.fetch_add(1, std::memory_order_relaxed);
  twin_tally().bytes.fetch_add(bytes, std::memory_order_relaxed);
}

Tally twin_results() { return twin_tally().read(); }

}  // namespace tb::transfers
