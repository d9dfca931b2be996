#include "registry.hpp"
#include "solvers/krylov/preconditioner_on_device.hpp"

namespace tb {

namespace {

// A Schwarz method's local solver: one preconditioner component, itself no
// Schwarz method; with backend=cuda set up and applied on the rank's device
// for the host vectors of the distributed method.
std::unique_ptr<Preconditioner> make_local(const std::string& owner, const ParamValues& p) {
  const std::string text = p.text("local");
  const SolverSpec local = parse_spec(text);
  if (local.components.size() != 1)
    throw Error(owner + ".local: given " + text + ", allowed one preconditioner (no '+')");
  const std::string& name = local.components[0].name;
  if (name == "bjacobi" || name == "asm")
    throw Error(owner + ".local: given " + text + ", allowed a preconditioner other than bjacobi and asm");
  auto solver = Registry::builtin().make_preconditioner(text, local.components[0]);
  const Backend backend = parse_backend(p.text("backend"));
  if (backend == Backend::host) return solver;
  try {
    return std::make_unique<PreconditionerOnDevice>(std::move(solver), backend, text);
  } catch (const Error& e) {
    throw Error(owner + ".backend: given " + p.text("backend") + ", but " + e.what());
  }
}

}  // namespace

// On one process the whole matrix is the one subdomain: block Jacobi and
// additive Schwarz are their local solver. Over ranks (make_distributed_solver)
// each rank's subdomain gets its own copy of it.
void register_schwarz(Registry& r) {
  const ParamInfo local{"local", ParamType::text,
                        "bilu0", "the subdomain solver: any preconditioner, with its parameters in parentheses",
                        {},      {}};
  const ParamInfo backend{"backend",
                          ParamType::choice,
                          "host",
                          "where the local solver runs: each rank's own device (one GPU per rank) takes the "
                          "subdomain and a copy of r and z per apply",
                          {"host", "cuda"}};
  r.add(PreconditionerEntry{
      "bjacobi",
      "block Jacobi over ranks: each rank's diagonal block by the local solver (docs/distributed.md)",
      {local, backend},
      [](const ParamValues& p) { return make_local("bjacobi", p); }});
  r.add(PreconditionerEntry{"asm",
                            "restricted additive Schwarz over ranks: each rank's rows and those of its ghost "
                            "columns by the local solver, the ghosts' correction dropped (docs/distributed.md)",
                            {{"overlap",
                              ParamType::integer,
                              "1",
                              "layers of the matrix graph added to each rank's rows",
                              {},
                              ParamDomain{0, 1}},
                             local,
                             backend},
                            [](const ParamValues& p) { return make_local("asm", p); }});
}

}  // namespace tb
