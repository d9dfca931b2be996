#include "distributed_solver.hpp"
#include "registry.hpp"
#include "solver_communicator.hpp"

namespace tb {

namespace {

bool rank_independent(const std::string& name) {
  return name == "identity" || name == "jacobi" || name == "block_jacobi";
}

// The component as written (name and parameters), for the form to write instead.
std::string text_of(const SpecComponent& c) {
  std::string t = c.name;
  for (std::size_t k = 0; k < c.params.size(); ++k)
    t += (k == 0 ? "(" : ",") + c.params[k].first + "=" + c.params[k].second;
  return c.params.empty() ? t : t + ")";
}

}  // namespace

std::unique_ptr<dist::DistributedSolver> make_distributed_solver(std::string_view text,
                                                                 std::shared_ptr<const banded::Communicator> comm) {
  const Registry& reg = Registry::builtin();
  const SolverSpec spec = parse_spec(text);
  const std::string& s = spec.text;
  if (spec.components.size() > 2) throw Error("spec '" + s + "': at most one '+' (a Krylov method + a preconditioner)");
  const SpecComponent& kc = spec.components[0];
  for (const std::string& name : reg.complete_solver_names())
    if (kc.name == name)
      throw Error("spec '" + s + "': " + name +
                  " shares its solves over the ranks by its own slabs of the whole matrix; a distributed matrix "
                  "takes a Krylov method + bjacobi(local=...) or asm(overlap=1,local=...)");
  Backend backend = Backend::host;
  auto method = reg.make_method(s, kc, &backend);
  if (backend != Backend::host)
    throw Error("spec '" + s + "': " + kc.name + ".backend: given " + std::string(to_string(backend)) +
                ", allowed host (distributed solves run on the host)");

  SpecComponent pc{"identity", {}};
  if (spec.components.size() == 2) pc = spec.components[1];
  int overlap = 0;
  std::unique_ptr<Preconditioner> local;
  if (pc.name == "bjacobi" || pc.name == "asm" || rank_independent(pc.name)) {
    local = reg.make_preconditioner(s, pc);  // bjacobi and asm make their local solver
    if (pc.name == "asm") overlap = reg.preconditioner_parameters(s, pc).integer("overlap");
  } else {
    throw Error("spec '" + s + "': " + pc.name + " needs the whole matrix; over ranks write bjacobi(local=" +
                text_of(pc) + ") or asm(overlap=1,local=" + text_of(pc) + ")");
  }
  return std::make_unique<dist::DistributedSolver>(s, std::move(method), std::move(local), overlap,
                                                   comm ? std::move(comm) : solver_communicator());
}

}  // namespace tb
