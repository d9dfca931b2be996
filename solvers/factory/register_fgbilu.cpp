#include "registry.hpp"
#include "solvers/fgbilu/fgbilu.hpp"

namespace tb {

void register_fgbilu(Registry& r) {
  r.add(PreconditionerEntry{
      "fgbilu",
      "wavefront block ILU(0) on a structured 7-point block stencil (seed 000); same factors as bilu0",
      {{"variant",
        ParamType::choice,
        "auto",
        "seq: natural order; omp: coarse wavefront; acc: fine-grained (host or cuda); cl: fused CUDA kernels; "
        "auto: omp on host, cl on cuda",
        {"auto", "seq", "omp", "acc", "cl"}},
       {"launch",
        ParamType::choice,
        "auto",
        "cl only: plane: one kernel launch per hyperplane (Algorithms 9, 10); sweep: one launch per factorisation "
        "and per sweep, hyperplanes ordered by device-side counters; auto: sweep for cl (2.3x-2.7x faster on an H100)",
        {"auto", "plane", "sweep"}},
       {"graph",
        ParamType::boolean,
        "false",
        "cuda: record each solve's launches (both sweeps) as a CUDA graph on the first application to a pair of "
        "vectors and replay it after: one launch per application; off until measured (docs/fgbilu.md)",
        {}},
       // The shape is checked against the matrix at setup; the cap keeps nx * ny * nz in 64 bits.
       {"nx", ParamType::integer, "0", "grid cells in i (0: inferred from the pattern)", {}, {0, 1000000}},
       {"ny", ParamType::integer, "0", "grid cells in j (0: inferred)", {}, {0, 1000000}},
       {"nz", ParamType::integer, "0", "grid cells in k (0: inferred)", {}, {0, 1000000}}},
      [](const ParamValues& p) {
        return fgbilu::make_preconditioner(p.text("variant"),
                                           fgbilu::GridShape{p.integer("nx"), p.integer("ny"), p.integer("nz")},
                                           p.text("launch"), p.boolean("graph"));
      }});
}

}  // namespace tb
