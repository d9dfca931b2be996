#include "preconditioner.hpp"

#include <string>

#include "solvers/core/error.hpp"

namespace tb {

namespace {

std::string shape(index_t block_rows, index_t block_cols, index_t block_size) {
  return std::to_string(block_rows) + " x " + std::to_string(block_cols) + " blocks of " + std::to_string(block_size) +
         " x " + std::to_string(block_size);
}

class AsyncIluPreconditioner final : public Preconditioner {
 public:
  explicit AsyncIluPreconditioner(const async_ilu::Options& o) : ilu_(o) {}
  void setup(const BsrMatrix& a, Backend backend) override { ilu_.setup(a, backend); }
  void update(const BsrMatrix& a) override { ilu_.factor(a); }
  bool updates_in_place() const override { return ilu_.factors_in_place(); }
  // A's values on the backend of setup, on its pattern: the view's shape is
  // checked against the set-up pattern (its arrays live on the backend).
  void update_in_place(const BsrView& a) override {
    const BsrMatrix& p = ilu_.pattern();
    if (!ilu_.is_set_up()) throw Error("async_ilu: update_in_place() before setup()");
    if (a.block_size != p.block_size || a.block_rows != p.block_rows || a.block_cols != p.block_cols)
      throw Error("async_ilu: update_in_place() from a matrix of " + shape(a.block_rows, a.block_cols, a.block_size) +
                  ", set up for " + shape(p.block_rows, p.block_cols, p.block_size) + "; call setup() again");
    ilu_.factor_in_place(a.values);
  }
  void apply(const Vector& r, Vector& z) const override {
    const std::size_t n = std::size_t(ilu_.rows());
    if (r.size() != n || z.size() != n || r.backend() != ilu_.backend() || z.backend() != ilu_.backend())
      throw Error("async_ilu: apply() needs two vectors of length " + std::to_string(n) + " on the " +
                  std::string(to_string(ilu_.backend())) + " backend");
    ilu_.apply(r.data(), z.data());
  }
  bool supports(Backend) const override { return true; }
  // Asynchronous sweeps give a different M^{-1} at each application unless
  // the solves are exact; Jacobi sweeps are a fixed linear map.
  bool is_variable() const override {
    return ilu_.options().schedule == async_ilu::Schedule::asynchronous && ilu_.options().apply_sweeps > 0;
  }
  const async_ilu::Diagnostics* diagnostics() const {
    return ilu_.options().diagnostics ? &ilu_.diagnostics() : nullptr;
  }

 private:
  async_ilu::AsyncIlu ilu_;
};

}  // namespace

std::unique_ptr<Preconditioner> make_async_ilu(const async_ilu::Options& o) {
  return std::make_unique<AsyncIluPreconditioner>(o);
}

const async_ilu::Diagnostics* async_ilu_diagnostics(const Preconditioner& p) {
  const auto* a = dynamic_cast<const AsyncIluPreconditioner*>(&p);
  return a ? a->diagnostics() : nullptr;
}

}  // namespace tb
