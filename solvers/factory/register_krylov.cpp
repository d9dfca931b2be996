#include "registry.hpp"

namespace tb {

void register_krylov(Registry& r) {
  r.add(KrylovEntry{"cg", "preconditioned conjugate gradients (SPD matrix and preconditioner)", {},
                    [](const ParamValues&, const StopCriteria& s) { return make_cg(s); }});
  r.add(KrylovEntry{"bicgstab", "BiCGStab, right-preconditioned", {},
                    [](const ParamValues&, const StopCriteria& s) { return make_bicgstab(s); }});
  r.add(KrylovEntry{"gmres", "restarted GMRES(m), right-preconditioned",
                    {{"restart", ParamType::integer, "30", "Krylov vectors per cycle", {}}},
                    [](const ParamValues& p, const StopCriteria& s) { return make_gmres(s, p.integer("restart"), false); }});
  r.add(KrylovEntry{"fgmres", "flexible GMRES(m): the preconditioner may change between iterations",
                    {{"restart", ParamType::integer, "30", "Krylov vectors per cycle", {}}},
                    [](const ParamValues& p, const StopCriteria& s) { return make_gmres(s, p.integer("restart"), true); }});
  r.add(KrylovEntry{"richardson", "preconditioned Richardson / defect correction x += omega M^-1 (b - A x)",
                    {{"omega", ParamType::real, "1", "damping factor", {}}},
                    [](const ParamValues& p, const StopCriteria& s) { return make_richardson(s, p.real("omega")); }});
}

}  // namespace tb
