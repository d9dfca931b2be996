#!/usr/bin/env bash
# Runs named steps on a bare CUDA machine (see scripts/device-build.sh for what
# it lacks and .carry/ for what travels), each under its own time limit, and
# packs what it wrote into $OUT/results.tgz after every step, so a run cut short
# still returns what finished. Used for the GPU results of 2026-11-22
# (bench/results/gpu-20261122-README.md).
#
#   scripts/device-bench.sh build tests fgbilu spmv
#   MC_SIZES=6309,983633 scripts/device-bench.sh build multicolor
#   ASYNC_ARGS="--gpu-only --system .carry/systems/cylinder-A.mtx" scripts/device-bench.sh build async
#
# Steps: build (configure + the GPU tests and benchmarks), tests (every
# test_*_gpu), spmv, fgbilu, multicolor, async, banded, parilut. Limits in
# seconds: MC_T, ASYNC_T, PL_T (defaults below).
set -uo pipefail
cd "$(dirname "$0")/.."
results=${OUT:-$PWD/build-device}/r
mkdir -p "$results"
build=${BUILD_DIR:-build-device}
stamp=$(date -u +%Y%m%d)
t0=$(date +%s)
log() { echo "[$(($(date +%s) - t0))s] $*" | tee -a "$results/steps.log"; }
pack() { tar czf "$results/../results.tgz" -C "$results/.." "$(basename "$results")" 2>/dev/null; }

targets="test_solvers_core_gpu test_solvers_matrix_gpu test_solvers_fgbilu_gpu test_solvers_async_ilu_gpu
         test_solvers_multicolor_gpu test_solvers_parilut_gpu test_solvers_banded_gpu tb-bench-spmv tb-bench-fgbilu
         tb-bench-multicolor tb-bench-async-ilu tb-bench-parilut tb-bench-banded tb-solve"

for step in "$@"; do
  log "start $step"
  case $step in
    build)
      cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release \
        -DEigen3_DIR="$PWD/.carry/eigen3/share/eigen3/cmake" -DTB_GTEST_SOURCE_DIR="$PWD/.carry/googletest" \
        -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON -DWITH_CUDA=ON -DWITH_MPI=OFF -DWITH_VTK=OFF -DWITH_METIS=OFF \
        >"$results/configure.log" 2>&1
      # shellcheck disable=SC2086
      cmake --build "$build" -j "$(nproc)" --target $targets >"$results/build.log" 2>&1 \
        || grep -E -B2 -A8 "error" "$results/build.log" | head -80
      nvidia-smi >"$results/nvidia-smi.txt" 2>&1 ;;
    tests)
      for t in "$build"/bin/test_*_gpu; do
        timeout 120 "$t" --gtest_brief=1 2>&1 | tee -a "$results/gpu-tests.log" | grep -E "FAILED|PASSED|Failure|SKIP"
      done ;;
    spmv)
      timeout 90 "$build/bin/tb-bench-spmv" --json "$results/gpu-$stamp-spmv.json" >"$results/spmv.txt" 2>&1 ;;
    fgbilu)
      timeout 240 "$build/bin/tb-bench-fgbilu" --json "$results/gpu-$stamp-fgbilu.json" \
        --md "$results/gpu-$stamp-fgbilu.md" >"$results/fgbilu.txt" 2>&1 ;;
    multicolor)
      timeout "${MC_T:-300}" "$build/bin/tb-bench-multicolor" --sizes "${MC_SIZES:-6309,103178,983633}" \
        --json "$results/gpu-$stamp-multicolor.json" >"$results/multicolor.txt" 2>&1 ;;
    async)
      # shellcheck disable=SC2086
      timeout "${ASYNC_T:-240}" "$build/bin/tb-bench-async-ilu" ${ASYNC_ARGS:-} --json "$results/gpu-$stamp-async-ilu.json" \
        --md "$results/gpu-$stamp-async-ilu.md" >"$results/async.txt" 2>&1 ;;
    banded)
      timeout 120 "$build/bin/tb-bench-banded" --backend cuda --grid "${BANDED_GRID:-128}" --spmv-grid 128 \
        --json "$results/gpu-$stamp-banded.json" --md "$results/gpu-$stamp-banded.md" >"$results/banded.txt" 2>&1 ;;
    parilut)
      timeout "${PL_T:-90}" "$build/bin/tb-bench-parilut" --problems ani5 --steps 2 --json "$results/gpu-$stamp-parilut.json" \
        --md "$results/gpu-$stamp-parilut.md" >"$results/parilut.txt" 2>&1 ;;
    *) echo "device-bench.sh: unknown step '$step' (build tests spmv fgbilu multicolor async banded parilut)" >&2 ;;
  esac
  log "end $step rc=$?"
  tail -5 "$results"/*.txt 2>/dev/null | tail -3
  pack
done
