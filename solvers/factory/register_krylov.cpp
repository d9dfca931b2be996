#include "registry.hpp"

namespace tb {

namespace {
Orthogonalization orthogonalization(const std::string& name) {
  if (name == "cgs2") return Orthogonalization::cgs2;
  if (name == "mgs") return Orthogonalization::mgs;
  return Orthogonalization::cgs;
}
}  // namespace

void register_krylov(Registry& r) {
  r.add(KrylovEntry{"cg",
                    "preconditioned conjugate gradients (SPD matrix and preconditioner)",
                    {},
                    [](const ParamValues&, const StopCriteria& s) { return make_cg(s); }});
  r.add(KrylovEntry{"bicgstab", "BiCGStab, right-preconditioned", {}, [](const ParamValues&, const StopCriteria& s) {
                      return make_bicgstab(s);
                    }});
  for (bool flexible : {false, true}) {
    r.add(KrylovEntry{flexible ? "fgmres" : "gmres",
                      flexible ? "flexible GMRES(m): the preconditioner may change between iterations"
                               : "restarted GMRES(m), right-preconditioned",
                      {{"restart", ParamType::integer, "30", "Krylov vectors per cycle", {}},
                       {"orthog",
                        ParamType::choice,
                        "cgs",
                        "Gram-Schmidt: classical, classical twice, modified",
                        {"cgs", "cgs2", "mgs"}}},
                      [flexible](const ParamValues& p, const StopCriteria& s) {
                        return make_gmres(s, p.integer("restart"), flexible, orthogonalization(p.text("orthog")));
                      }});
  }
  r.add(KrylovEntry{"richardson",
                    "preconditioned Richardson / defect correction x += omega M^-1 (b - A x)",
                    {{"omega", ParamType::real, "1", "damping factor", {}}},
                    [](const ParamValues& p, const StopCriteria& s) { return make_richardson(s, p.real("omega")); }});
}

}  // namespace tb
