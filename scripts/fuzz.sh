#!/usr/bin/env bash
# Fuzzes the readers and parsers of user input (fuzz/, docs/fuzzing.md) with
# libFuzzer, ASan and UBSan: builds the fuzz preset (clang 14), then runs each
# target for MINUTES, JOBS targets at a time, starting from its committed seeds
# (fuzz/corpus/<target>, never written) and the corpus grown by earlier runs
# (build-fuzz/corpus/<target>). A crash, hang (> 10 s for one input), leak or
# allocation over 512 MiB (the readers' input limit is set to 256 MiB) is a
# finding: its input lands in build-fuzz/findings/<target>/, libFuzzer stops
# that target, and the script exits 1.
#
#   scripts/fuzz.sh [MINUTES] [TARGET...]      (default: 10 minutes, every target)
#   JOBS=2 scripts/fuzz.sh 1 matrix_market gmsh
#   SUMMARY=bench/results/host-fuzz.json scripts/fuzz.sh 10   # then its "about" (bench/README.md)
set -euo pipefail
cd "$(dirname "$0")/.."

minutes=10
if [[ $# -gt 0 && $1 =~ ^[0-9]+$ ]]; then minutes=$1; shift; fi
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=(matrix_market gmsh su2 stl case_file solver_spec checkpoint)
jobs=${JOBS:-2}
for t in "${targets[@]}"; do
  [[ -f fuzz/$t.cpp ]] || { echo "fuzz.sh: no fuzz target '$t' (fuzz/$t.cpp)" >&2; exit 2; }
done
command -v clang++-14 >/dev/null || { echo "fuzz.sh: clang++-14 not found (scripts/setup.sh --fuzz installs it)" >&2; exit 2; }

# The commit the binaries are built from ("-dirty" with uncommitted changes outside bench/results).
commit=$(git rev-parse --short HEAD)
git diff --quiet HEAD -- . ':!bench/results' || commit+="-dirty"
cmake --preset fuzz >/dev/null
cmake --build build-fuzz -j"${BUILD_JOBS:-2}" --target "${targets[@]/#/fuzz_}"

run_one() {
  local t=$1 work=build-fuzz/corpus/$1 findings=build-fuzz/findings/$1 log=build-fuzz/logs/$1.log
  # Findings of earlier runs were reported by them (keep what matters in fuzz/corpus/).
  rm -rf "$findings"
  mkdir -p "$work" "$findings" build-fuzz/logs "build-fuzz/tmp/$t"
  local dict=()
  [[ -f fuzz/dict/$t.dict ]] && dict=(-dict="fuzz/dict/$t.dict")
  local start=$SECONDS
  # Each target gets its own TMPDIR (the targets write their input to a file
  # there), and the readers' input limit below libFuzzer's malloc limit: a
  # reader allocating past its own limit is then a finding, and a small file
  # that legitimately declares a 500 MB vector is refused rather than filled.
  TB_INPUT_LIMIT_MB=256 TMPDIR=$PWD/build-fuzz/tmp/$t build-fuzz/bin/fuzz_"$t" "$work" "fuzz/corpus/$t" "${dict[@]}" \
    -max_total_time=$((minutes * 60)) -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=512 -max_len=16384 \
    -print_final_stats=1 -artifact_prefix="$findings/" >"$log" 2>&1 && echo "$t: ok" || echo "$t: FINDING (see $log)"
  echo $((SECONDS - start)) >"build-fuzz/logs/$t.seconds"
}

load_before=$(cut -d" " -f1-3 /proc/loadavg)
running=0
for t in "${targets[@]}"; do
  run_one "$t" &
  running=$((running + 1))
  if ((running >= jobs)); then wait -n; running=$((running - 1)); fi
done
wait

# One line per target: seconds run, executions, corpus size, findings; optionally as JSON.
status=0
rows=()
for t in "${targets[@]}"; do
  log=build-fuzz/logs/$t.log
  seconds=$(cat "build-fuzz/logs/$t.seconds")
  execs=$(grep -Eo 'stat::number_of_executed_units: +[0-9]+' "$log" | awk '{print $2}' | tail -1)
  rss=$(grep -Eo 'stat::peak_rss_mb: +[0-9]+' "$log" | awk '{print $2}' | tail -1)
  corpus=$(find "build-fuzz/corpus/$t" "fuzz/corpus/$t" -type f | wc -l)
  findings=$(find "build-fuzz/findings/$t" -type f | wc -l)
  ((findings == 0)) || status=1
  printf '%-14s %5d s  %12s executions  %6d corpus files  peak RSS %5s MB  %d findings\n' \
    "$t" "$seconds" "${execs:-?}" "$corpus" "${rss:-?}" "$findings"
  rows+=("{\"target\": \"$t\", \"seconds\": $seconds, \"executions\": ${execs:-null}, \"corpus_files\": $corpus, \"peak_rss_mb\": ${rss:-null}, \"findings\": $findings}")
done
if [[ -n ${SUMMARY:-} ]]; then
  {
    echo "{"
    echo "  \"what\": \"libFuzzer runs of scripts/fuzz.sh (clang 14, ASan + UBSan, TB_INPUT_LIMIT_MB=256)\","
    echo "  \"commit\": \"$commit\", \"minutes_asked\": $minutes, \"date\": \"$(date -u +%FT%TZ)\","
    echo "  \"machine\": \"$(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)\","
    echo "  \"load_before\": \"$load_before\", \"jobs\": $jobs,"
    echo "  \"targets\": ["
    for i in "${!rows[@]}"; do echo "    ${rows[$i]}$([[ $i -lt $((${#rows[@]} - 1)) ]] && echo ,)"; done
    echo "  ]"
    echo "}"
  } >"$SUMMARY"
  echo "summary written to $SUMMARY"
fi
exit $status
