#!/usr/bin/env bash
# tb-comp2d's built-in case on every cylinder mesh: the shipped one and the
# nested and O-grid sequences (scripts/make-meshes.sh nested ogrid), one thread,
# at most 400 steps, one line per mesh: exit status, steps, converged, final
# CFL, Cl, Cd, cells, wall seconds.
#
#   bench/comp2d/sweep_defaults.sh [TB_COMP2D] [-- EXTRA tb-comp2d ARGUMENTS]
#
# e.g. bench/comp2d/sweep_defaults.sh build/bin/tb-comp2d -- --set jacobian.form=first_order
# (bench/results/host-comp2d-builtin-meshes.json ran it with two settings).
set -euo pipefail
cd "$(dirname "$0")/../.."
exe=build/bin/tb-comp2d
if [[ $# -gt 0 && $1 != -- ]]; then exe=$1; shift; fi
[[ $# -gt 0 && $1 == -- ]] && shift
meshes=(inputs/meshes/cylinder_coarse.msh inputs/meshes/generated/nested/cylinder_*.su2
        inputs/meshes/generated/ogrid/*.su2)
[[ -e ${meshes[1]} ]] || { echo "sweep_defaults.sh: no generated meshes; run scripts/make-meshes.sh nested ogrid" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for m in "${meshes[@]}"; do
  rc=0
  OMP_NUM_THREADS=1 /usr/bin/time -o "$out/time" -f %e "$exe" --set "mesh.file=$m" --steps 400 --out "$out/run" \
    "$@" > "$out/log" 2>&1 || rc=$?
  /usr/bin/python3 - "$(basename "$m")" "$rc" "$out" <<'PY'
import json, pathlib, sys
name, rc, out = sys.argv[1], sys.argv[2], pathlib.Path(sys.argv[3])
f = json.loads((out / "run" / "summary.json").read_text())["figures_of_merit"]
wall = (out / "time").read_text().split()[-1]
print(name, "rc", rc, "steps", f["pseudo_steps"], "conv", f["converged"], "cfl", f["final_cfl"],
      "cl %.4f cd %.4f" % (f["cl"], f["cd"]), "cells", f["cells"], "t", wall)
PY
done
