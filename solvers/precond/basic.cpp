#include "basic.hpp"

#include <cmath>
#include <memory>
#include <string>

#include "bilu0.hpp"
#include "dense_block.hpp"
#include "kernels.hpp"
#include "solvers/core/error.hpp"
#include "solvers/matrix/bsr_operator.hpp"

namespace tb {

namespace {

void check_vectors(const Vector& r, const Vector& z, index_t rows, const char* who) {
  if (r.size() != std::size_t(rows) || z.size() != std::size_t(rows))
    throw Error(std::string(who) + ": vector length does not match the matrix set up");
}

class Identity final : public Preconditioner {
 public:
  void setup(const BsrMatrix& a, Backend) override { rows_ = a.rows(); }
  void update(const BsrMatrix&) override {}
  bool updates_in_place() const override { return true; }
  void update_in_place(const BsrView&) override {}
  bool sets_up_in_place() const override { return true; }
  void setup_in_place(const BsrMatrix& pattern, const BsrView&, Backend) override { rows_ = pattern.rows(); }
  void apply(const Vector& r, Vector& z) const override {
    check_vectors(r, z, rows_, "identity");
    z.copy_from(r);
  }
  bool supports(Backend) const override { return true; }

 private:
  index_t rows_ = 0;
};

// Point and block Jacobi share one shape: the inverted diagonal is itself a
// block-diagonal BSR matrix, so applying it is a BSR SpMV on any backend. On
// the host the operator borrows inv_ (no second copy of it); so that its
// address stays, the object is never moved. From values on its backend
// (update_in_place) the inverse is computed there, into the operator's own
// values on a device (kernels::invert_diagonal): nothing moves but a flag.
class DiagonalInverse final : public Preconditioner {
 public:
  explicit DiagonalInverse(bool whole_blocks) : whole_blocks_(whole_blocks) {}
  DiagonalInverse(DiagonalInverse&&) = delete;
  DiagonalInverse& operator=(DiagonalInverse&&) = delete;

  void setup(const BsrMatrix& a, Backend backend) override {
    lay_out(a, backend);
    invert_diagonal(a);
    op_ = std::make_unique<BsrOperator>(inv_, backend, BsrOperator::Storage::borrow);
  }
  // The inverse's layout from the pattern, then its numbers where the values are.
  bool sets_up_in_place() const override { return true; }
  void setup_in_place(const BsrMatrix& pattern, const BsrView& a, Backend backend) override {
    lay_out(pattern, backend);
    op_ = std::make_unique<BsrOperator>(inv_, backend, BsrOperator::Storage::borrow);
    update_in_place(a);
  }
  bool updates_in_place() const override { return true; }
  void update_in_place(const BsrView& a) override {
    if (!op_) throw Error(name() + ": update_in_place() before setup()");
    if (a.block_size != inv_.block_size || a.block_rows != inv_.block_rows)
      throw Error(name() + ": the matrix's shape changed since set-up; call setup() again");
    const bool on_host = backend_ == Backend::host;
    double* inverse = on_host ? inv_.values.data() : op_->values_on_backend();
    const index_t bad = precond::kernels::invert_diagonal(backend_, a, on_host ? diag_.data() : diag_on_backend_.data(),
                                                          whole_blocks_, inverse, flag_.data());
    if (bad >= 0)
      throw Error(name() +
                  (whole_blocks_ ? ": singular or non-finite diagonal block in block row "
                                 : ": a zero or non-finite diagonal entry in block row ") +
                  std::to_string(bad));
    if (on_host) op_->update_values(inv_);
  }
  void update(const BsrMatrix& a) override {
    if (!op_) throw Error(name() + ": update() before setup()");
    invert_diagonal(a);
    op_->update_values(inv_);
  }
  void apply(const Vector& r, Vector& z) const override { op_->apply(r, z); }
  bool supports(Backend) const override { return true; }

 private:
  std::string name() const { return whole_blocks_ ? "block_jacobi" : "jacobi"; }

  // The inverse's pattern (one block per row) and positions from a's pattern; zeros for values.
  void lay_out(const BsrMatrix& a, Backend backend) {
    diag_ = a.diagonal_positions();
    inv_.block_size = a.block_size;
    inv_.block_rows = inv_.block_cols = a.block_rows;
    inv_.row_ptr.resize(a.block_rows + 1);
    inv_.col_idx.resize(a.block_rows);
    for (index_t i = 0; i <= a.block_rows; ++i) inv_.row_ptr[i] = i;
    for (index_t i = 0; i < a.block_rows; ++i) inv_.col_idx[i] = i;
    inv_.values.assign(std::size_t(a.block_rows) * a.block_entries(), 0.0);
    backend_ = backend;
    if (backend == Backend::cuda) {
      diag_on_backend_ = Array<index_t>(backend, std::span<const index_t>(diag_));
      flag_ = Array<index_t>(backend, 1);
    }
  }

  void invert_diagonal(const BsrMatrix& a) {
    const index_t n = a.block_size;
    for (index_t i = 0; i < a.block_rows; ++i) {
      const double* d = a.block(diag_[i]);
      double* out = inv_.block(i);
      if (whole_blocks_) {
        std::copy(d, d + n * n, out);
        if (!dense::invert(out, n))
          throw Error("block_jacobi: singular or non-finite diagonal block in block row " + std::to_string(i));
        continue;
      }
      for (index_t c = 0; c < n; ++c) {
        const double v = d[c * n + c];
        if (v == 0.0 || !std::isfinite(v))
          throw Error("jacobi: diagonal entry of row " + std::to_string(i * n + c) + " is " + std::to_string(v));
        out[c * n + c] = 1.0 / v;
      }
    }
  }

  bool whole_blocks_;
  Backend backend_ = Backend::host;
  std::vector<index_t> diag_;
  Array<index_t> diag_on_backend_, flag_;  // cuda: diag_ there, and the singular check's flag
  BsrMatrix inv_;
  std::unique_ptr<BsrOperator> op_;
};

class SequentialBilu0 final : public Preconditioner {
 public:
  void setup(const BsrMatrix& a, Backend) override {
    f_ = bilu0_symbolic(a);
    precond::kernels::ref::bilu0_factor(a, f_);
  }
  void update(const BsrMatrix& a) override { precond::kernels::ref::bilu0_factor(a, f_); }
  void apply(const Vector& r, Vector& z) const override {
    check_vectors(r, z, f_.pattern.rows(), "bilu0");
    precond::kernels::ref::bilu0_apply(f_, r.data(), z.data());
  }
  bool supports(Backend b) const override { return b == Backend::host; }

 private:
  Bilu0Factors f_;
};

}  // namespace

std::unique_ptr<Preconditioner> make_identity() { return std::make_unique<Identity>(); }
std::unique_ptr<Preconditioner> make_point_jacobi() { return std::make_unique<DiagonalInverse>(false); }
std::unique_ptr<Preconditioner> make_block_jacobi() { return std::make_unique<DiagonalInverse>(true); }
std::unique_ptr<Preconditioner> make_bilu0() { return std::make_unique<SequentialBilu0>(); }

}  // namespace tb
