#include <cstdlib>

#include "partitioned_solver.hpp"
#include "registry.hpp"

namespace tb {

bool rank_independent_preconditioner(const std::string& name) {
  return name == "identity" || name == "jacobi" || name == "block_jacobi";
}

namespace {

// bicgstab_dia is seed 004's GBCG, BiCGStab + Jacobi (Algorithm 1) on DIA
// slabs of the whole matrix: over a distributed matrix, the Krylov room's
// BiCGStab + Jacobi with the same stopping rules. The max-norm stop (eps) has
// no counterpart: such a specification stays, and is refused with its reason.
std::string distributed_banded_bicgstab(const SpecComponent& c) {
  std::string params;
  for (const auto& [key, value] : c.params) {
    if (key == "eps") {
      char* end = nullptr;
      if (std::strtod(value.c_str(), &end) != 0.0 || *end != '\0') return component_text(c);
      continue;
    }
    if (key == "min_fill" || key == "reductions") continue;  // storage and reduction variants
    if (!params.empty()) params += ',';
    params += key;
    params += '=';
    params += value;
  }
  return "bicgstab" + (params.empty() ? std::string() : "(" + params + ")") + "+jacobi";
}

}  // namespace

std::string partitioned_form(std::string_view text, int ranks) {
  const SolverSpec spec = parse_spec(text);
  if (ranks > 1 && spec.components.size() == 1 && spec.components[0].name == "bicgstab_dia")
    return distributed_banded_bicgstab(spec.components[0]);
  if (ranks <= 1 || spec.components.size() != 2) return spec.text;
  const SpecComponent& pc = spec.components[1];
  if (pc.name == "bjacobi" || pc.name == "asm" || rank_independent_preconditioner(pc.name)) return spec.text;
  return component_text(spec.components[0]) + "+bjacobi(local=" + component_text(pc) + ")";
}

}  // namespace tb
