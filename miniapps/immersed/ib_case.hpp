#pragma once
// The case keys of tb-ib and how a case becomes a grid, a body and flow
// settings. The built-in default is steady flow past a sphere at Re 100 on a
// coarse grid (D/h = 10 near the sphere): a demo of well under a minute.
#include <memory>

#include "miniapps/common/case_checks.hpp"
#include "miniapps/common/case_config.hpp"
#include "physics/immersed/fractional_step.hpp"

namespace tb::immersed {

// BiCGStab with BiLU(0), the fastest measured on the host: faster than seed
// 004's GBCG (bicgstab_dia: BiCGStab with Jacobi on DIA storage) on one
// process, and level with it on two ranks, where it runs as block Jacobi over
// the ranks (docs/immersed.md, "Measured"). GBCG stays one --set away, and it is the one that shares a solve
// of the whole grid over ranks or GPUs (run.decompose = false). Each solve
// starts from the previous step's field; rtol is relative to ||b||
// (relative_to=b), the residual a cold start would reach, so that steps near
// the steady state stop early instead of cutting an already small residual by
// 1e-8 again.
inline constexpr const char* default_advection_solver = "bicgstab(rtol=1e-8,maxit=500,relative_to=b)+bilu0";
inline constexpr const char* default_pressure_solver = "bicgstab(rtol=1e-8,maxit=3000,relative_to=b)+bilu0";
// run.backend = cuda: seed 004's GBCG on the device for both systems, the
// fastest GPU setting measured on the default sphere, against block Jacobi on
// the device for the pressure (docs/systems.md, "One switch to the GPU":
// bench/results/gpu-time-loops.json, gpu-autopilot.json).
inline constexpr const char* gpu_advection_solver = "bicgstab_dia(rtol=1e-8,maxit=500,relative_to=b,backend=cuda)";
inline constexpr const char* gpu_pressure_solver = "bicgstab_dia(rtol=1e-8,maxit=3000,relative_to=b,backend=cuda)";

void declare_case_keys(harness::CaseSchema& schema);
// The start-up cross-key checks (MiniappDescription::check_case): the grid
// counted before it is built (indices, memory, a core_h no wider than the
// core, no sliver of a cell between core and box); a body at least two cells
// across; the flow's magnitudes finite and its time step within the explicit
// advection's CFL 1; notes for body, grid and case.kind keys where they are
// not read.
harness::CaseNotes check_case_keys(const harness::CaseConfig& config, bool decomposed);
CartesianGrid make_grid(const harness::CaseConfig& config);
std::unique_ptr<Body> make_body(const harness::CaseConfig& config);
FlowSettings make_flow_settings(const harness::CaseConfig& config);
BodyCondition poisson_body_condition(const harness::CaseConfig& config);

}  // namespace tb::immersed
