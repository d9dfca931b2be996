#pragma once
// The device steps of the Krylov room: GMRES's scalar steps (gmres_scalars.hpp)
// declared once, ref:: running the loop bodies here, cuda:: one thread each
// (cuda/kernels.cu); the View's arrays live on the backend named.
#include "gmres_scalars.hpp"
#include "solvers/core/backend.hpp"

namespace tb::gmres_scalars {

#define TB_GMRES_SCALAR_KERNELS                            \
  void begin_cycle(View v, int it, StopFactors f);         \
  void add_projection(View v, int j, bool first_pass);     \
  void take_projection(View v, int i, int j);              \
  void close_column(View v, int j, int it, StopFactors f); \
  void solve_for_y(View v, int j);

namespace kernels::ref {
TB_GMRES_SCALAR_KERNELS
}
namespace kernels::cuda {
TB_GMRES_SCALAR_KERNELS
}

namespace kernels {
// ref:: where the scalars are on the host, cuda:: on a device.
void begin_cycle(Backend b, View v, int it, StopFactors f);
void add_projection(Backend b, View v, int j, bool first_pass);
void take_projection(Backend b, View v, int i, int j);
void close_column(Backend b, View v, int j, int it, StopFactors f);
void solve_for_y(Backend b, View v, int j);
}  // namespace kernels

}  // namespace tb::gmres_scalars
