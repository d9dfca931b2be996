#pragma once
// The case keys of tb-incomp and how a case becomes a flow solver.
#include <memory>

#include "miniapps/common/case_config.hpp"
#include "physics/incompressible/fractional_step.hpp"

namespace tb::incompressible {

// Default solver specifications: FGBILU (seed 000) on the structured 7-point
// pattern. Periodic cases must name bilu0: FGBILU refuses wrap-around columns.
inline constexpr const char* default_momentum_solver = "bicgstab(rtol=1e-8,maxit=500)+fgbilu";
inline constexpr const char* default_pressure_solver = "cg(rtol=1e-9,maxit=2000)+fgbilu";

void declare_case_keys(harness::CaseSchema& schema);
FvGrid make_grid(const harness::CaseConfig& config);
std::array<BoundarySpec, 6> make_boundaries(const harness::CaseConfig& config);
FlowSettings make_flow_settings(const harness::CaseConfig& config);

}  // namespace tb::incompressible
