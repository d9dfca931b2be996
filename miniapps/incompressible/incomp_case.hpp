#pragma once
// The case keys of tb-incomp and how a case becomes a flow solver.
#include <memory>

#include "miniapps/common/case_checks.hpp"
#include "miniapps/common/case_config.hpp"
#include "physics/incompressible/fractional_step.hpp"

namespace tb::incompressible {

// Default solver specifications on the host: BILU(0), the fastest measured on
// the default cavity; fgbilu computes the same factors, but 2D hyperplanes are
// too small for its wavefront (docs/fgbilu.md, "Choosing the host variant").
inline constexpr const char* default_momentum_solver = "bicgstab(rtol=1e-8,maxit=500)+bilu0";
// The pressure system's unknown is the new pressure, started at the old one
// (solver.pressure_unknown = pressure), and its rtol is relative to ||b||: the
// whole pressure's right-hand side, not a correction that vanishes as the flow
// settles (docs/incompressible.md, "The pressure's unknown and its tolerance").
// Geometric multigrid preconditions it: 13x fewer pressure iterations than
// BiLU(0) on the default cavity, 45x on the Re 1000 one, a pressure solve
// 13x faster on the 128^3 cavity (bench/results/host-mg-incomp-ab.json,
// docs/multigrid.md); under mpiexec each rank's slab gets its own hierarchy
// (bjacobi(local=mg)).
inline constexpr const char* default_pressure_solver = "cg(rtol=1e-9,maxit=2000,relative_to=b)+mg";
// run.backend = cuda (docs/systems.md, "One switch to the GPU"): block Jacobi
// on the device for the momentum; the host's pressure method, CG + multigrid,
// on the device for the pressure. With the step resident at 64^3 and 128^3 it
// takes 9 iterations a solve against CG + block Jacobi's 550 and a tenth of its
// projection corrections (bench/results/gpu-time-loops.json, part
// resident_incomp; its hierarchy is built once).
inline constexpr const char* gpu_momentum_solver = "bicgstab(rtol=1e-8,maxit=500,backend=cuda)+block_jacobi";
inline constexpr const char* gpu_pressure_solver = "cg(rtol=1e-9,maxit=2000,relative_to=b,backend=cuda)+mg";

void declare_case_keys(harness::CaseSchema& schema);
// Defaults that follow other keys (MiniappDescription::resolve_defaults):
// validation.ghia_reynolds where the case does not give it, the table of the
// case's Reynolds number when the case is Ghia et al.'s cavity, else 0; and
// 0 for the velocities of outflow and periodic sides (the lid's default
// speed is a wall's).
void resolve_case_defaults(harness::CaseConfig& config);
// The start-up cross-key checks (MiniappDescription::check_case): velocities
// only where a side takes them, a Ghia comparison only of its cavity at its
// Reynolds number, a Poiseuille error only of a channel, the grid within
// indices, memory and the clustering asked for, and every magnitude of the
// first step finite; notes for an inflow profile elsewhere than on an inflow
// and for the z sides of a 2D case.
harness::CaseNotes check_case_keys(const harness::CaseConfig& config, bool decomposed);
FvGrid make_grid(const harness::CaseConfig& config);
std::array<BoundarySpec, 6> make_boundaries(const harness::CaseConfig& config);
FlowSettings make_flow_settings(const harness::CaseConfig& config);

}  // namespace tb::incompressible
