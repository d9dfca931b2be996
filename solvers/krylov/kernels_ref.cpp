// GMRES's scalar steps on the host: the loop bodies of gmres_scalars.hpp.
#include "kernels.hpp"

namespace tb::gmres_scalars::kernels::ref {

void begin_cycle(View v, int it, StopFactors f) { gmres_scalars::begin_cycle(v, it, f); }
void add_projection(View v, int j, bool first_pass) { gmres_scalars::add_projection(v, j, first_pass); }
void take_projection(View v, int i, int j) { gmres_scalars::take_projection(v, i, j); }
void close_column(View v, int j, int it, StopFactors f) { gmres_scalars::close_column(v, j, it, f); }
void solve_for_y(View v, int j) { gmres_scalars::solve_for_y(v, j); }

}  // namespace tb::gmres_scalars::kernels::ref
