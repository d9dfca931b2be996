// The registry's parilut, parilu and ilut: scalar factorisations of a BSR
// matrix's entries (the block structure is not used by threshold ILU).
#include <Eigen/IterativeLinearSolvers>
#include <Eigen/SparseCore>
#include <string>

#include "parilut.hpp"
#include "solvers/core/error.hpp"
#include "solvers/matrix/bsr.hpp"
#include "step_pipeline.hpp"

namespace tb::parilut {

namespace {

void check_vectors(const Vector& r, const Vector& z, index_t rows, const char* who) {
  if (r.size() != std::size_t(rows) || z.size() != std::size_t(rows))
    throw Error(std::string(who) + ": vector length does not match the matrix set up");
}

void require_host(Backend b, const char* who) {
  if (b != Backend::host) throw Unsupported(std::string(who) + ": only the host backend is implemented so far");
}

// ParILUT and ParILU recompute their factors from A on every update: a
// threshold pattern follows the values, and ParILU's sweeps start from A.
// ParILUT on the cuda backend runs the step pipeline on the device, its
// workspace planned once per pattern of A.
class FixedPointIlu final : public Preconditioner {
 public:
  FixedPointIlu(ParilutOptions o, bool threshold) : opt_(o), threshold_(threshold) {}

  void setup(const BsrMatrix& a, Backend backend) override {
    // On the cuda backend StepPipeline refuses a machine without a device (tb::Unsupported).
    if (backend != Backend::cuda || !threshold_) require_host(backend, name());
    backend_ = backend;
    if (backend_ == Backend::host) pipeline_.reset();
    update(a);
  }
  void update(const BsrMatrix& a) override {
    a_ = bsr_to_csr(a, true);
    if (backend_ == Backend::host) {
      f_ = threshold_ ? parilut_factor(a_, opt_) : parilu_factor(a_, opt_.sweeps, opt_.kernel);
      return;
    }
    if (!pipeline_ || a_.row_ptr != pattern_ptr_ || a_.col_idx != pattern_col_) {
      pipeline_ = std::make_unique<StepPipeline>(a_, opt_, backend_);
      pattern_ptr_ = a_.row_ptr, pattern_col_ = a_.col_idx;
    }
    pipeline_->factor(a_);
  }
  void apply(const Vector& r, Vector& z) const override {
    check_vectors(r, z, a_.rows, name());
    if (pipeline_)
      pipeline_->apply(r.data(), z.data());
    else
      ilu_apply_ref(f_, r.data(), z.data());
  }
  bool supports(Backend b) const override { return b == Backend::host || threshold_; }

 private:
  const char* name() const { return threshold_ ? "parilut" : "parilu"; }
  ParilutOptions opt_;
  bool threshold_;
  Backend backend_ = Backend::host;
  CsrMatrix a_;
  IluFactors f_;
  std::unique_ptr<StepPipeline> pipeline_;
  std::vector<index_t> pattern_ptr_, pattern_col_;
};

class EigenIlut final : public Preconditioner {
 public:
  EigenIlut(double drop_tolerance, int fill_factor) {
    if (!(drop_tolerance >= 0.0) || fill_factor < 1) throw Error("ilut: droptol must be >= 0 and fill >= 1");
    ilut_.setDroptol(drop_tolerance);
    ilut_.setFillfactor(fill_factor);
  }
  void setup(const BsrMatrix& a, Backend backend) override {
    require_host(backend, "ilut");
    update(a);
  }
  void update(const BsrMatrix& a) override {
    const CsrMatrix c = bsr_to_csr(a, true);
    Eigen::SparseMatrix<double, Eigen::RowMajor> m(c.rows, c.cols);
    std::vector<Eigen::Triplet<double>> t;
    t.reserve(std::size_t(c.nnz()));
    for (index_t i = 0; i < c.rows; ++i)
      for (index_t p = c.row_ptr[i]; p < c.row_ptr[i + 1]; ++p) t.emplace_back(i, c.col_idx[p], c.values[p]);
    m.setFromTriplets(t.begin(), t.end());
    ilut_.compute(m);
    if (ilut_.info() != Eigen::Success) throw Error("ilut: Eigen's IncompleteLUT failed (a zero pivot)");
    rows_ = c.rows;
  }
  void apply(const Vector& r, Vector& z) const override {
    check_vectors(r, z, rows_, "ilut");
    Eigen::Map<const Eigen::VectorXd> rv(r.data(), rows_);
    Eigen::Map<Eigen::VectorXd> zv(z.data(), rows_);
    zv = ilut_.solve(rv);
  }
  bool supports(Backend b) const override { return b == Backend::host; }

 private:
  Eigen::IncompleteLUT<double> ilut_;
  index_t rows_ = 0;
};

}  // namespace

std::unique_ptr<Preconditioner> make_parilut(const ParilutOptions& o) {
  return std::make_unique<FixedPointIlu>(o, true);
}
std::unique_ptr<Preconditioner> make_parilu(int sweeps, Kernel kernel) {
  ParilutOptions o;
  o.sweeps = sweeps, o.kernel = kernel;
  return std::make_unique<FixedPointIlu>(o, false);
}
std::unique_ptr<Preconditioner> make_eigen_ilut(double drop_tolerance, int fill_factor) {
  return std::make_unique<EigenIlut>(drop_tolerance, fill_factor);
}

}  // namespace tb::parilut
