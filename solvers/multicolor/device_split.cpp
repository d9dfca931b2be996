#include "device_split.hpp"

#include <string>
#include <type_traits>

#include "cuda/kernels.hpp"
#include "kernels.hpp"
#include "solvers/core/cuda_call.hpp"
#include "solvers/core/error.hpp"

namespace tb::multicolor {

namespace {

template <class T>
void transpose_blocks(const std::vector<T>& row_major, index_t n, std::vector<T>& col_major) {
  const std::size_t bb = std::size_t(n) * n;
  for (std::size_t k = 0; k < row_major.size(); k += bb)
    for (index_t r = 0; r < n; ++r)
      for (index_t c = 0; c < n; ++c) col_major[k + c * n + r] = row_major[k + r * n + c];
}

}  // namespace

DeviceSplit::DeviceSplit(const ColourPattern& p, const Options& o)
    : opt_(o),
      block_size_(p.block_size),
      new_to_old_(Backend::cuda, std::span<const index_t>(p.new_to_old)),
      ia_(Backend::cuda, std::span<const index_t>(p.ia)),
      ja_(Backend::cuda, std::span<const index_t>(p.ja)),
      d_(Backend::cuda, std::size_t(p.block_rows) * p.block_size * p.block_size),
      b_(Backend::cuda, std::size_t(p.block_rows) * p.block_size),
      x_(Backend::cuda, std::size_t(p.block_rows) * p.block_size),
      q_(Backend::cuda, std::size_t(p.block_rows) * p.block_size) {
  opt_.kernel = choose_kernel(o.kernel, true, p.block_rows, p.block_size);
  const std::size_t o_entries = p.ja.size() * p.block_size * p.block_size;
  if (o.precision == Precision::mixed) {
    o32_ = Array<float>(Backend::cuda, o_entries);
    staging32_.resize(o_entries);
  } else {
    o64_ = Array<double>(Backend::cuda, o_entries);
  }
  if (opt_.kernel == Kernel::library) {
    if (o.precision != Precision::fp64)
      throw Error(
          "multicolor: kernel=library needs precision=double (cuSPARSE bsrmv has no fp32-matrix, fp64-vector form)");
    const RelaxView<double> m{p.block_size, ia_.data(), ja_.data(), d_.data(), o64_.data()};
    library_ = TB_CUDA_CALL(kernels::cuda::make_library_colour_solver(m, p.colour_begin.data(), p.num_colours(),
                                                                      p.ia.data(), p.block_rows, q_.data()));
  }
  if (opt_.kernel == Kernel::fused) {
    if (p.block_size > fused_max_block_size)
      throw Unsupported("multicolor: kernel=fused takes block sizes up to " + std::to_string(fused_max_block_size) +
                        " (got " + std::to_string(p.block_size) + "); use kernel=tuned");
    colours_ = StageSchedule(Backend::cuda, std::span<const index_t>(p.colour_begin),
                             kernels::cuda::fused_rows_per_group(p.block_size));
  }
}

void DeviceSplit::upload_values(const SplitValues& v) {
  std::vector<double>& d_cm = staging64_;
  d_cm.resize(v.d.size());
  transpose_blocks(v.d, block_size_, d_cm);
  d_.copy_from_host(d_cm);
  if (v.precision == Precision::mixed) {
    transpose_blocks(v.o32, block_size_, staging32_);
    o32_.copy_from_host(staging32_);
  } else {
    staging64_.resize(v.o64.size());
    transpose_blocks(v.o64, block_size_, staging64_);
    o64_.copy_from_host(staging64_);
  }
}

template <class Real>
void DeviceSplit::sweep(const ColourPattern& p, const Array<Real>& o) {
  const RelaxView<Real> m{block_size_, ia_.data(), ja_.data(), d_.data(), o.data()};
  if (opt_.kernel == Kernel::fused)
    return TB_CUDA_CALL(kernels::cuda::relax_sweep_fused(m, colours_.view(), b_.data(), x_.data()));
  for (index_t k = 0; k < p.num_colours(); ++k) {
    const index_t begin = p.colour_begin[k], end = p.colour_begin[k + 1];
    switch (opt_.kernel) {
      case Kernel::ref:
        TB_CUDA_CALL(kernels::cuda::relax_colour(m, begin, end, b_.data(), x_.data()));
        break;
      case Kernel::tuned:
        TB_CUDA_CALL(kernels::cuda::matvec_colour(m, begin, end, b_.data(), x_.data(), q_.data()));
        TB_CUDA_CALL(kernels::cuda::forward_backward_colour(block_size_, d_.data(), begin, end, q_.data(), x_.data()));
        break;
      case Kernel::library:
        TB_CUDA_CALL(kernels::cuda::relax_colour_library(*library_, k, b_.data(), x_.data()));
        break;
      case Kernel::fused:      // one launch above
      case Kernel::automatic:  // resolved in the constructor
        break;
    }
  }
}

void DeviceSplit::matvec_only(const ColourPattern& p) {
  auto run = [&](const auto& o) {
    using Real = std::remove_cvref_t<decltype(*o.data())>;  // spelled out: clang 14 deduces no aggregate
    const RelaxView<Real> m{block_size_, ia_.data(), ja_.data(), d_.data(), o.data()};
    for (index_t k = 0; k < p.num_colours(); ++k)
      TB_CUDA_CALL(
          kernels::cuda::matvec_colour(m, p.colour_begin[k], p.colour_begin[k + 1], b_.data(), x_.data(), q_.data()));
  };
  if (opt_.precision == Precision::mixed)
    run(o32_);
  else
    run(o64_);
}

void DeviceSplit::apply(const ColourPattern& p, const Vector& r, Vector& z) {
  TB_CUDA_CALL(kernels::cuda::gather_blocks(new_to_old_.data(), p.block_rows, block_size_, r.data(), b_.data()));
  x_.set_zero();
  for (int s = 0; s < opt_.sweeps; ++s) {
    if (opt_.precision == Precision::mixed)
      sweep(p, o32_);
    else
      sweep(p, o64_);
  }
  TB_CUDA_CALL(kernels::cuda::scatter_blocks(new_to_old_.data(), p.block_rows, block_size_, x_.data(), z.data()));
}

}  // namespace tb::multicolor
