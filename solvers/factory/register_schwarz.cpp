#include "registry.hpp"

namespace tb {

namespace {

// A Schwarz method's local solver: one preconditioner component, itself no Schwarz method.
std::unique_ptr<Preconditioner> make_local(const std::string& owner, const std::string& text) {
  const SolverSpec local = parse_spec(text);
  if (local.components.size() != 1)
    throw Error(owner + ".local: given " + text + ", allowed one preconditioner (no '+')");
  const std::string& name = local.components[0].name;
  if (name == "bjacobi" || name == "asm")
    throw Error(owner + ".local: given " + text + ", allowed a preconditioner other than bjacobi and asm");
  return Registry::builtin().make_preconditioner(text, local.components[0]);
}

}  // namespace

// On one process the whole matrix is the one subdomain: block Jacobi and
// additive Schwarz are their local solver. Over ranks (make_distributed_solver)
// each rank's subdomain gets its own copy of it.
void register_schwarz(Registry& r) {
  const ParamInfo local{"local", ParamType::text,
                        "bilu0", "the subdomain solver: any preconditioner, with its parameters in parentheses",
                        {},      {}};
  r.add(PreconditionerEntry{"bjacobi",
                            "block Jacobi over ranks: each rank's diagonal block by the local solver (issue 28)",
                            {local},
                            [](const ParamValues& p) { return make_local("bjacobi", p.text("local")); }});
  r.add(PreconditionerEntry{"asm",
                            "restricted additive Schwarz over ranks: each rank's rows and those of its ghost "
                            "columns by the local solver, the ghosts' correction dropped (issue 28)",
                            {{"overlap",
                              ParamType::integer,
                              "1",
                              "layers of the matrix graph added to each rank's rows",
                              {},
                              ParamDomain{0, 1}},
                             local},
                            [](const ParamValues& p) { return make_local("asm", p.text("local")); }});
}

}  // namespace tb
