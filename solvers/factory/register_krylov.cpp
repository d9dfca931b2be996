#include "registry.hpp"

namespace tb {

namespace {
Orthogonalization orthogonalization(const std::string& name) {
  if (name == "cgs2") return Orthogonalization::cgs2;
  if (name == "mgs") return Orthogonalization::mgs;
  if (name == "cgsp") return Orthogonalization::cgsp;
  return Orthogonalization::cgs;
}
GmresScalars gmres_scalars(const std::string& name) {
  if (name == "host") return GmresScalars::host;
  if (name == "backend") return GmresScalars::backend;
  return GmresScalars::automatic;
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
                      // restart <= 1000: the basis holds restart + 1 vectors of the system's length and
                      // each cycle orthogonalises in O(restart^2 n); published restarts are 10 to 100.
                      {{"restart", ParamType::integer, "30", "Krylov vectors per cycle", {}, {1, 1000}},
                       {"orthog",
                        ParamType::choice,
                        "cgs",
                        "Gram-Schmidt: classical, classical with the norm by Pythagoras (one reduction an iteration), "
                        "classical twice, modified",
                        {"cgs", "cgsp", "cgs2", "mgs"}},
                       {"scalars",
                        ParamType::choice,
                        "auto",
                        "where the Hessenberg matrix, rotations and stop test live: the vectors' backend (the host "
                        "reads them every few iterations) or the host (every reduction read); auto: the backend for "
                        "vectors on a device, one process, no clock limit",
                        {"auto", "host", "backend"}}},
                      [flexible](const ParamValues& p, const StopCriteria& s) {
                        return make_gmres(s, p.integer("restart"), flexible, orthogonalization(p.text("orthog")),
                                          gmres_scalars(p.text("scalars")));
                      }});
  }
  r.add(KrylovEntry{"richardson",
                    "preconditioned Richardson / defect correction x += omega M^-1 (b - A x)",
                    // With a Jacobi-type M the mean eigenvalue of M^-1 A is 1, so omega >= 2 never
                    // contracts; omega <= 0 never moves towards the solution.
                    {{"omega", ParamType::real, "1", "damping factor", {}, {0, 2, true, true}}},
                    [](const ParamValues& p, const StopCriteria& s) { return make_richardson(s, p.real("omega")); }});
}

}  // namespace tb
