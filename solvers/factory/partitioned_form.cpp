#include "partitioned_solver.hpp"
#include "registry.hpp"

namespace tb {

bool rank_independent_preconditioner(const std::string& name) {
  return name == "identity" || name == "jacobi" || name == "block_jacobi";
}

std::string partitioned_form(std::string_view text, int ranks) {
  const SolverSpec spec = parse_spec(text);
  if (ranks <= 1 || spec.components.size() != 2) return spec.text;
  const SpecComponent& pc = spec.components[1];
  if (pc.name == "bjacobi" || pc.name == "asm" || rank_independent_preconditioner(pc.name)) return spec.text;
  return component_text(spec.components[0]) + "+bjacobi(local=" + component_text(pc) + ")";
}

}  // namespace tb
