#!/usr/bin/env bash
# End-to-end: tb-incomp with two shadow solvers writes the driver's table, one
# table per shadow and the A/B report, and every shadow solved exactly the
# driver's systems (equal checksums of matrix values, right-hand side and x0).
# Usage: check_shadows.sh TB_INCOMP OUT_DIR
set -euo pipefail
bin=$1 out=$2
rm -rf "$out"
"$bin" --steps 4 --set grid.nx=16 --set grid.ny=16 --out "$out" \
  --shadow 'gmres(restart=30)+bilu0' --shadow 'pressure=cg+jacobi'
for f in case.toml steps.csv shadow-1.csv shadow-2.csv summary.json ab_report.md ab_report.csv ab_report.json; do
  [[ -s $out/$f ]] || { echo "missing $out/$f"; exit 1; }
done
column() {  # column FILE NAME: the values of the named column, one per line (solver specs are quoted CSV)
  python3 -c 'import csv, sys; [print(r[sys.argv[2]]) for r in csv.DictReader(open(sys.argv[1]))]' "$1" "$2"
}
for shadow in 1 2; do
  for system in momentum pressure; do
    [[ $shadow == 2 && $system == momentum ]] && continue  # the second shadow solves pressure only
    if ! diff <(column "$out/steps.csv" "$system:checksum") <(column "$out/shadow-$shadow.csv" "$system:checksum"); then
      echo "shadow $shadow saw other $system systems than the driver"
      exit 1
    fi
  done
done
[[ $(column "$out/steps.csv" momentum:checksum | wc -l) == 4 ]] || { echo "expected 4 steps"; exit 1; }
echo "shadows solved the driver's systems"
