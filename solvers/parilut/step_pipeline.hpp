#pragma once
// ParILUT (seed 003 Fig. 2) with every step on one backend: the factors in
// device-friendly storage (L and U in CSR with each entry's row, U also by
// columns), the workspace planned and allocated once per pattern of A with
// room linear in the fill budget, and each step a chain of row- or
// entry-parallel kernels (TB_PARILUT_STEP_KERNELS, kernels.hpp):
//   candidates (count, scan, fill; Eq. 5)  ->  residuals (Fig. 7)
//   -> add (count, scan, merge) -> U's columns -> sweeps (Eq. 2-3)
//   -> off-diagonal magnitudes -> threshold per factor (Sampleselect, Fig. 3)
//   -> ties (count, scan) -> remove (count, scan, fill) -> U's columns -> sweeps.
// On the host (ref: the pipeline twin, omp) the threshold is sample_select
// on the magnitudes; on a CUDA device DeviceSampleSelect, which equals it.
// Between kernels only sizes cross to the host (the scans' totals and the
// selection's bucket counts), never factor data.
//
// The preconditioner's substitutions are level-scheduled: the levels of L and
// U are computed on the host once per factorisation (from the final pattern),
// and each level is one row-parallel step.
#include <memory>
#include <vector>

#include "parilut.hpp"
#include "pattern_update.hpp"
#include "solvers/core/array.hpp"
#include "step_rows.hpp"

namespace tb::parilut {

class DeviceSampleSelect;

// What the workspace holds, fixed per pattern of A. After a removal L and U
// hold at most budget_l / budget_u off-diagonal entries; a step's candidates
// are at most candidate_capacity = candidate_room x (budget_l + budget_u) + n,
// and an addition at most l_capacity / u_capacity entries. A step whose
// candidates exceed the capacity throws tb::Error naming candidate_room.
struct PipelinePlan {
  index_t n = 0;
  long long budget_l = 0, budget_u = 0;
  index_t candidate_capacity = 0, l_capacity = 0, u_capacity = 0;
  // The bytes of every array the pipeline allocates (both backends).
  std::size_t workspace_bytes() const;
};
PipelinePlan plan_pipeline(const CsrMatrix& a, double fill, double candidate_room);

// A CSR factor on one backend with room for `capacity` entries.
struct FactorArrays {
  Array<index_t> ptr, col, row;
  Vector val;
  FactorArrays(Backend b, index_t n, index_t capacity);
  CsrView view() { return {ptr.data(), col.data(), val.data(), row.data()}; }
};

// The level schedule of one triangular factor: rows grouped by level.
struct LevelSchedule {
  std::vector<index_t> level_ptr{0};  // host: level k is rows[level_ptr[k] .. level_ptr[k + 1])
  Array<index_t> rows;                // on the pipeline's backend
};

class StepPipeline {
 public:
  // backend host: o.kernel picks the sequential twin (ref) or OpenMP (omp).
  // cuda: the CUDA kernels (throws tb::Unsupported without a device).
  StepPipeline(const CsrMatrix& a, const ParilutOptions& o, Backend backend);
  ~StepPipeline();
  StepPipeline(const StepPipeline&) = delete;
  StepPipeline& operator=(const StepPipeline&) = delete;

  // The initial guess from a's values (a has the constructor's pattern; built
  // on the host and copied in once), then o.steps steps, then the levels.
  void factor(const CsrMatrix& a, std::vector<StepReport>* report = nullptr);
  // The current factors, copied to the host.
  IluFactors factors() const;
  // z = U^{-1} L^{-1} r, all three on the pipeline's backend (n entries).
  void apply(const double* r, double* z) const;

  const PipelinePlan& plan() const { return plan_; }
  Backend backend() const { return backend_; }
  index_t levels() const { return index_t(lower_.level_ptr.size() + upper_.level_ptr.size()) - 2; }

 private:
  StepView view();
  void step(StepReport& r);
  index_t scan(index_t* v);
  void swap_factors(index_t l_nnz, index_t u_nnz);
  DropRule drop_rule(bool lower, long long budget);
  void remove(bool lower, DropRule rule);
  void sweeps();
  void schedule_levels();

  ParilutOptions opt_;
  Backend backend_;
  PipelinePlan plan_;
  index_t a_nnz_ = 0, l_nnz_ = 0, u_nnz_ = 0, l_nnz_next_ = 0, u_nnz_next_ = 0;
  Array<index_t> a_ptr_, a_col_;
  Vector a_val_;
  FactorArrays l_[2], u_[2], c_;
  int cur_ = 0;
  Array<index_t> uc_ptr_, uc_row_, uc_pos_, uc_next_, ties_, scan_scratch_;
  Vector magnitudes_;
  mutable Vector y_;  // L^{-1} r in apply
  std::unique_ptr<DeviceSampleSelect> select_;
  LevelSchedule lower_, upper_;
};

}  // namespace tb::parilut
