#pragma once
// tb-comp2d's case keys (its --help) and what they build: the mesh in the chosen
// cell ordering, the boundary map, the discretisation and pseudo-time settings.
#include <string>

#include "mesh/graph/permutation.hpp"
#include "miniapps/common/case_checks.hpp"
#include "miniapps/common/case_config.hpp"
#include "physics/compressible/boundary_conditions.hpp"
#include "physics/compressible/euler_discretisation.hpp"
#include "physics/compressible/pseudo_time.hpp"

namespace tb::compressible {

// The one place the default linear solver of the "flow" system is written: on
// the host BILU(0), the fastest measured: the asynchronous ILU on one thread
// computes the same factors at more cost (it is seed 001's GPU method). At most
// 10 iterations: with the default matrix-free form each solve is one
// application of the outer iteration's preconditioner, which needs no more
// (docs/compressible.md, "The linear system").
inline constexpr const char* default_flow_solver = "fgmres(restart=30,rtol=1e-1,maxit=10)+bilu0";
// run.backend = cuda: seed 001's asynchronous block ILU on the device, the
// fastest alone on the default cylinder against the host's BILU(0) and the
// multicolour solver (docs/systems.md, "One switch to the GPU":
// bench/results/gpu-autopilot.json).
inline constexpr const char* gpu_flow_solver =
    "fgmres(restart=30,rtol=1e-1,maxit=10,backend=cuda)+async_bilu(build_sweeps=1,apply_sweeps=3)";

void declare_case_keys(harness::CaseSchema& schema);
// The start-up cross-key checks (MiniappDescription::check_case): the free
// stream's and the viscous terms' magnitudes within double precision; the
// exact Jacobian takes no jacobian.flux, and its colouring takes the whole
// mesh, so a decomposed run refuses it; notes for the keys the case's
// settings do not read (the viscous keys of an inviscid case, the matrix-free
// keys of another form...).
harness::CaseNotes check_case_keys(const harness::CaseConfig& config, bool decomposed);

// The mesh file read and reordered once (mesh.ordering), before any assembly.
struct OrderedMesh {
  Mesh2D mesh;
  Permutation ordering;  // new_to_old: the file's cell number of each cell
  // Per cell (new numbering), the line of seed 001 §5.1 it belongs to, or -1: the
  // lines the line orderings keep together, written to the .vtu to inspect them.
  std::vector<index_t> line_id;
};
OrderedMesh load_ordered_mesh(const harness::CaseConfig& config);
// mesh.ordering with auto resolved: rcm for the matrix-free form, else none.
std::string cell_ordering_name(const harness::CaseConfig& config);

BoundaryMap make_boundary_map(const harness::CaseConfig& config);
EulerSettings make_euler_settings(const harness::CaseConfig& config);
PseudoTimeSettings make_pseudo_time_settings(const harness::CaseConfig& config);
double angle_of_attack(const harness::CaseConfig& config);  // radians

}  // namespace tb::compressible
