#pragma once
// ParILUT (seed 003 Fig. 2): from L = tril(A)/diag, U = triu(A), each step
//   1. finds the candidate locations F = (A + LU) \ (L u U),
//   2. computes the ILU residual there and adds F with it as initial value,
//   3. sweeps the fixed-point iteration over the grown pattern,
//   4. selects a threshold per factor that keeps nnz within fill x nnz(A),
//   5. drops the entries below it and sweeps again.
// ParILU (fixed pattern, A's) is the same sweeps without steps 1-2 and 4-5.
#include <array>
#include <memory>
#include <vector>

#include "ilu_factors.hpp"
#include "solvers/krylov/preconditioner.hpp"

namespace tb::parilut {

enum class Kernel { ref, omp };

struct ParilutOptions {
  double fill = 2.0;          // off-diagonal nnz of L and U each at most fill x that of A's triangle
  int steps = 5;              // add/remove cycles
  int sweeps = 1;             // fixed-point sweeps after each add and each remove
  bool exact_select = false;  // exact Sampleselect, or one approximate level (the paper's default)
  Kernel kernel = Kernel::omp;
  // The step pipeline (step_pipeline.hpp) plans room for this many times the
  // fill budget's off-diagonal entries (plus one per row) of candidates a step.
  double candidate_room = 4.0;
};

// Wall time of one step's building blocks, the bars of seed 003 Fig. 11:
// candidates F = (A + LU) \ (L u U) (two passes), the ILU residual at F (Fig. 7),
// merging F into L and U, the fixed-point sweeps (after the addition and after
// the removal), the two thresholds (Sampleselect), dropping the entries below them.
enum class StepBlock { candidates, residuals, add, sweeps, select, remove };
inline constexpr std::array<const char*, 6> step_block_names = {"candidates", "residuals", "add",
                                                                "sweeps",     "select",    "remove"};

struct StepSeconds {
  std::array<double, step_block_names.size()> block{};
  double& operator[](StepBlock b) { return block[std::size_t(b)]; }
  StepSeconds& operator+=(const StepSeconds& o) {
    for (std::size_t i = 0; i < block.size(); ++i) block[i] += o.block[i];
    return *this;
  }
  double total() const {
    double t = 0.0;
    for (double s : block) t += s;
    return t;
  }
};

struct StepReport {
  long long candidates = 0;       // |F|
  double candidate_residual = 0;  // ||R restricted to F||_F, the paper's residual-norm estimate
  long long nnz_after_add = 0;    // off-diagonal nnz of L and U
  long long nnz_after_remove = 0;
  StepSeconds seconds;
};

IluFactors parilut_factor(const CsrMatrix& a, const ParilutOptions& o, std::vector<StepReport>* report = nullptr);
IluFactors parilu_factor(const CsrMatrix& a, int sweeps, Kernel kernel);

// z = U^{-1} L^{-1} r by sequential substitution.
void ilu_apply_ref(const IluFactors& f, const double* r, double* z);

std::unique_ptr<Preconditioner> make_parilut(const ParilutOptions& o);
std::unique_ptr<Preconditioner> make_parilu(int sweeps, Kernel kernel);
// Eigen's IncompleteLUT (Saad's dual-threshold ILUT, sequential): the quality
// reference threshold ILU is compared against.
std::unique_ptr<Preconditioner> make_eigen_ilut(double drop_tolerance, int fill_factor);

}  // namespace tb::parilut
