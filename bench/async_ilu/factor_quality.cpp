#include "factor_quality.hpp"

#include <cstdio>
#include <sstream>
#include <string>

#include "../common/command_line.hpp"
#include "ordering.hpp"
#include "solvers/async_ilu/async_ilu.hpp"
#include "solvers/core/atomic_file.hpp"
#include "solvers/core/error.hpp"
#include "solvers/core/json_writer.hpp"

namespace tb::bench {

namespace {

struct Row {
  std::string system, ordering, variant, schedule;
  int build_sweeps = 0;
  async_ilu::Diagnostics d;
};

// Synchronous sweeps are deterministic (the many-thread limit); asynchronous
// ones are measured on the 2 threads this machine has.
Row measure(const std::string& system, const std::string& ordering, const BsrMatrix& a, bool block,
            async_ilu::Schedule schedule, int sweeps, int chunk) {
  set_host_threads(2);
  async_ilu::Options o;
  o.block = block;
  o.build_sweeps = sweeps;
  o.schedule = schedule;
  o.chunk = chunk;
  o.diagnostics = true;
  async_ilu::AsyncIlu ilu(o);
  ilu.setup(a, Backend::host);
  return {system,
          ordering,
          block ? "block" : "scalar",
          schedule == async_ilu::Schedule::synchronous ? "sync" : "async (2 threads)",
          sweeps,
          ilu.diagnostics()};
}

}  // namespace

void factor_quality_study(const std::vector<NamedMatrix>& systems, int chunk, const Machine& machine,
                          const std::string& json_path, const std::string& md_path) {
  std::vector<Row> rows;
  for (const NamedMatrix& s : systems)
    for (const Ordering& ord : study_orderings(*s.a)) {
      const BsrMatrix a = permute_symmetric(*s.a, ord.permutation);
      for (bool block : {true, false}) {
        if (!block && a.block_size == 1) continue;
        for (auto schedule : {async_ilu::Schedule::synchronous, async_ilu::Schedule::asynchronous})
          for (int sweeps : {1, 3}) try {
              rows.push_back(measure(s.name, ord.name, a, block, schedule, sweeps, chunk));
            } catch (const Error& e) {
              std::printf("%s %s: %s\n", s.name.c_str(), ord.name.c_str(), e.what());
            }
      }
    }
  if (!json_path.empty()) {
    JsonWriter j;
    j.begin_object();
    j.value("benchmark", "async_ilu factor quality (seed 001 Fig. 7 and 9 measures)");
    write(j, machine);
    j.begin_array("rows");
    for (const Row& r : rows) {
      j.begin_object();
      j.value("system", r.system);
      j.value("ordering", r.ordering);
      j.value("variant", r.variant);
      j.value("schedule", r.schedule);
      j.value("build_sweeps", r.build_sweeps);
      j.value("relative_ilu_residual", r.d.relative_residual);
      j.value("l_jacobi_norm", r.d.l_jacobi_norm);
      j.value("u_jacobi_norm", r.d.u_jacobi_norm);
      j.value("error_vs_bilu0", r.d.error_vs_exact);
      j.end_object();
    }
    j.end_array();
    j.end_object();
    j.save(json_path);
  }
  if (!md_path.empty()) {
    std::ostringstream md;
    md << "# Asynchronous (block) ILU(0): factor quality after build sweeps\n\n"
       << "The measures of seed 001 Fig. 7 and 9 on this project's stand-in systems (the paper's "
          "compressible Jacobians are not produced yet): ILU residual ||x - g(x)||_1 / ||x0 - g(x0)||_1, "
          "max-norm of the Jacobi iteration matrices of L and U (lower = more diagonally dominant), "
          "and max |x - x_BILU(0)| / max |x_BILU(0)|. Machine: "
       << machine.cpu_model << ", commit " << machine.git_commit << ", " << machine.date_utc << ".\n\n"
       << "| system | ordering | variant | schedule | build sweeps | ILU residual | L Jacobi norm | U Jacobi norm "
          "| error vs BILU(0) |\n|---|---|---|---|---|---|---|---|---|\n";
    for (const Row& r : rows) {
      char buf[160];
      std::snprintf(buf, sizeof buf, "| %.3g | %.3g | %.3g | %.3g |", r.d.relative_residual, r.d.l_jacobi_norm,
                    r.d.u_jacobi_norm, r.d.error_vs_exact);
      md << "| " << r.system << " | " << r.ordering << " | " << r.variant << " | " << r.schedule << " | "
         << r.build_sweeps << " " << buf << "\n";
    }
    write_file_atomically(md_path, md.str());
  }
}

}  // namespace tb::bench
