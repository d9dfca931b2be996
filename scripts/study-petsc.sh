#!/usr/bin/env bash
# The shipped PETSc study (docs/petsc.md): the field's baselines inside the same
# time loops as the testbed's solvers.
#  1. tb-incomp's cavity: the pressure Poisson solved by cg+fgbilu (driver),
#     and as shadows on the identical systems by cg+bilu0, PETSc's GAMG and
#     hypre's BoomerAMG (each under PETSc's CG).
#  2. tb-comp2d's cylinder: FGMRES + async_bilu (the default) against FGMRES +
#     PETSc's BAIJ ILU(0) (baseline = the case's solver, ab-1 = PETSc), each
#     driving its own run (--ab), so the report shows
#     the nonlinear outcome (pseudo steps, Cl, Cd) of each.
# usage: scripts/study-petsc.sh [BUILD_DIR (default build)] [OUT (default out/study-petsc)]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build}/bin
out=${2:-out/study-petsc}
help=$("$bin/tb-solve" --help)
if [[ "$help" != *"built with PETSc"* ]]; then
  echo "study-petsc.sh: $bin/tb-solve was built without PETSc (scripts/setup.sh installs petsc-dev)" >&2
  exit 2
fi
mkdir -p "$out"
"$bin/tb-incomp" --out "$out/incomp" --set run.progress=false \
  --set "solver.pressure=cg(rtol=1e-9,maxit=2000)+fgbilu" \
  --shadow "pressure=cg(rtol=1e-9,maxit=2000)+bilu0" \
  --shadow "pressure=petsc(ksp=cg,pc=gamg,rtol=1e-9,maxit=2000)" \
  --shadow "pressure=petsc(ksp=cg,pc=hypre,rtol=1e-9,maxit=2000)"
"$bin/tb-comp2d" --out "$out/comp2d" --set run.progress=false \
  --ab "petsc(ksp=fgmres,pc=ilu,format=baij,restart=30,rtol=1e-1,maxit=60)"
echo "study-petsc.sh: $out/incomp/ab_report.md and $out/comp2d/ab_report.md"
