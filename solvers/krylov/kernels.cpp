// GMRES's scalar steps dispatched to where the scalars live (kernels.hpp).
#include "kernels.hpp"

#include "solvers/core/cuda_call.hpp"

namespace tb::gmres_scalars::kernels {

void begin_cycle(Backend b, View v, int it, StopFactors f) {
  if (b == Backend::cuda) return TB_CUDA_CALL(cuda::begin_cycle(v, it, f));
  ref::begin_cycle(v, it, f);
}

void add_projection(Backend b, View v, int j, bool first_pass) {
  if (b == Backend::cuda) return TB_CUDA_CALL(cuda::add_projection(v, j, first_pass));
  ref::add_projection(v, j, first_pass);
}

void take_projection(Backend b, View v, int i, int j) {
  if (b == Backend::cuda) return TB_CUDA_CALL(cuda::take_projection(v, i, j));
  ref::take_projection(v, i, j);
}

void close_column(Backend b, View v, int j, int it, StopFactors f) {
  if (b == Backend::cuda) return TB_CUDA_CALL(cuda::close_column(v, j, it, f));
  ref::close_column(v, j, it, f);
}

void solve_for_y(Backend b, View v, int j) {
  if (b == Backend::cuda) return TB_CUDA_CALL(cuda::solve_for_y(v, j));
  ref::solve_for_y(v, j);
}

}  // namespace tb::gmres_scalars::kernels
