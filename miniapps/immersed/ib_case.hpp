#pragma once
// The case keys of tb-ib and how a case becomes a grid, a body and flow
// settings. The built-in default is steady flow past a sphere at Re 100 on a
// coarse grid (D/h = 10 near the sphere): a demo of well under a minute.
#include <memory>

#include "miniapps/common/case_config.hpp"
#include "physics/immersed/fractional_step.hpp"

namespace tb::immersed {

// Seed 004 solves both systems by its GBCG: BiCGStab with a Jacobi
// preconditioner on DIA storage (solvers/banded), which also shares each solve
// over the ranks under mpiexec. The ghost rows' far diagonals go to its sparse
// remainder (min_fill, docs/banded.md). Each solve starts from the previous
// step's field; rtol is relative to ||b|| (relative_to=b), the residual a cold
// start would reach, so that steps near the steady state stop early instead
// of cutting an already small residual by 1e-8 again (docs/immersed.md).
inline constexpr const char* default_advection_solver = "bicgstab_dia(rtol=1e-8,maxit=500,relative_to=b)";
inline constexpr const char* default_pressure_solver = "bicgstab_dia(rtol=1e-8,maxit=3000,relative_to=b)";

void declare_case_keys(harness::CaseSchema& schema);
CartesianGrid make_grid(const harness::CaseConfig& config);
std::unique_ptr<Body> make_body(const harness::CaseConfig& config);
FlowSettings make_flow_settings(const harness::CaseConfig& config);
BodyCondition poisson_body_condition(const harness::CaseConfig& config);

}  // namespace tb::immersed
