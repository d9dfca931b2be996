#pragma once
// tb-comp2d's physics as the harness sees it: one linear system per pseudo-time
// step ("flow"), steady once the energy residual fell by converge.rel_tol,
// fields as .vtu/.pvd, the wall Cp as CSV, Cl and Cd as figures of merit.
#include <memory>

#include "miniapps/common/case_config.hpp"
#include "miniapps/common/pvd_series.hpp"
#include "miniapps/common/simulation.hpp"
#include "miniapps/compressible/comp_case.hpp"

namespace tb::compressible {

class CompressibleSimulation final : public harness::Simulation {
 public:
  explicit CompressibleSimulation(const harness::CaseConfig& config);

  std::vector<std::string> linear_systems() const override { return {"flow"}; }
  harness::StepResult advance(harness::LinearSystems& solvers) override;
  bool steady_state_reached() const override { return solver_->converged(); }
  // A pseudo-transient run exists to converge: reaching run.steps short of it
  // is a failed run (exit 1), not a result (issue 24).
  bool must_converge() const override { return true; }
  // Seed 001 §6: FGMRES to one order of residual reduction, "but only up to a
  // maximum of 60 iterations": a solve stopped there is the method's inexact step.
  bool accepts_iteration_limit(const std::string&) const override { return true; }
  void save_state(std::ostream& out) const override;
  void load_state(std::istream& in) override;
  void write_fields(const std::filesystem::path& dir, long step) override;
  std::vector<std::pair<std::string, double>> figures_of_merit() const override;

  const PseudoTimeSolver& solver() const { return *solver_; }
  const EulerDiscretisation& discretisation() const { return *disc_; }

 private:
  OrderedMesh mesh_;
  std::unique_ptr<EulerDiscretisation> disc_;
  std::unique_ptr<PseudoTimeSolver> solver_;
  double alpha_ = 0.0;
  double reference_length_ = 1.0;
  harness::PvdSeries outputs_;  // the .pvd entries so far
  bool warned_no_vtk_ = false;
};

}  // namespace tb::compressible
