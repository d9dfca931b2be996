// GMRES's scalar steps on the device (kernels.hpp, gmres_scalars.hpp): one
// thread each, the host's loop bodies, queued behind the iteration's vector
// kernels on the default stream, so nothing waits for them. A step that reads
// a reduction runs in the reduction's launch, on thread 0 of its last block
// (solvers/core/cuda/dot_kernels.cuh): the same dot products, the same bits,
// one launch instead of two; classical Gram-Schmidt's last update sums the
// new vector's norm in its own pass, so the column closes in that launch too.
#include <cuda_runtime.h>

#include <mutex>

#include "solvers/core/cuda/dot_kernels.cuh"
#include "solvers/core/cuda/error_check.cuh"
#include "solvers/core/cuda/reduction.cuh"
#include "solvers/core/kernels.hpp"
#include "solvers/krylov/kernels.hpp"

namespace tb::gmres_scalars::kernels::cuda {

namespace {

// The steps that follow a reduction, as dot_kernels.cuh runs them.
struct BeginCycle {
  View v;
  int it;
  StopFactors f;
  __device__ void operator()() const { gmres_scalars::begin_cycle(v, it, f); }
};
struct AddProjection {
  View v;
  int j;
  bool first_pass;
  __device__ void operator()() const { gmres_scalars::add_projection(v, j, first_pass); }
};
struct TakeProjection {
  View v;
  int i, j;
  __device__ void operator()() const { gmres_scalars::take_projection(v, i, j); }
};
struct CloseColumn {
  View v;
  int j, it;
  StopFactors f;
  __device__ void operator()() const { gmres_scalars::close_column(v, j, it, f); }
};

__global__ void solve_for_y_kernel(View v, int j) { gmres_scalars::solve_for_y(v, j); }

// The reductions' block sums and ticket (cuda_reduction::allocate_scratch),
// one launch at a time.
std::mutex scratch_mutex;
const cuda_reduction::Scratch& scratch() {
  static const cuda_reduction::Scratch s =
      cuda_reduction::allocate_scratch(cuda_dots::partial_doubles, "the GMRES reductions' scratch");
  return s;
}

// dot(x[i], w) into out[i] for i < k, then `then`: groups of four vectors, the
// last group's launch running it (the earlier groups' launches precede it).
template <class Then>
void dots_then(const double* const* x, int k, const double* w, std::size_t n, double* out, Then then) {
  std::lock_guard lock(scratch_mutex);
  const cuda_reduction::Scratch& s = scratch();
  const int last = cuda_dots::last_group_start(k);
  for (int g = 0; g < last; g += cuda_dots::max_group)
    cuda_dots::multi_dot(x + g, cuda_dots::max_group, w, n, s, out + g);
  cuda_dots::multi_dot(x + last, k - last, w, n, s, out + last, then);
}

}  // namespace

void begin_cycle(View v, const double* r, std::size_t n, int it, StopFactors f) {
  dots_then(&r, 1, r, n, v.slot + norm_sq, BeginCycle{v, it, f});
}

void add_projection(View v, const double* const* basis, const double* w, std::size_t n, int j, bool first_pass) {
  dots_then(basis, j + 1, w, n, v.coef, AddProjection{v, j, first_pass});
}

void take_projection(View v, const double* basis_i, const double* w, std::size_t n, int i, int j) {
  dots_then(&basis_i, 1, w, n, v.coef + i, TakeProjection{v, i, j});
}

void close_column(View v, const double* w, std::size_t n, int j, int it, StopFactors f) {
  dots_then(&w, 1, w, n, v.slot + norm_sq, CloseColumn{v, j, it, f});
}

void close_column_after_projection(View v, const double* const* basis, double* w, std::size_t n, int j, int it,
                                   StopFactors f) {
  std::lock_guard lock(scratch_mutex);
  const int k = j + 1, last = cuda_dots::last_group_start(k);
  // The earlier groups as kernels::multi_axpy_from adds them, the last with the norm.
  for (int g = 0; g < last; g += cuda_dots::max_group)
    tb::kernels::cuda::multi_axpy_from(v.coef + g, basis + g, cuda_dots::max_group, w, n);
  cuda_dots::axpy_then_norm(v.coef + last, basis + last, k - last, w, n, scratch(), v.slot + norm_sq,
                            CloseColumn{v, j, it, f});
}

void solve_for_y(View v, int j) {
  solve_for_y_kernel<<<1, 1>>>(v, j);
  cuda_error::check_launch("gmres solve_for_y");
}

}  // namespace tb::gmres_scalars::kernels::cuda
