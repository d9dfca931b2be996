#pragma once
// tb-incomp's physics as the harness sees it: two linear systems per step
// (momentum, then pressure), steady state by time marching, fields as .vts/.pvd
// and centreline CSVs, Ghia or Poiseuille errors as figures of merit.
//
// Decomposed over the ranks of an mpiexec run (docs/distributed.md): the grid is split
// into slabs of planes along y (2D) or z (3D), each rank steps its slab with two
// ghost planes each side (FvGrid::piece, FractionalStep over a DomainShare),
// writes its piece of the fields (.vts) and rank 0 the .pvts, the .pvd and the
// centreline CSVs, whose samples the ranks add up.
#include <array>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>

#include "miniapps/common/case_config.hpp"
#include "miniapps/common/pvd_series.hpp"
#include "miniapps/common/simulation.hpp"
#include "physics/incompressible/centreline.hpp"
#include "physics/incompressible/fractional_step.hpp"
#include "physics/incompressible/resident_step.hpp"

namespace tb::incompressible {

class IncompressibleSimulation final : public harness::Simulation {
 public:
  // decompose: split the grid over the run's ranks when there are several.
  explicit IncompressibleSimulation(const harness::CaseConfig& config, bool decompose = false);
  ~IncompressibleSimulation() override;

  void declare_systems(systems::SystemRegistry& registry) override { flow_->declare_systems(registry); }
  harness::StepResult advance(systems::LinearSystems& systems) override;
  bool steady_state_reached() const override;
  std::vector<std::pair<std::string, double>> state_magnitudes() const override;
  void save_state(std::ostream& out) const override;
  void load_state(std::istream& in) override;
  bool keep_state() override;
  void restore_kept_state() override;
  void write_fields(const std::filesystem::path& dir, long step) override;
  std::vector<std::pair<std::string, double>> figures_of_merit() const override;
  std::string decomposition() const override { return decomposition_; }
  std::string scheme() const override;

  // The step resident on b from the next step on (run.backend = cuda's, made
  // by the constructor; the tests' twin on the host backend).
  void reside_on(Backend b) { reside_on_ = b; }
  // The flow's state on the host (brought back from the device where the step runs there).
  const FractionalStep& flow() const;
  // u(y) through the vertical centreline and v(x) through the horizontal one (mid-plane in 3D).
  Profile u_vertical_centreline() const;
  Profile v_horizontal_centreline() const;
  // max |profile - table| of component `component` along `along` through the
  // middle of the cavity, reduced where the velocity lives.
  double ghia_deviation(int component, int along, const Profile& table, double scale) const;
  // max |u - 6 U s (1 - s)| over the outlet column (last cells in x), U the mean inflow.
  double poiseuille_error() const;

 private:
  FvGrid slab_of_this_rank(const FvGrid& whole);
  void write_piece(const std::filesystem::path& fields, const std::string& stem);

  std::unique_ptr<DomainShare> share_;  // null: the whole grid on this process
  std::string decomposition_;
  std::unique_ptr<FractionalStep> flow_;
  // run.backend = cuda (the whole grid or this rank's slab): the step runs on
  // the device (ResidentStep, made at the first step); the host's state is
  // brought back only for output, a checkpoint and the figures of merit.
  std::optional<Backend> reside_on_;
  std::unique_ptr<ResidentStep> resident_;
  mutable bool host_current_ = true;
  double steady_tol_ = 0.0;
  int ghia_reynolds_ = 0;
  bool poiseuille_ = false;
  double last_change_ = std::numeric_limits<double>::infinity();
  double last_domain_cfl_ = 0.0;  // dt max|u| / L: time steps per domain crossing, inverted
  double domain_length_ = 0.0;
  double last_divergence_ = 0.0;
  std::array<double, 3> kept_scalars_{};  // last_change_, last_domain_cfl_, last_divergence_ at keep_state
  harness::PvdSeries outputs_;            // the .pvd entries so far
  bool warned_no_vtk_ = false;
};

}  // namespace tb::incompressible
