#!/usr/bin/env bash
# Builds the solver layer, its GPU tests and the benchmarks on a bare CUDA
# machine (nvcc, CMake and a C++ compiler; no Debian -dev packages: Eigen,
# GoogleTest, toml++ and xxHash come from .carry/, filled by
# scripts/device-carry.sh where they are installed; MPI, VTK and METIS stay off,
# so the miniapps write no field files and order without METIS) and runs named steps, each under its own time limit. What a step writes goes
# to $OUT/r (else build-device/r) and is packed into results.tgz beside it after
# every step, so a run cut short still returns what finished. The GPU results
# of 2026-11-22 were taken this way (bench/results/gpu-20261122-README.md).
#
#   scripts/device-bench.sh build tests spmv            # configure, build, GPU tests, SpMV study
#   MC_SIZES=6309,983633 scripts/device-bench.sh build multicolor
#   MC_ARGS="--gpu-only --mesh .carry/meshes/tet_sphere_103k.msh" scripts/device-bench.sh build multicolor
#   ASYNC_ARGS="--gpu-only --system .carry/systems/cylinder-A.mtx" scripts/device-bench.sh build async
#   scripts/device-bench.sh build loops autopilot       # the miniapps' time loops with GPU solvers
#
# Steps: build (configure and build everything), tests (ctest -L gpu), loops
# (bench/time_loops/gpu_loops.py: each miniapp's cases with host and GPU
# solvers, alternated), autopilot (bench/autopilot/autopilot.py --gpu: host
# against GPU candidates inside the loops), spmv,
# fgbilu, fgbilu-target (65^3 only), multicolor, async, banded, parilut, mpi (Open MPI from .carry/mpi,
# scripts/device-carry.sh --mpi: a second build with MPI, then the MPI tests,
# the two-rank GPU ones included, on two ranks sharing the GPU; then tb-ib's
# default decomposed on 1, 2 and 4 ranks with GBCG on the host and the device). Limits in seconds: MC_T,
# ASYNC_T, PL_T (defaults below); MC_ARGS adds arguments (--gpu-only); BUILD_DIR names the build folder.
set -uo pipefail
cd "$(dirname "$0")/.."
results=${OUT:-$PWD/build-device}/r
mkdir -p "$results"
build=${BUILD_DIR:-build-device}
stamp=$(date -u +%Y%m%d)
t0=$(date +%s)
log() { echo "[$(($(date +%s) - t0))s] $*" | tee -a "$results/steps.log"; }
pack() { tar czf "$results/../results.tgz" -C "$results/.." "$(basename "$results")" 2>/dev/null; }

eigen_dir=$PWD/.carry/eigen3/share/eigen3/cmake
if [ ! -f "$eigen_dir/Eigen3Config.cmake" ] || [ ! -f .carry/googletest/CMakeLists.txt ]; then
  echo "device-bench.sh: .carry/ lacks Eigen or GoogleTest; run scripts/device-carry.sh where they are installed" >&2
  exit 2
fi

# The miniapps' dependencies, when carried (older .carry/ folders lack them).
miniapp_flags=()
if [ -f .carry/toml/lib/x86_64-linux-gnu/cmake/tomlplusplus/tomlplusplusConfig.cmake ]; then
  miniapp_flags=(-Dtomlplusplus_DIR="$PWD/.carry/toml/lib/x86_64-linux-gnu/cmake/tomlplusplus"
    -DTB_XXHASH_INCLUDE_DIR="$PWD/.carry/xxhash/include")
fi
py=$(command -v python3)

