#pragma once
// The multicolour point-implicit solver of seed 002 (§III) as a preconditioner:
// z = M^{-1} r is x after `sweeps` outer sweeps from x = 0 over the colours in
// order, each colour relaxed with the latest x of the others (block Gauss-Seidel
// in colour-major order). With a fixed sweep count M is a fixed linear operator,
// so any Krylov method may use it; `richardson+multicolor(sweeps=1)` is the
// paper's standalone outer iteration.
#include <memory>

#include "colour_pattern.hpp"
#include "options.hpp"
#include "solvers/krylov/preconditioner.hpp"

namespace tb::multicolor {

// The host sweeps on the renumbered system (b and x in colour-major block
// order); x is the initial guess. kernel: ref or tuned.
void point_implicit_sweeps(const ColourPattern& p, const SplitValues& v, Kernel kernel, int sweeps, const double* b,
                           double* x);

std::unique_ptr<Preconditioner> make_preconditioner(const Options& o);

}  // namespace tb::multicolor
