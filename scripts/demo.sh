#!/usr/bin/env bash
# Command (a) of the README: set up, build, and run the main job: the offline
# solver on the shipped demo system with two solver specifications side by side,
# then the miniapps' default cases (tb-incomp: a 2D lid-driven cavity at Re 100;
# tb-comp2d: inviscid flow past a cylinder at M 0.38, seed 001's first case;
# tb-ib: steady flow past an immersed sphere at Re 100, seed 004's miniapp).
# Seconds after the build (tb-ib's sphere takes most of them); it ends with a
# table of the validation figures.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
scripts/setup.sh
cmake --preset release >/dev/null
cmake --build --preset release -j "${JOBS:-$(nproc)}"
mkdir -p out
build/bin/tb-solve inputs/systems/cdr3d_n4.mtx \
  --solver "gmres(restart=30,rtol=1e-8)+bilu0" \
  --solver "bicgstab(rtol=1e-8)+block_jacobi" \
  --json out/demo-solve.json

build/bin/tb-incomp --out out/demo-incomp --set run.output_every=50 --set run.progress=false
echo "tb-incomp: step table out/demo-incomp/steps.csv, summary (Ghia deviations) out/demo-incomp/summary.json,"
echo "           ParaView series out/demo-incomp/flow.pvd, centrelines out/demo-incomp/fields/centreline_{u,v}.csv"

build/bin/tb-comp2d --out out/demo-comp2d --set run.progress=false
echo "tb-comp2d: step table out/demo-comp2d/steps.csv, summary (Cl, Cd) out/demo-comp2d/summary.json,"
echo "           ParaView series out/demo-comp2d/flow.pvd, wall Cp out/demo-comp2d/wall.csv"

build/bin/tb-ib --out out/demo-ib --set run.progress=false
echo "tb-ib: step table out/demo-ib/steps.csv, summary (Cd of the sphere) out/demo-ib/summary.json,"
echo "       ParaView series out/demo-ib/flow.pvd (cell types too) and out/demo-ib/body.pvd"

echo
echo "Validation figures against their references:"
/usr/bin/python3 postproc/validation_table.py out/demo-incomp out/demo-comp2d out/demo-ib
echo "demo: $(( $(date +%s) - start )) s"
