#include "registry.hpp"
#include "solvers/async_ilu/preconditioner.hpp"

namespace tb {

namespace {

std::vector<ParamInfo> async_ilu_params() {
  return {
      // Sweeps beyond 1000 add nothing (seed 001 converges in a few); chunk * b stays an int.
      {"build_sweeps",
       ParamType::integer,
       "1",
       "asynchronous factorization sweeps; 0 = exact BILU(0) (host)",
       {},
       {0, 1000}},
      {"apply_sweeps",
       ParamType::integer,
       "3",
       "sweeps of each triangular solve, from zero; 0 = exact (host)",
       {},
       {0, 1000}},
      {"chunk",
       ParamType::integer,
       "384",
       "OpenMP dynamic chunk in block rows (scalar variant: times b)",
       {},
       {1, 1000000}},
      {"schedule",
       ParamType::choice,
       "async",
       "async: no synchronisation (paper); sync: Jacobi, reproducible",
       {"async", "sync"}},
      {"gpu_rows",
       ParamType::choice,
       "auto",
       "backend=cuda: thread: a thread per block row (blocks 1..8); group: a group of lanes per block row, one "
       "lane a row of the block (blocks 1..32); auto: thread up to 8, group above",
       {"auto", "thread", "group"}},
      {"reuse", ParamType::boolean, "false", "start from the previous factors instead of A", {}},
      {"diagnostics", ParamType::boolean, "false", "record ILU residual, Jacobi norms and error vs BILU(0)", {}},
  };
}

std::unique_ptr<Preconditioner> make(const ParamValues& p, bool block) {
  async_ilu::Options o;
  o.block = block;
  o.build_sweeps = p.integer("build_sweeps");
  o.apply_sweeps = p.integer("apply_sweeps");
  o.chunk = p.integer("chunk");
  o.schedule = p.text("schedule") == "sync" ? async_ilu::Schedule::synchronous : async_ilu::Schedule::asynchronous;
  const std::string rows = p.text("gpu_rows");
  o.gpu_rows = rows == "thread"  ? async_ilu::GpuRows::thread
               : rows == "group" ? async_ilu::GpuRows::group
                                 : async_ilu::GpuRows::automatic;
  o.reuse = p.boolean("reuse");
  o.diagnostics = p.boolean("diagnostics");
  return make_async_ilu(o);
}

}  // namespace

void register_async_ilu(Registry& r) {
  r.add(PreconditionerEntry{"async_bilu",
                            "asynchronous block ILU(0) with asynchronous block-triangular sweeps (seed 001); "
                            "use with fgmres or richardson unless schedule=sync",
                            async_ilu_params(), [](const ParamValues& p) { return make(p, true); }});
  r.add(PreconditionerEntry{"async_ilu",
                            "asynchronous scalar ILU(0) (Chow-Patel) on the scalar pattern of the blocks (seed 001)",
                            async_ilu_params(), [](const ParamValues& p) { return make(p, false); }});
}

}  // namespace tb
