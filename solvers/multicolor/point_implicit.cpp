#include "point_implicit.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "device_split.hpp"
#include "kernels.hpp"
#include "relax_colour.hpp"
#include "solvers/core/error.hpp"

namespace tb::multicolor {

namespace {

template <class Real>
void sweep_colours(const ColourPattern& p, const RelaxView<Real>& m, Kernel kernel, int sweeps, const double* b,
                   double* x) {
  for (int s = 0; s < sweeps; ++s)
    for (index_t k = 0; k < p.num_colours(); ++k) {
      kernels::relax_colour(kernel, m, p.colour_begin[k], p.colour_begin[k + 1], b, x);
    }
}

template <class Real>
RelaxView<Real> relax_view(const ColourPattern& p, const SplitValues& v, const std::vector<Real>& o) {
  return {p.block_size, p.ia.data(), p.ja.data(), v.d.data(), o.data()};
}

// Block rows move as wholes between the caller's order and the colour-major one.
void gather_blocks(const std::vector<index_t>& new_to_old, index_t n, const double* from, double* to) {
  for (std::size_t i = 0; i < new_to_old.size(); ++i) std::copy_n(from + std::size_t(new_to_old[i]) * n, n, to + i * n);
}
void scatter_blocks(const std::vector<index_t>& new_to_old, index_t n, const double* from, double* to) {
  for (std::size_t i = 0; i < new_to_old.size(); ++i) std::copy_n(from + i * n, n, to + std::size_t(new_to_old[i]) * n);
}

class PointImplicit final : public Preconditioner {
 public:
  explicit PointImplicit(const Options& o) : opt_(o) {
    if (o.sweeps < 1) throw Error("multicolor: sweeps must be at least 1, got " + std::to_string(o.sweeps));
  }

  void setup(const BsrMatrix& a, Backend backend) override {
    kernel_ = choose_kernel(opt_.kernel, backend == Backend::cuda, a.block_rows, a.block_size);
    if (backend == Backend::host && opt_.kernel == Kernel::library)
      throw Unsupported("multicolor: kernel=library (cuSPARSE + cuBLAS) runs on the cuda backend only");
    if (backend == Backend::host && opt_.kernel == Kernel::fused)
      throw Error("multicolor: kernel=fused (one CUDA launch per sweep) runs on the cuda backend only");
    pattern_ = build_colour_pattern(a, opt_.balance);
    values_ = allocate_split_values(pattern_, opt_.precision);
    fill_split_values(pattern_, a, values_);
    device_.reset();
    if (backend == Backend::cuda) {
      device_ = std::make_unique<DeviceSplit>(pattern_, opt_);  // resolves kernel=auto by choose_kernel too
      device_->upload_values(values_);
    } else {
      b_.assign(std::size_t(a.rows()), 0.0);
      x_.assign(std::size_t(a.rows()), 0.0);
    }
    rows_ = a.rows();
  }
  void update(const BsrMatrix& a) override {
    if (pattern_.new_to_old.empty() && a.rows() > 0) throw Error("multicolor: update() before setup()");
    fill_split_values(pattern_, a, values_);
    if (device_) device_->upload_values(values_);
  }
  void apply(const Vector& r, Vector& z) const override {
    if (r.size() != std::size_t(rows_) || z.size() != std::size_t(rows_))
      throw Error("multicolor: vector length does not match the matrix set up");
    if (device_) return device_->apply(pattern_, r, z);
    const index_t n = pattern_.block_size;
    gather_blocks(pattern_.new_to_old, n, r.data(), b_.data());
    std::fill(x_.begin(), x_.end(), 0.0);
    point_implicit_sweeps(pattern_, values_, kernel_, opt_.sweeps, b_.data(), x_.data());
    scatter_blocks(pattern_.new_to_old, n, x_.data(), z.data());
  }
  bool supports(Backend) const override { return true; }

 private:
  Options opt_;
  Kernel kernel_ = Kernel::tuned;  // opt_.kernel with `automatic` resolved at setup
  ColourPattern pattern_;
  SplitValues values_;
  index_t rows_ = 0;
  mutable std::vector<double> b_, x_;  // host colour-major work vectors, sized once in setup
  std::unique_ptr<DeviceSplit> device_;
};

}  // namespace

Kernel choose_kernel(Kernel asked, bool on_cuda, index_t block_rows, index_t block_size) {
  if (asked != Kernel::automatic) return asked;
  const bool fused_wins = on_cuda && block_size <= 8 && block_rows >= 50'000;
  return fused_wins ? Kernel::fused : Kernel::tuned;
}

void point_implicit_sweeps(const ColourPattern& p, const SplitValues& v, Kernel kernel, int sweeps, const double* b,
                           double* x) {
  if (v.precision == Precision::mixed)
    sweep_colours(p, relax_view(p, v, v.o32), kernel, sweeps, b, x);
  else
    sweep_colours(p, relax_view(p, v, v.o64), kernel, sweeps, b, x);
}

std::unique_ptr<Preconditioner> make_preconditioner(const Options& o) { return std::make_unique<PointImplicit>(o); }

}  // namespace tb::multicolor
