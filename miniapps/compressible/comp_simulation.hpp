#pragma once
// tb-comp2d's physics as the harness sees it: one linear system per pseudo-time
// step ("flow"), steady once the energy residual fell by converge.rel_tol and
// Cl and Cd settled to converge.force_tol (physics/compressible/force_history.hpp),
// fields as .vtu/.pvd, the wall Cp as CSV, Cl and Cd as figures of merit.
//
// Decomposed over the ranks of an mpiexec run (docs/distributed.md): rank 0 reads the
// mesh, partitions its cells with METIS and sends each rank its piece (owned
// cells and two ghost layers, mesh/decomposition.hpp), so that no other rank
// holds the whole mesh; the pseudo-time solver steps the piece with ghost exchanges and global
// reductions (DomainShare), the flow system holds each rank's rows in the
// part-by-part numbering, each rank writes its piece of the fields (.vtu with
// vtkGhostType) and rank 0 the .pvtu, the .pvd and wall.csv.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "miniapps/common/case_config.hpp"
#include "miniapps/common/pvd_series.hpp"
#include "miniapps/common/simulation.hpp"
#include "miniapps/compressible/comp_case.hpp"
#include "physics/compressible/force_history.hpp"

namespace tb::compressible {

class CompressibleSimulation final : public harness::Simulation {
 public:
  // decompose: split the mesh over the run's ranks when there are several.
  explicit CompressibleSimulation(const harness::CaseConfig& config, bool decompose = false);
  ~CompressibleSimulation() override;

  void declare_systems(systems::SystemRegistry& registry) override { solver_->declare_systems(registry); }
  harness::StepResult advance(systems::LinearSystems& systems) override;
  bool steady_state_reached() const override { return converged(); }
  // A pseudo-transient run exists to converge: reaching run.steps short of it
  // is a failed run (exit 1), not a result (docs/compressible.md).
  bool must_converge() const override { return true; }
  void save_state(std::ostream& out) const override;
  void load_state(std::istream& in) override;
  bool keep_state() override;
  void restore_kept_state() override;
  void write_fields(const std::filesystem::path& dir, long step) override;
  std::vector<std::pair<std::string, double>> figures_of_merit() const override;
  std::string decomposition() const override { return decomposition_; }
  std::string scheme() const override { return scheme_; }

  const PseudoTimeSolver& solver() const { return *solver_; }
  // The backend the pseudo-time solver resides on from the next step
  // (PseudoTimeSolver::reside; run.backend = cuda: the device, where it can).
  // Tests take the host backend with systems whose device storage is host memory.
  void reside_on(Backend b);
  // The energy residual fell by converge.rel_tol and the forces settled. A state
  // whose residual is exactly zero in every equation solves the discrete
  // equations: no update moves it, so its forces cannot change either.
  bool converged() const {
    return solver_->converged() && (force_tol_ == 0.0 || forces_.settled(force_tol_) || exact_solution());
  }
  bool exact_solution() const {
    for (double r : solver_->residual_norms())
      if (r != 0.0) return false;
    return true;
  }
  const EulerDiscretisation& discretisation() const { return *disc_; }

 private:
  // This rank's piece from rank 0 (mesh_, share_ and the per-cell numbers);
  // returns the boundary kinds of the whole mesh's markers.
  std::vector<BoundaryKind> receive_piece(const harness::CaseConfig& config, GradientStencil stencil);
  void write_piece(const std::filesystem::path& fields, const std::string& stem);

  Mesh2D mesh_;  // the whole mesh in its ordering, or this rank's piece
  // Per cell of mesh_: the file's cell number and the line id (comp_case.hpp's OrderedMesh).
  std::vector<index_t> file_cell_, line_id_;
  std::vector<index_t> ordering_index_;  // per cell: its number in the ordered whole mesh
  std::unique_ptr<DomainShare> share_;   // null: the whole mesh on this process
  std::uint64_t partition_digest_ = 0;   // of the piece's cells, checked on restart
  std::string decomposition_;
  std::string scheme_;  // the Jacobian form, the CFL ramp and the cell order, as resolved
  std::unique_ptr<EulerDiscretisation> disc_;
  std::unique_ptr<PseudoTimeSolver> solver_;
  double alpha_ = 0.0;
  double reference_length_ = 1.0;
  double force_tol_ = 0.0;            // converge.force_tol
  ForceHistory forces_;               // Cl and Cd after each step
  ForceHistory kept_forces_;          // keep_state()'s
  std::optional<Backend> reside_on_;  // reside_on(): the solver resides there from the next step
  harness::PvdSeries outputs_;        // the .pvd entries so far
  bool warned_no_vtk_ = false;
};

}  // namespace tb::compressible
