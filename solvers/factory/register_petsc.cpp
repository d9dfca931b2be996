#include "registry.hpp"
#include "solvers/petsc/petsc_solver.hpp"

namespace tb {

namespace {

// The KSP and PC types offered by name: those a Debian PETSc 3.18 (built with
// hypre) has, and that make sense on one process; anything finer goes through
// options=..., which PETSc itself checks.
const std::vector<std::string> ksp_types = {"cg", "gmres", "fgmres", "bcgs", "bicg", "richardson", "preonly", "minres"};
const std::vector<std::string> pc_types = {"none", "jacobi", "pbjacobi", "bjacobi", "sor", "ilu",
                                           "icc",  "lu",     "gamg",     "hypre",   "mg"};

}  // namespace

void register_petsc(Registry& r) {
  r.add(CompleteSolverEntry{
      "petsc",
      std::string("PETSc's KSP + PC on the system as a BAIJ or AIJ matrix (docs/petsc.md); ") +
          (petsc::available() ? "built with PETSc" : "NOT in this build: configure with PETSc (petsc-dev)"),
      {{"ksp", ParamType::choice, "gmres", "PETSc's Krylov method (KSPType)", ksp_types},
       {"pc", ParamType::choice, "ilu", "PETSc's preconditioner (PCType); hypre = BoomerAMG", pc_types},
       {"format",
        ParamType::choice,
        "auto",
        "PETSc matrix type: blocks kept (baij) or scalar (aij); auto = aij for gamg and hypre, which need it, else "
        "baij",
        {"auto", "baij", "aij"}},
       {"restart", ParamType::integer, "30", "GMRES and FGMRES restart length", {}, {1, 1000}},
       {"options",
        ParamType::text,
        "",
        "more PETSc options, name:value;name (leading '-' optional), e.g. pc_hypre_boomeramg_strong_threshold:0.5",
        {}}},
      [](const ParamValues& p, const StopCriteria& s, Backend b) -> std::unique_ptr<CompleteSolver> {
        if (b != Backend::host) throw Error("petsc: backend=cuda is not offered; PETSc runs on the host here");
        const std::string& pc = p.text("pc");
        std::string format = p.text("format");
        if (format == "auto") format = pc == "gamg" || pc == "hypre" ? "aij" : "baij";
        petsc::PetscSettings settings{p.text("ksp"), pc, format, p.integer("restart"), p.text("options")};
        return petsc::make_solver(settings, s);
      }});
}

}  // namespace tb
