// GMRES's scalar steps on the device (kernels.hpp, gmres_scalars.hpp): one thread each,
// the host's loop bodies; queued behind the iteration's vector kernels on the
// default stream, so nothing waits for them.
#include <cuda_runtime.h>

#include "solvers/core/cuda/error_check.cuh"
#include "solvers/krylov/kernels.hpp"

namespace tb::gmres_scalars::kernels::cuda {

namespace {
__global__ void begin_cycle_kernel(View v, int it, StopFactors f) { gmres_scalars::begin_cycle(v, it, f); }
__global__ void add_projection_kernel(View v, int j, bool first_pass) {
  gmres_scalars::add_projection(v, j, first_pass);
}
__global__ void take_projection_kernel(View v, int i, int j) { gmres_scalars::take_projection(v, i, j); }
__global__ void close_column_kernel(View v, int j, int it, StopFactors f) { gmres_scalars::close_column(v, j, it, f); }
__global__ void solve_for_y_kernel(View v, int j) { gmres_scalars::solve_for_y(v, j); }
}  // namespace

void begin_cycle(View v, int it, StopFactors f) {
  begin_cycle_kernel<<<1, 1>>>(v, it, f);
  cuda_error::check_launch("gmres begin_cycle");
}

void add_projection(View v, int j, bool first_pass) {
  add_projection_kernel<<<1, 1>>>(v, j, first_pass);
  cuda_error::check_launch("gmres add_projection");
}

void take_projection(View v, int i, int j) {
  take_projection_kernel<<<1, 1>>>(v, i, j);
  cuda_error::check_launch("gmres take_projection");
}

void close_column(View v, int j, int it, StopFactors f) {
  close_column_kernel<<<1, 1>>>(v, j, it, f);
  cuda_error::check_launch("gmres close_column");
}

void solve_for_y(View v, int j) {
  solve_for_y_kernel<<<1, 1>>>(v, j);
  cuda_error::check_launch("gmres solve_for_y");
}

}  // namespace tb::gmres_scalars::kernels::cuda
