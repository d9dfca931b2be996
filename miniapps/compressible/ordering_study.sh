#!/usr/bin/env bash
# The study of seed 001 §6 on one case: each cell ordering (applied to the mesh
# before assembly) crossed with each preconditioner (independent runs, --ab),
# gathered into OUT/ordering_study.md from the harness's A/B reports.
# Usage: ordering_study.sh TB_COMP2D OUT [CASE.toml|-] [STEPS|-] [PRECOND...]
#   PRECOND: two or more, default bilu0 async_bilu(build_sweeps=1,apply_sweeps=3) block_jacobi.
# A run whose solves stop at maxit exits 1; the study records it and goes on.
set -uo pipefail
bin=$1 out=$2
case_file=${3:--}
steps=${4:--}
shift $(( $# < 4 ? $# : 4 ))
preconds=("$@")
(( ${#preconds[@]} )) || preconds=(bilu0 'async_bilu(build_sweeps=1,apply_sweeps=3)' block_jacobi)
# The harness writes an A/B report only for two or more solvers.
(( ${#preconds[@]} >= 2 )) || { echo "ordering_study.sh: give two or more preconditioners" >&2; exit 2; }
krylov='fgmres(restart=30,rtol=1e-1,maxit=60)'
rm -rf "$out"
mkdir -p "$out"
args=()
[[ $case_file != - ]] && args+=("$case_file")
[[ $steps != - ]] && args+=(--steps "$steps")
report=$out/ordering_study.md
{
  echo "# Orderings x preconditioners: $krylov"
  echo
  echo "case: ${case_file/#-/built-in default}; steps: ${steps/#-/until converged}"
} > "$report"
status=0
for ordering in none rcm 1wd line-1wd; do
  ab=()
  for p in "${preconds[@]:1}"; do ab+=(--ab "flow=$krylov+$p"); done
  "$bin" "${args[@]}" --set mesh.ordering="$ordering" --set run.progress=false \
    --set "solver.flow=$krylov+${preconds[0]}" "${ab[@]}" --out "$out/$ordering" > "$out/$ordering.log" 2>&1
  rc=$?
  if [[ ! -s $out/$ordering/ab_report.md ]]; then
    echo "ordering $ordering: no A/B report (exit $rc), see $out/$ordering.log" >&2
    status=1
    continue
  fi
  { echo; echo "## mesh.ordering = $ordering (exit $rc)"; echo; tail -n +3 "$out/$ordering/ab_report.md"; } >> "$report"
done
echo "ordering study: $report"
exit $status
