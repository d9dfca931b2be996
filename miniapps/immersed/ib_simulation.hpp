#pragma once
// tb-ib's physics as the harness sees it. FlowSimulation: the fractional step
// of physics/immersed, three advection-diffusion solves and one pressure solve
// per step, steady state by time marching, drag of a sphere as figures of
// merit. PoissonSimulation: the manufactured Poisson problem, one solve, its
// max-norm error as the figure of merit.
//
// Under --backend cuda a whole grid steps resident on the device
// (physics/immersed/resident_step.hpp): the fields come back only for output,
// checkpoints and the final figures; the drag and the largest velocity of
// each step are reduced there. A moving body is placed on the host each step
// and only its changes are sent. The scheme line says where the step runs.
//
// Under mpiexec both split the grid into slabs of z planes (docs/distributed.md), six
// ghost planes each side (IbSlab): each rank classifies, assembles and solves
// its own planes; rank 0 writes a .pvts of the ranks' pieces.
#include <limits>
#include <memory>

#include "miniapps/common/case_config.hpp"
#include "miniapps/common/pvd_series.hpp"
#include "miniapps/common/simulation.hpp"
#include "physics/immersed/fractional_step.hpp"
#include "physics/immersed/manufactured_poisson.hpp"
#include "physics/immersed/resident_step.hpp"
#include "physics/immersed/surface_force.hpp"

namespace tb::immersed {

inline const std::vector<std::string> ib_systems = {"advection_diffusion", "pressure"};

// The grid of a run: the whole grid, or under mpiexec (decompose) this rank's
// slab of it with the share that refreshes its ghost planes.
struct IbSlab {
  IbSlab(const CartesianGrid& whole, bool decompose);
  CartesianGrid grid;
  std::unique_ptr<DomainShare> share;  // null: the whole grid on this process
  std::string decomposition;           // rank 0's start-up line; empty on one process
  // The whole grid's longest side (the domain length of the steady test).
  double longest_side = 0.0;
  bool root() const { return !share || share->rank() == 0; }
};

class FlowSimulation final : public harness::Simulation {
 public:
  // decompose: split the grid over the run's ranks when there are several.
  explicit FlowSimulation(const harness::CaseConfig& config, bool decompose = false);

  void declare_systems(systems::SystemRegistry& registry) override { flow_->declare_systems(registry); }
  harness::StepResult advance(systems::LinearSystems& systems) override;
  bool steady_state_reached() const override;
  std::vector<std::pair<std::string, double>> state_magnitudes() const override;
  void save_state(std::ostream& out) const override;
  void load_state(std::istream& in) override;
  bool keep_state() override;
  void restore_kept_state() override;
  void write_fields(const std::filesystem::path& dir, long step) override;
  std::string decomposition() const override { return slab_.decomposition; }
  std::string scheme() const override;
  std::vector<std::pair<std::string, double>> figures_of_merit() const override;

  // The flow with its fields on the host (a resident step's brought back first).
  const ImmersedFlow& flow() const;
  // Drag coefficient of a sphere body, NaN for other bodies.
  double drag() const;
  // The force on a sphere body (its stencils built on first use: the sphere does not move).
  SurfaceForce sphere_surface_force(const Sphere& sphere) const;

 private:
  IbSlab slab_;
  std::unique_ptr<ImmersedFlow> flow_;
  bool on_cuda_ = false;                    // --backend cuda
  bool on_device_ = false;                  // --backend cuda and ResidentStep::resident
  std::unique_ptr<ResidentStep> resident_;  // made on the first step, where the systems are
  mutable bool host_current_ = true;        // flow_'s fields are the state
  std::array<double, 3> kept_scalars_{};    // last_change_, last_domain_cfl_, last_divergence_ of the kept state
  double steady_tol_ = 0.0;
  double last_change_ = std::numeric_limits<double>::infinity();
  double last_domain_cfl_ = 0.0;  // dt max|u| / L
  double last_divergence_ = 0.0;
  harness::PvdSeries fields_, surfaces_;
  bool warned_no_vtk_ = false;
  mutable std::unique_ptr<SphereDrag> drag_;
};

class PoissonSimulation final : public harness::Simulation {
 public:
  explicit PoissonSimulation(const harness::CaseConfig& config, bool decompose = false);

  // Both systems of the case, as the flow declares them; the Poisson problem solves "pressure".
  void declare_systems(systems::SystemRegistry& registry) override;
  harness::StepResult advance(systems::LinearSystems& systems) override;
  bool steady_state_reached() const override { return solved_; }
  void save_state(std::ostream& out) const override;
  void load_state(std::istream& in) override;
  void write_fields(const std::filesystem::path& dir, long step) override;
  std::string decomposition() const override { return slab_.decomposition; }
  std::vector<std::pair<std::string, double>> figures_of_merit() const override;

  double max_error() const { return result_.max_error; }

 private:
  IbSlab slab_;
  const CartesianGrid& grid_;
  std::unique_ptr<Body> body_;
  BodyCondition condition_;
  GhostCells cells_;
  PoissonResult result_;
  systems::SystemId pressure_id_;
  bool solved_ = false;
};

// decompose: as the simulations' constructors.
std::unique_ptr<harness::Simulation> make_simulation(const harness::CaseConfig& config, bool decompose = false);

}  // namespace tb::immersed
