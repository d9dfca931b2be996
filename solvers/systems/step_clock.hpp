#pragma once
// Where a time step's wall time goes (docs/systems.md, "Accounting"). The
// clock charges the time since it last switched to one account at a time;
// the physics, the systems and the time loop switch it as the step moves on
// (assembly, a solver's set-up, its solve, a shadow, a probe, the loop's own
// work, output), and every host<->device copy counted meanwhile
// (solvers/core/transfers.hpp) is taken out of the account it happened in
// and kept apart, in seconds, bytes and copies each way, beside the count of
// device launches (solvers/core/device_launches.hpp). The accounts and the
// transfers add up to the time between start() and the last read.
#include <array>
#include <chrono>
#include <cstddef>

#include "solvers/core/transfers.hpp"

namespace tb::systems {

enum class Account { physics, assembly, linear_setup, linear_solve, shadow, probe, harness, output };
inline constexpr std::size_t account_count = 8;

struct StepAccounts {
  std::array<double, account_count> seconds{};  // by Account, each less its transfers
  transfers::Totals transfers;                  // since start()
  long launches = 0;                            // device launches since start()
  double operator[](Account a) const { return seconds[std::size_t(a)]; }
  // Every account and the transfers: the wall time accounted for.
  double total() const;
};

class StepClock {
 public:
  // Starts a step, charging `a` from now on; the accounts are emptied.
  void start(Account a);
  // Charges `a` from now on, unless a held scope is open (Scope); returns the
  // account charged until now.
  Account enter(Account a);
  Account current() const { return current_; }
  // The accounts so far (the current one brought up to now).
  StepAccounts read();
  // read(), then empties the accounts and goes on charging the current one:
  // the time until the next take() is the next step's, so that one step's
  // accounts follow the last without a gap.
  StepAccounts take();

  // Charges an account until it goes out of scope, then returns to the one
  // before. Held: nested enter() calls charge it too (a shadow's or a probe's
  // set-up and solve are the shadow's or the probe's).
  class Scope {
   public:
    Scope(StepClock& clock, Account a, bool held = false);
    ~Scope();
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    StepClock& clock_;
    Account before_;
    bool held_;
  };

 private:
  using clock = std::chrono::steady_clock;
  void charge();

  Account current_ = Account::harness;
  clock::time_point since_ = clock::now();
  transfers::Totals transfers_at_start_, transfers_since_;
  long launches_at_start_ = 0;
  StepAccounts accounts_;
  int holds_ = 0;
};

}  // namespace tb::systems
