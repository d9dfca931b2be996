#!/usr/bin/env bash
# The check on tb-incomp: a run killed with SIGKILL mid-way and resumed
# with --restart ends with the same fields as an uninterrupted run: centreline
# profiles (17 digits), the final .vts and the figures of merit, byte for byte.
# Usage: kill_restart.sh TB_INCOMP WORK_DIR
set -euo pipefail
bin=$1 work=$2
rm -rf "$work"
mkdir -p "$work"
args=(--set grid.nx=40 --set grid.ny=40 --set time.steady_tol=0 --set run.checkpoint_every=10
      --set run.output_every=1000 --steps 400)
"$bin" "${args[@]}" --out "$work/whole" >/dev/null

"$bin" "${args[@]}" --out "$work/killed" >/dev/null &
pid=$!
# Kill once at least two checkpoints have been written.
while [[ $(wc -l <"$work/killed/steps.csv" 2>/dev/null || echo 0) -lt 25 ]]; do
  kill -0 "$pid" 2>/dev/null || { echo "the run ended before it could be killed"; exit 1; }
  sleep 0.02
done
kill -9 "$pid"
wait "$pid" 2>/dev/null || true
echo "killed after $(($(wc -l <"$work/killed/steps.csv") - 1)) steps"
[[ -s $work/killed/checkpoint.bin ]] || { echo "no checkpoint after the kill"; exit 1; }

"$bin" --restart "$work/killed" >/dev/null
for f in fields/centreline_u.csv fields/centreline_v.csv; do
  cmp "$work/whole/$f" "$work/killed/$f" || { echo "$f differs after restart"; exit 1; }
done
if ls "$work/whole/fields/"*.vts >/dev/null 2>&1; then
  cmp "$work/whole/fields/flow_000400.vts" "$work/killed/fields/flow_000400.vts" || { echo "final .vts differs"; exit 1; }
fi
figures() { grep -o '"figures_of_merit": {[^}]*}' "$1/summary.json"; }
[[ "$(figures "$work/whole")" == "$(figures "$work/killed")" ]] || { echo "figures of merit differ"; exit 1; }
[[ $(($(wc -l <"$work/killed/steps.csv") - 1)) == 400 ]] || { echo "steps.csv does not hold 400 steps"; exit 1; }
echo "restart after SIGKILL reproduced the uninterrupted run"
