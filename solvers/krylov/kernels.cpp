// GMRES's scalar steps dispatched to where the scalars live (kernels.hpp).
#include "kernels.hpp"

#include <string>

#include "solvers/core/cuda_call.hpp"
#include "solvers/core/error.hpp"

namespace tb::gmres_scalars::kernels {

namespace {

void check_on(Backend b, const Vector& x, const char* step) {
  if (x.backend() != b)
    throw Error(std::string("internal: gmres ") + step + ": a vector on " + std::string(to_string(x.backend())) +
                ", the scalars on " + std::string(to_string(b)));
}

}  // namespace

void begin_cycle(Backend b, View v, const Vector& r, int it, StopFactors f) {
  check_on(b, r, "begin_cycle");
  if (b == Backend::cuda) return TB_CUDA_CALL(cuda::begin_cycle(v, r.data(), r.size(), it, f));
  ref::begin_cycle(v, r.data(), r.size(), it, f);
}

void add_projection(Backend b, View v, const double* const* basis, const Vector& w, int j, bool first_pass) {
  check_on(b, w, "add_projection");
  if (b == Backend::cuda) return TB_CUDA_CALL(cuda::add_projection(v, basis, w.data(), w.size(), j, first_pass));
  ref::add_projection(v, basis, w.data(), w.size(), j, first_pass);
}

void take_projection(Backend b, View v, const Vector& basis_i, const Vector& w, int i, int j) {
  check_on(b, w, "take_projection");
  check_on(b, basis_i, "take_projection");
  if (b == Backend::cuda) return TB_CUDA_CALL(cuda::take_projection(v, basis_i.data(), w.data(), w.size(), i, j));
  ref::take_projection(v, basis_i.data(), w.data(), w.size(), i, j);
}

void close_column(Backend b, View v, const Vector& w, int j, int it, StopFactors f) {
  check_on(b, w, "close_column");
  if (b == Backend::cuda) return TB_CUDA_CALL(cuda::close_column(v, w.data(), w.size(), j, it, f));
  ref::close_column(v, w.data(), w.size(), j, it, f);
}

void close_column_after_projection(Backend b, View v, const double* const* basis, Vector& w, int j, int it,
                                   StopFactors f) {
  check_on(b, w, "close_column_after_projection");
  if (b == Backend::cuda)
    return TB_CUDA_CALL(cuda::close_column_after_projection(v, basis, w.data(), w.size(), j, it, f));
  ref::close_column_after_projection(v, basis, w.data(), w.size(), j, it, f);
}

void solve_for_y(Backend b, View v, int j) {
  if (b == Backend::cuda) return TB_CUDA_CALL(cuda::solve_for_y(v, j));
  ref::solve_for_y(v, j);
}

}  // namespace tb::gmres_scalars::kernels
