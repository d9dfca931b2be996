#pragma once
// Every solver specification of a run (the drivers, --shadow, --ab, each
// autopilot candidate) set up on the linear systems of the first step before
// anything is written: a solver that cannot take its system (block size,
// format, a structured grid, a backend without its device) is refused with
// exit status 2 and an empty output folder, not at the first solve. The rule
// is each solver's own set-up, run on the very matrices of the first step: a
// throw-away copy of the simulation assembles them.
#include <string>
#include <vector>

#include "time_loop.hpp"

namespace tb::harness {

struct SolverToCheck {
  std::string system;             // the linear system it solves
  std::string spec;               // a solver or autopilot specification
  std::string place;              // where it was given: "FILE:LINE", "--set", "--shadow", "--ab"; "" for the default
  bool autopilot_allowed = true;  // a driver may be an autopilot, a shadow may not
};

// True when the specification, or one of an autopilot's candidates, has a
// component with backend=cuda.
bool asks_for_cuda(const std::string& spec);

// The specifications of a run: the case's drivers and the command line's --shadow and --ab.
std::vector<SolverToCheck> solvers_of_run(const MiniappDescription& app, const CaseConfig& config,
                                          const RunOptions& options);

// Builds a simulation of the case, lets it assemble its first step and sets
// each specification up on the first matrix of its system; tb::Error naming the
// place, the specification and the system's block size and size on refusal.
// A system the first step does not solve is not checked (only built).
void check_solvers_on_first_step(const MiniappDescription& app, const CaseConfig& config,
                                 const std::vector<SolverToCheck>& solvers);

}  // namespace tb::harness
