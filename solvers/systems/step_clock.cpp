#include "step_clock.hpp"

#include "solvers/core/device_launches.hpp"

namespace tb::systems {

double StepAccounts::total() const {
  double s = transfers.seconds();
  for (double v : seconds) s += v;
  return s;
}

void StepClock::start(Account a) {
  accounts_ = {};
  current_ = a;
  holds_ = 0;
  since_ = clock::now();
  transfers_at_start_ = transfers_since_ = transfers::totals();
  launches_at_start_ = device_launches();
}

// The time since the last switch, less the transfers counted meanwhile, to the current account.
void StepClock::charge() {
  const clock::time_point now = clock::now();
  const transfers::Totals moved = transfers::since(transfers_since_);
  accounts_.seconds[std::size_t(current_)] += std::chrono::duration<double>(now - since_).count() - moved.seconds();
  transfers_since_ = transfers::totals();
  since_ = now;
}

Account StepClock::enter(Account a) {
  const Account before = current_;
  if (holds_ > 0 || a == current_) return before;
  charge();
  current_ = a;
  return before;
}

StepAccounts StepClock::read() {
  charge();
  accounts_.transfers = transfers::since(transfers_at_start_);
  accounts_.launches = device_launches() - launches_at_start_;
  return accounts_;
}

StepAccounts StepClock::take() {
  const StepAccounts taken = read();
  accounts_ = {};
  transfers_at_start_ = transfers_since_;
  launches_at_start_ += taken.launches;
  return taken;
}

StepClock::Scope::Scope(StepClock& clock, Account a, bool held) : clock_(clock), before_(clock.enter(a)), held_(held) {
  if (held_) ++clock_.holds_;
}

StepClock::Scope::~Scope() {
  if (held_) --clock_.holds_;
  clock_.enter(before_);
}

}  // namespace tb::systems
