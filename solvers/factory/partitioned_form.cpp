#include <string_view>

#include "partitioned_solver.hpp"
#include "registry.hpp"

namespace tb {

bool rank_independent_preconditioner(const std::string& name) {
  return name == "identity" || name == "jacobi" || name == "block_jacobi";
}

std::string partitioned_form(std::string_view text, int ranks) {
  const SolverSpec spec = parse_spec(text);
  if (ranks <= 1 || spec.components.size() != 2) return spec.text;
  SpecComponent method = spec.components[0], pc = spec.components[1];
  const bool schwarz = pc.name == "bjacobi" || pc.name == "asm";
  if (const auto backend = find_param(method, "backend"); backend != method.params.end() && backend->second == "cuda") {
    // The whole solve resident on each rank's device, where it can run there.
    const auto local_backend = find_param(pc, "backend");
    const bool host_local = local_backend != pc.params.end() && local_backend->second == "host";
    if (pc.name != "asm" && !host_local) {
      if (local_backend != pc.params.end()) pc.params.erase(local_backend);
      if (!schwarz && !rank_independent_preconditioner(pc.name))
        pc = SpecComponent{"bjacobi", {{"local", component_text(pc)}}};
      return component_text(method) + "+" + component_text(pc);
    }
    // Else the distributed method on the host, the device taking each rank's local solves.
    method.params.erase(backend);
    if (!schwarz) pc = SpecComponent{"bjacobi", {{"local", component_text(pc)}}};
    if (find_param(pc, "backend") == pc.params.end()) pc.params.emplace_back("backend", "cuda");
    return component_text(method) + "+" + component_text(pc);
  }
  if (schwarz || rank_independent_preconditioner(pc.name)) return spec.text;
  return component_text(spec.components[0]) + "+bjacobi(local=" + component_text(pc) + ")";
}

}  // namespace tb