for step in "$@"; do
  log "start $step"
  case $step in
    build)
      # GTest's package search is disabled so the carried sources are the ones built.
      cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DEigen3_DIR="$eigen_dir" \
        -DTB_GTEST_SOURCE_DIR="$PWD/.carry/googletest" -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON \
        -DWITH_CUDA=ON -DWITH_MPI=OFF -DWITH_VTK=OFF -DWITH_METIS=OFF -DWITH_PETSC=OFF -DWITH_PYTHON=OFF \
        "${miniapp_flags[@]}" >"$results/configure.log" 2>&1
      cmake --build "$build" -j "$(nproc)" >"$results/build.log" 2>&1 || grep -E -B2 -A8 "error" "$results/build.log" | head -80
      nvidia-smi >"$results/nvidia-smi.txt" 2>&1 ;;
    tests)
      # --timeout: a kernel that never ends (a wait in fgbilu's launch=sweep) costs 2 minutes, not the call.
      ctest --test-dir "$build" -L gpu --output-on-failure --timeout 120 -j "$(nproc)" 2>&1 |
        tee "$results/gpu-tests.log" | tail -5 ;;
    loops)
      timeout "${LOOPS_T:-420}" "$py" bench/time_loops/gpu_loops.py --bin "$build/bin" ${LOOPS_ARGS:-} \
        --commit "${TB_COMMIT:-}" --json "$results/gpu-$stamp-time-loops.json" >"$results/loops.txt" 2>&1 ;;
    autopilot)
      timeout "${AP_T:-420}" "$py" bench/autopilot/autopilot.py --gpu --bin "$build/bin" ${AP_ARGS:-} \
        --commit "${TB_COMMIT:-}" --json "$results/gpu-$stamp-autopilot.json" >"$results/autopilot.txt" 2>&1 ;;
    spmv)
      timeout 90 "$build/bin/tb-bench-spmv" --json "$results/gpu-$stamp-spmv.json" >"$results/spmv.txt" 2>&1 ;;
    fgbilu)
      timeout 240 "$build/bin/tb-bench-fgbilu" --json "$results/gpu-$stamp-fgbilu.json" \
        --md "$results/gpu-$stamp-fgbilu.md" >"$results/fgbilu.txt" 2>&1 ;;
    fgbilu-target)
      # The issue's GPU target alone (65^3, n = 6, cl against cuSPARSE), in about a minute.
      timeout 120 "$build/bin/tb-bench-fgbilu" --cubes 45,65 --block-sizes 6 --reps 5 \
        --json "$results/gpu-$stamp-fgbilu-target.json" --md "$results/gpu-$stamp-fgbilu-target.md" \
        >"$results/fgbilu-target.txt" 2>&1 ;;
    multicolor)
      # shellcheck disable=SC2086
      timeout "${MC_T:-300}" "$build/bin/tb-bench-multicolor" ${MC_ARGS:-} --sizes "${MC_SIZES:-6309,103178,983633}" \
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
    mpi)
      # Unpacked outside /, where a package could break the image.
      root=/tmp/tb-mpi && rm -rf "$root" && mkdir -p "$root"
      for f in .carry/mpi/*.deb; do dpkg -x "$f" "$root"; done
      usr=$root/usr && lib=$usr/lib/x86_64-linux-gnu
      export OPAL_PREFIX=$usr LD_LIBRARY_PATH=$lib:$lib/openmpi/lib:${LD_LIBRARY_PATH:-}
      export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
      ldd --version | head -1 >"$results/mpi.txt"
      cmake -S . -B "$build-mpi" -DCMAKE_BUILD_TYPE=Release -DEigen3_DIR="$eigen_dir" \
        -DTB_GTEST_SOURCE_DIR="$PWD/.carry/googletest" -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON \
        -DWITH_CUDA=ON -DWITH_MPI=ON -DWITH_VTK=OFF -DWITH_METIS=OFF \
        -DMPI_CXX_COMPILER="$usr/bin/mpicxx.openmpi" -DMPIEXEC_EXECUTABLE="$usr/bin/mpiexec.openmpi" \
        >"$results/configure-mpi.log" 2>&1
      cmake --build "$build-mpi" -j "$(nproc)" --target test_solvers_dist_mpi test_solvers_dist_gpu_mpi \
        >"$results/build-mpi.log" 2>&1 || grep -E -B2 -A8 "error" "$results/build-mpi.log" | head -60
      for t in test_solvers_dist_gpu_mpi test_solvers_dist_mpi; do
        timeout 180 "$usr/bin/mpiexec.openmpi" -n 2 --oversubscribe "$build-mpi/bin/$t" >>"$results/mpi.txt" 2>&1
        echo "$t rc=$?" >>"$results/mpi.txt"
      done
      # tb-ib decomposed over 2 and 4 ranks with GBCG on each rank's own rows, host
      # and device (one GPU shared by the ranks), alternated (issue 28's GPU local solver).
      if cmake --build "$build-mpi" -j "$(nproc)" --target tb-ib >>"$results/build-mpi.log" 2>&1; then
        dev="bicgstab_dia(rtol=1e-8,maxit=3000,backend=cuda)"
        mkdir -p "$results/ib-ranks"
        for rep in 1 2; do
          for ranks in 1 2 4; do
            for where in host cuda; do
              set_dev=()
              [ "$where" = cuda ] && set_dev=(--set "solver.pressure=$dev" --set
                "solver.advection_diffusion=bicgstab_dia(rtol=1e-8,maxit=500,backend=cuda)")
              out=$results/ib-ranks/r$rep-n$ranks-$where
              timeout 300 "$usr/bin/mpiexec.openmpi" -n $ranks --oversubscribe "$build-mpi/bin/tb-ib" \
                "${set_dev[@]}" --set run.progress=false --out "$out" >"$out.log" 2>&1
              echo "tb-ib $ranks ranks $where rep $rep rc=$? $(grep -o '"wall_seconds": [0-9.]*' "$out/summary.json" 2>/dev/null)" \
                >>"$results/mpi.txt"
            done
          done
        done
      fi ;;
    *) echo "device-bench.sh: unknown step '$step' (build tests loops autopilot spmv fgbilu fgbilu-target multicolor async banded parilut mpi)" >&2 ;;
  esac
  log "end $step rc=$?"
  tail -5 "$results"/*.txt 2>/dev/null | tail -3
  pack
done
