#!/usr/bin/env bash
# mpiexec -n 2 tb-ib equals the one-rank run (issue 9's check), on the default
# sphere case with the banded solver for both systems:
#   check_ranks.sh TB_IB MPIEXEC OUTDIR [tb-ib options...]
# compare_ranks.py says what "equals" means (figures and fields to 1e-7).
set -euo pipefail
exe=$1 mpiexec=$2 out=$3
shift 3
args=(--set run.progress=false --set "solver.pressure=bicgstab_dia(rtol=1e-9,maxit=3000)"
      --set "solver.advection_diffusion=bicgstab_dia(rtol=1e-9,maxit=500)" "$@")
rm -rf "$out"
"$exe" "${args[@]}" --out "$out/one" > /dev/null
"$mpiexec" -n 2 --oversubscribe "$exe" "${args[@]}" --out "$out/two" > /dev/null
/usr/bin/python3 "$(dirname "$0")/compare_ranks.py" "$out/one" "$out/two"
