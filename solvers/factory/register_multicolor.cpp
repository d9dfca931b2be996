#include "registry.hpp"
#include "solvers/multicolor/point_implicit.hpp"

namespace tb {

void register_multicolor(Registry& r) {
  r.add(PreconditionerEntry{
      "multicolor",
      "multicolour point-implicit relaxation, colour-grouped D (fp64, LU) + O (fp32 or fp64) (seed 002)",
      {{"sweeps", ParamType::integer, "1", "outer sweeps over all colours from x = 0", {}, {1, 1000}},
       {"precision", ParamType::choice, "mixed", "off-diagonal blocks in fp32 (mixed) or fp64", {"mixed", "double"}},
       {"balance", ParamType::boolean, "true", "even out the colour sizes after greedy colouring", {}},
       {"kernel",
        ParamType::choice,
        "auto",
        "auto (host: tuned; cuda: fused for nb <= 8 on >= 50,000 block rows, else tuned: the faster on an H100), "
        "tuned (host: OpenMP per colour; cuda: Table I SpMV + warp substitution), ref (the plain twin), "
        "library (cuda: cuSPARSE bsrmv + cuBLAS trsmBatched, precision=double), fused (cuda, nb <= 32: one launch per "
        "sweep, a lane per scalar row, colours ordered on the device)",
        {"auto", "tuned", "ref", "library", "fused"}}},
      [](const ParamValues& p) {
        multicolor::Options o;
        o.sweeps = p.integer("sweeps");
        o.precision = p.text("precision") == "double" ? multicolor::Precision::fp64 : multicolor::Precision::mixed;
        o.balance = p.boolean("balance");
        const std::string& k = p.text("kernel");
        o.kernel = k == "ref"       ? multicolor::Kernel::ref
                   : k == "library" ? multicolor::Kernel::library
                   : k == "fused"   ? multicolor::Kernel::fused
                   : k == "tuned"   ? multicolor::Kernel::tuned
                                    : multicolor::Kernel::automatic;
        return multicolor::make_preconditioner(o);
      }});
}

}  // namespace tb
