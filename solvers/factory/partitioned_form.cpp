#include <algorithm>

#include "partitioned_solver.hpp"
#include "registry.hpp"

namespace tb {

bool rank_independent_preconditioner(const std::string& name) {
  return name == "identity" || name == "jacobi" || name == "block_jacobi";
}

namespace {

bool takes_out_backend(SpecComponent& c, std::string& value) {
  const auto it = std::find_if(c.params.begin(), c.params.end(), [](const auto& kv) { return kv.first == "backend"; });
  if (it == c.params.end()) return false;
  value = it->second;
  c.params.erase(it);
  return true;
}

}  // namespace

std::string partitioned_form(std::string_view text, int ranks) {
  const SolverSpec spec = parse_spec(text);
  if (ranks <= 1 || spec.components.size() != 2) return spec.text;
  SpecComponent method = spec.components[0], pc = spec.components[1];
  const bool schwarz = pc.name == "bjacobi" || pc.name == "asm";
  // The distributed method runs on the host; a device the user asked for takes each rank's local solver.
  std::string backend;
  if (takes_out_backend(method, backend) && backend == "cuda") {
    if (!schwarz) pc = SpecComponent{"bjacobi", {{"local", component_text(pc)}}};
    if (std::none_of(pc.params.begin(), pc.params.end(), [](const auto& kv) { return kv.first == "backend"; }))
      pc.params.emplace_back("backend", backend);
    return component_text(method) + "+" + component_text(pc);
  }
  if (schwarz || rank_independent_preconditioner(pc.name)) return spec.text;
  return component_text(spec.components[0]) + "+bjacobi(local=" + component_text(pc) + ")";
}

}  // namespace tb
