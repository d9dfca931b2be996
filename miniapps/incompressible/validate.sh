#!/usr/bin/env bash
# The validation as a script: cavity centrelines against Ghia, Ghia & Shin
# (1982) and the Poiseuille channel's order of accuracy, printed as a table.
# Usage: miniapps/incompressible/validate.sh [BUILD_DIR] [OUT_DIR] [--full]
#   default: cavity Re 100 on 64^2 and the channel on ny = 12, 24, 48 (about a minute);
#   --full adds the shipped cavity cases (Re 100 on 129^2, Re 400, Re 1000 on 128^2: tens of minutes).
set -euo pipefail
build=${1:-build} out=${2:-out/validate-incomp} full=${3:-}
bin=$build/bin/tb-incomp
cases=inputs/incompressible
mkdir -p "$out"
figure() { grep -o "\"$2\": [^,}]*" "$1/summary.json" | head -1 | awk '{print $2}'; }
run() { local dir=$1; shift; "$bin" "$@" --out "$out/$dir" --set run.progress=false >"$out/$dir.log" 2>&1 || true; }

# The divergence a run's projections left (steps.csv's res:divergence): its median over
# the steps, its largest over that median, and the projection's correction solves.
divergence() {
  awk -F, 'NR == 1 { for (i = 1; i <= NF; ++i) { if ($i == "res:divergence") d = i; if ($i == "res:projection_corrections") c = i }; next }
           { print $d, $c }' "$1/steps.csv" |
    sort -g | awk '{ v[NR] = $1; c += $2 } END { m = NR % 2 ? v[(NR + 1) / 2] : 0.5 * (v[NR / 2] + v[NR / 2 + 1]);
                     printf "%10.2e %8.2f %6d", m, v[NR] / m, c }'
}
printf '%-28s %8s %10s %10s %10s %10s %8s %6s\n' case steps u_dev v_dev seconds div_median max/med corr
cavity() {
  local name=$1; shift
  run "$name" "$@"
  printf '%-28s %8s %10.4f %10.4f %10.1f %s\n' "$name" "$(figure "$out/$name" steps)" \
    "$(figure "$out/$name" ghia_u_max_deviation)" "$(figure "$out/$name" ghia_v_max_deviation)" \
    "$(figure "$out/$name" wall_seconds)" "$(divergence "$out/$name")"
}
cavity cavity_re100_64 --set grid.nx=64 --set grid.ny=64 --set time.dt=0.1 --steps 1000
if [[ $full == --full ]]; then
  cavity cavity_re100_129 "$cases/cavity2d_re100.toml"
  cavity cavity_re400_128 "$cases/cavity2d_re400.toml"
  cavity cavity_re1000_128 "$cases/cavity2d_re1000.toml"
fi

echo
printf '%-28s %12s %8s\n' channel outlet_error order
previous=
for ny in 12 24 48; do
  run "channel_ny$ny" "$cases/channel2d.toml" --set grid.ny=$ny --set run.output_every=0
  e=$(figure "$out/channel_ny$ny" poiseuille_max_error)
  order=$([[ -n $previous ]] && awk -v a="$previous" -v b="$e" 'BEGIN { printf "%.2f", log(a / b) / log(2) }' || echo -)
  printf '%-28s %12.3e %8s\n' "ny=$ny" "$e" "$order"
  previous=$e
done
