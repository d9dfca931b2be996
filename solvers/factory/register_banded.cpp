#include <cstdint>
#include <limits>

#include "registry.hpp"
#include "solver_communicator.hpp"
#include "solvers/banded/complete_solvers.hpp"

namespace tb {

namespace {

banded::BandedStop banded_stop(const ParamValues& p, const StopCriteria& s) {
  banded::BandedStop stop;
  stop.krylov = s;
  stop.eps = p.real("eps");
  return stop;
}

ParamInfo eps_param() {
  return {"eps", ParamType::real,
          "0",   "also stop when ||r||_max <= eps (Algorithm 1 of seed 004); 0 = off",
          {},    {0, unbounded, false, true}};
}

// Grid cells along one axis of cg_stencil; 0 is the default that asks for it.
ParamInfo grid_param(const std::string& name, const std::string& help) {
  return {name, ParamType::integer, "0", help, {}, {0, 1000000}};
}

}  // namespace

void register_banded(Registry& r) {
  r.add(CompleteSolverEntry{
      "bicgstab_dia",
      "seed 004 GBCG: BiCGStab + Jacobi on DIA storage, scalar banded matrices; distributed in row slabs under MPI",
      {eps_param(),
       {"min_fill",
        ParamType::real,
        "0.5",
        "a diagonal with fewer than min_fill * n entries is kept as a sparse remainder, not stored whole; 0 = pure DIA",
        {},
        {0, 1}},
       {"reductions",
        ParamType::choice,
        "1",
        "global reductions per iteration: 1 = Yang-Brent's improved BiCGStab (one allreduce; keeps A^T as well), "
        "classic = Algorithm 1 as written (three)",
        {"1", "classic"}}},
      [](const ParamValues& p, const StopCriteria& s, Backend b) -> std::unique_ptr<CompleteSolver> {
        const double min_fill = p.real("min_fill");
        const auto variant =
            p.text("reductions") == "classic" ? banded::GbcgVariant::classic : banded::GbcgVariant::one_reduction;
        return std::make_unique<banded::DiaBicgstabSolver>(banded_stop(p, s), b, solver_communicator(), min_fill,
                                                           variant);
      }});
  r.add(CompleteSolverEntry{
      "cg_stencil",
      "seed 004 GSCG: Jacobi CG for a constant-coefficient 7-point operator on an nx*ny*nz grid; reads no matrix",
      {grid_param("nx", "grid cells in x (fastest); required"),
       grid_param("ny", "grid cells in y; required"),
       grid_param("nz", "grid cells in z; required"),
       eps_param(),
       {"reductions",
        ParamType::choice,
        "1",
        "global reductions per iteration: 1 = Chronopoulos-Gear CG (one allreduce), classic = the textbook CG (two)",
        {"1", "classic"}}},
      [](const ParamValues& p, const StopCriteria& s, Backend b) -> std::unique_ptr<CompleteSolver> {
        const int nx = p.integer("nx"), ny = p.integer("ny"), nz = p.integer("nz");
        if (nx < 1 || ny < 1 || nz < 1)
          throw Error("cg_stencil: nx=" + std::to_string(nx) + ", ny=" + std::to_string(ny) + ", nz=" +
                      std::to_string(nz) + "; give the grid, each at least 1, e.g. cg_stencil(nx=32,ny=32,nz=32)");
        // Every vector holds nx * ny * nz values under 32-bit indices.
        if (std::int64_t(nx) * ny * nz > std::numeric_limits<index_t>::max())
          throw Error("cg_stencil: nx*ny*nz: given " + std::to_string(std::int64_t(nx) * ny * nz) +
                      " cells, allowed at most " + std::to_string(std::numeric_limits<index_t>::max()));
        const auto variant =
            p.text("reductions") == "classic" ? banded::GscgVariant::classic : banded::GscgVariant::one_reduction;
        return std::make_unique<banded::StencilCgSolver>(nx, ny, nz, banded_stop(p, s), b, solver_communicator(),
                                                         variant);
      }});
}

}  // namespace tb
