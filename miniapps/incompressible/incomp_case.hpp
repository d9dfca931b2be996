#pragma once
// The case keys of tb-incomp and how a case becomes a flow solver.
#include <memory>

#include "miniapps/common/case_config.hpp"
#include "physics/incompressible/fractional_step.hpp"

namespace tb::incompressible {

// Default solver specifications; switch to fgbilu here once it is on main.
inline constexpr const char* default_momentum_solver = "bicgstab(rtol=1e-8,maxit=500)+bilu0";
inline constexpr const char* default_pressure_solver = "cg(rtol=1e-9,maxit=2000)+bilu0";

void declare_case_keys(harness::CaseSchema& schema);
FvGrid make_grid(const harness::CaseConfig& config);
std::array<BoundarySpec, 6> make_boundaries(const harness::CaseConfig& config);
FlowSettings make_flow_settings(const harness::CaseConfig& config);

}  // namespace tb::incompressible
