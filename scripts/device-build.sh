#!/usr/bin/env bash
# Builds the solver layer, its GPU tests and the benchmarks on a bare CUDA
# machine (nvcc, CMake and a C++ compiler; no Debian -dev packages), runs the
# GPU tests and tb-bench-spmv, and leaves logs and JSON results in $OUT when it
# is set (else in the build folder). Eigen and GoogleTest come from .carry/,
# filled by scripts/device-carry.sh on a machine that has them.
#
#   scripts/device-build.sh                 configure, build, test, benchmark
#   BUILD_DIR=build-x scripts/device-build.sh
#   TB_DEVICE_TEST_LABELS='gpu|unit' ...    ctest label regex (default gpu)
#   TB_DEVICE_CMAKE_ARGS='-D...' ...        extra configure arguments
#   TB_DEVICE_BENCH_ARGS='--quick' ...      extra tb-bench-spmv arguments
#   TB_DEVICE_SKIP_BENCH=1 ...              tests only
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
carry=$root/.carry
build=${BUILD_DIR:-build-device}
out=${OUT:-$root/$build/device-results}
jobs=${JOBS:-$(nproc)}
mkdir -p "$out"

eigen_dir=$carry/eigen3/share/eigen3/cmake
if [ ! -f "$eigen_dir/Eigen3Config.cmake" ] || [ ! -f "$carry/googletest/CMakeLists.txt" ]; then
  echo "device-build.sh: .carry/ lacks Eigen or GoogleTest; run scripts/device-carry.sh where they are installed" >&2
  exit 2
fi

generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
# GTest's package search is disabled so the carried sources are always the
# ones built, whatever the machine happens to have. MPI, VTK and METIS stay
# off: the device image has none of them and the GPU work needs none.
# shellcheck disable=SC2086
cmake -S . -B "$build" "${generator[@]}" \
  -DCMAKE_BUILD_TYPE=Release \
  -DEigen3_DIR="$eigen_dir" \
  -DTB_GTEST_SOURCE_DIR="$carry/googletest" \
  -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON \
  -DWITH_CUDA=ON -DWITH_MPI=OFF -DWITH_VTK=OFF -DWITH_METIS=OFF \
  ${TB_DEVICE_CMAKE_ARGS:-} 2>&1 | tee "$out/configure.log"
if ! cmake --build "$build" -j "$jobs" >"$out/build.log" 2>&1; then
  grep -E -A5 "error|FAILED" "$out/build.log" | head -60 >&2
  echo "device-build.sh: build failed, see $out/build.log" >&2
  exit 1
fi
grep -E "warning" "$out/build.log" || true

{
  command -v nvidia-smi >/dev/null && nvidia-smi
  "$build/bin/test_solvers_core" --gtest_filter='CudaAvailability.*:CudaMemory.*' --gtest_brief=1 || true
} >"$out/device.txt" 2>&1

# Tests and benchmarks both run even when one fails, so one session on the
# device brings back everything; the exit status reports the first failure.
status=0
ctest --test-dir "$build" -L "${TB_DEVICE_TEST_LABELS:-gpu}" --output-on-failure -j "$jobs" 2>&1 | tee "$out/ctest.log" \
  || status=$?
if [ -z "${TB_DEVICE_SKIP_BENCH:-}" ]; then
  stamp=$(date -u +%Y%m%d)
  # shellcheck disable=SC2086
  "$build/bin/tb-bench-spmv" ${TB_DEVICE_BENCH_ARGS:-} --json "$out/gpu-$stamp-spmv.json" 2>&1 | tee "$out/gpu-$stamp-spmv.txt" \
    || { rc=$?; [ "$status" -ne 0 ] || status=$rc; }
fi
echo "device-build.sh: results in $out"
exit "$status"
