#!/usr/bin/env bash
# Builds the solver layer, its GPU tests, the miniapps and the benchmarks on a
# bare CUDA machine (nvcc, CMake and a C++ compiler; no Debian -dev packages:
# Eigen, GoogleTest, toml++ and xxHash come from .carry/, filled by
# scripts/device-carry.sh where they are installed; VTK stays off, so the
# miniapps write no field files) and runs named steps, each under its own time
# limit. With .carry/mpi (scripts/device-carry.sh --mpi) the build has MPI and
# METIS too, from Debian's packages unpacked outside /. What a step writes goes
# to build-device-results/r and is packed into $OUT/results.tgz after every
# step, so a run cut short still returns what finished (bench/README.md).
#
#   scripts/device-bench.sh build tests spmv            # configure, build, GPU tests, SpMV study
#   MC_SIZES=6309,983633 scripts/device-bench.sh build multicolor
#   MC_ARGS="--gpu-only --mesh .carry/meshes/tet_sphere_103k.msh" scripts/device-bench.sh build multicolor
#   ASYNC_ARGS="--gpu-only --system .carry/systems/cylinder-A.mtx" scripts/device-bench.sh build async
#   scripts/device-bench.sh build loops autopilot       # the miniapps' time loops with GPU solvers
#   scripts/device-bench.sh build tests mpi scaling     # with .carry/mpi: MPI tests, ranks on 16 cores
#
# Steps: build (configure and build everything), prebuilt (unpack what
# scripts/device-carry.sh --prebuilt built here instead), tests (ctest -L gpu), comp2d-tests
# (those of tb-comp2d's resident step alone), sanitize
# (compute-sanitizer's memcheck and racecheck over every GPU test program), loops
# (bench/time_loops/gpu_loops.py: each miniapp's cases with host and GPU
# solvers, alternated), autopilot (bench/autopilot/autopilot.py --gpu: host
# against GPU candidates inside the loops), spmv,
# fgbilu, fgbilu-target (65^3 only), multicolor, async, async-blocks (the apply sweep per block
# size 1..32 and CUDA mapping against the device triad), banded, parilut,
# parilut-pipeline (seed 003 Fig. 11 for the ParILUT step pipeline, host against device,
# on ANI7 and a >= 1M-row tb-incomp pressure system; PLP_SYSTEM, PLP_T), resident
# (tb-incomp's 64^3 and 128^3 cavity, 5 steps, host defaults against --backend cuda and
# cuda-jacobi, alternated; RES_T), resident-ib (tb-ib's default and fine sphere, 10 steps, the
# same; RES_T), resident-comp2d
# (tb-comp2d's cylinder and NACA0012 coarse/medium/fine, host defaults against --backend
# cuda, alternated twice; needs scripts/device-carry.sh --comp-meshes; COMP_T), face-sums
# (tb-bench-face-sums: the residual's face-to-cell gather against atomics and colours), mg (tb-bench-mg at 128^3 on the device; MG_T),
# launches (device launches and time per iteration of BiCGStab + FGBILU cl on the 128^3 pressure Poisson, one launch
# per hyperplane and per sweep, each launched and replayed as a CUDA graph, alternated; then tb-bench-fgbilu at 65^3,
# n = 6 and 128^3, n = 1 with the graph rows; LAUNCH_SYSTEM: a MatrixMarket pressure system instead, LAUNCH_T),
# mpi-tests (needs the MPI build: ctest -L mpi alone), mpi (needs the MPI build: ctest -L mpi, the two-rank GPU tests included, the
# ranks sharing the GPU; then tb-ib's default decomposed on 1, 2 and 4 ranks
# with GBCG on the host and the device, IB_REPS times), scaling (needs the MPI
# build: bench/dist/miniapp_ranks.py on 1-16 ranks, one thread each, for the
# medium NACA0012 mesh under bjacobi and asm(overlap=1), the 128^2 cavity and
# the sphere; SCALING_RANKS, SCALING_REPS, SCALING_CASES: some of naca-bjacobi naca-work (its parts
# balanced in work, mesh.partition=work) naca-asm cavity sphere;
# SCALING_MPI_ARGS: mpiexec options such as --bind-to core), orthog (needs the MPI build:
# the medium NACA0012 mesh on ORTHOG_RANKS ranks with GMRES's classical Gram-Schmidt and
# CGS-P, alternated ORTHOG_REPS times), triad (needs the MPI build: lscpu and
# tb-bench-dist --triad on TRIAD_RANKS ranks at once, 256 MiB and 2 MiB arrays), exchanges (needs the MPI
# build: tb-bench-dist --exchanges on EXCH_RANKS ranks, the two halo transports), ranks-gpu (needs the MPI build: the
# medium NACA0012 mesh on GPU_RANKS ranks, each rank's local solver on the GPU, then the
# whole step resident on each rank's piece),
# shared-gpu (needs the MPI build: tb-ib on ranks sharing the GPU, with and
# without NVIDIA's MPS daemon). Limits in seconds: MC_T, ASYNC_T,
# PL_T, LOOPS_T, AP_T, SCALING_T, TESTS_T, COMP_TESTS_T (defaults below); MC_ARGS adds arguments
# (--gpu-only); BUILD_DIR names the build folder.
set -uo pipefail
cd "$(dirname "$0")/.."
# The device tool returns at most 8 files from $OUT: the results are written
# beside the build and only their archive (and steps.log) goes to $OUT.
results=$PWD/build-device-results/r
packed=${OUT:-$PWD/build-device-results}
rm -rf "$results" && mkdir -p "$results" "$packed"
build=${BUILD_DIR:-build-device}
stamp=$(date -u +%Y%m%d)
t0=$(date +%s)
log() { echo "[$(($(date +%s) - t0))s] $*" | tee -a "$results/steps.log"; }
pack() {
  tar czf "$packed/results.tgz" -C "$results/.." "$(basename "$results")" 2>/dev/null
  cp "$results/steps.log" "$packed/" 2>/dev/null
}

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

# Debian 12's Open MPI, METIS and GNU time, unpacked once outside / (where a
# package could break the image) and found through OPAL_PREFIX.
mpi_flags=()
if ls .carry/mpi/*.deb >/dev/null 2>&1; then
  root=/tmp/tb-mpi
  if [ ! -x "$root/usr/bin/mpiexec.openmpi" ]; then
    rm -rf "$root" && mkdir -p "$root"
    for f in .carry/mpi/*.deb; do dpkg -x "$f" "$root"; done
  fi
  usr=$root/usr && lib=$usr/lib/x86_64-linux-gnu
  export OPAL_PREFIX=$usr LD_LIBRARY_PATH=$lib:$lib/openmpi/lib:${LD_LIBRARY_PATH:-}
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 PMIX_MCA_pcompress_base_silence_warning=1
  mpiexec=$usr/bin/mpiexec.openmpi
  mpi_flags=(-DWITH_MPI=ON -DMPI_CXX_COMPILER="$usr/bin/mpicxx.openmpi" -DMPIEXEC_EXECUTABLE="$mpiexec"
    -DWITH_METIS=ON -DMETIS_INCLUDE_DIR="$usr/include" -DMETIS_LIBRARY="$lib/libmetis.so")
else
  mpi_flags=(-DWITH_MPI=OFF -DWITH_METIS=OFF)
fi
# bench/dist/miniapp_ranks.py through the carried mpiexec and GNU time:
# ranks_py LOG RANKS MINIAPP [ARGS...], its output appended to $results/LOG.
ranks_py() {
  timeout "${SCALING_T:-480}" "$py" bench/dist/miniapp_ranks.py --miniapp "$3" --exe "$build/bin/$3" --mpiexec "$mpiexec" \
    --mpiexec-args "${SCALING_MPI_ARGS:-}" --time "$usr/bin/time" --ranks "$2" --reps "${SCALING_REPS:-1}" "${@:4}" \
    >>"$results/$1" 2>&1
}
medium=(--set mesh.file=.carry/meshes/naca0012_medium.su2 --set scheme.limiter=venkatakrishnan)
# tb-ib's two systems with GBCG on the device.
ib_on_device=(--set "solver.pressure=bicgstab_dia(rtol=1e-8,maxit=3000,relative_to=b,backend=cuda)"
  --set "solver.advection_diffusion=bicgstab_dia(rtol=1e-8,maxit=500,relative_to=b,backend=cuda)")
# GBCG on the host (tb-ib's default is BiCGStab + BiLU(0)).
ib_on_host=(--set "solver.pressure=bicgstab_dia(rtol=1e-8,maxit=3000,relative_to=b)"
  --set "solver.advection_diffusion=bicgstab_dia(rtol=1e-8,maxit=500,relative_to=b)")
# ctest -L gpu under LIMIT seconds into $results/LOG, more ctest arguments after:
# gpu_ctest LIMIT LOG [ARGS...]. --timeout: a kernel that never ends (a wait in
# fgbilu's launch=sweep) costs 2 minutes, not the call.
gpu_ctest() {
  timeout "$1" ctest --test-dir "$build" -L gpu --output-on-failure --timeout 120 -j "$(nproc)" "${@:3}" 2>&1 |
    tee "$results/$2" | tail -5
}
need_mpi() {
  [ -n "${mpiexec:-}" ] && return 0
  echo "device-bench.sh: step $1 needs .carry/mpi (scripts/device-carry.sh --mpi) and the build it makes" >&2
  return 1
}

for step in "$@"; do
  log "start $step"
  case $step in
    build)
      # GTest's package search is disabled so the carried sources are the ones built.
      cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DEigen3_DIR="$eigen_dir" \
        -DTB_GTEST_SOURCE_DIR="$PWD/.carry/googletest" -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON \
        -DWITH_CUDA=ON -DWITH_VTK=OFF -DWITH_PETSC=OFF -DWITH_PYTHON=OFF \
        "${mpi_flags[@]}" "${miniapp_flags[@]}" >"$results/configure.log" 2>&1
      grep "Testbed:" "$results/configure.log"
      cmake --build "$build" -j "$(nproc)" >"$results/build.log" 2>&1 || grep -E -B2 -A8 "error" "$results/build.log" | head -80
      nvidia-smi >"$results/nvidia-smi.txt" 2>&1 ;;
    prebuilt)
      # Instead of build: the programs and CTest files that scripts/device-carry.sh --prebuilt
      # built on the development machine, unpacked into the build folder. Their CTest files
      # name that machine's checkout path; toml++'s library comes from .carry/toml.
      [ -f .carry/prebuilt.txz ] || { echo "device-bench.sh: no .carry/prebuilt.txz (scripts/device-carry.sh --prebuilt)" >&2; exit 2; }
      [ "$(cat .carry/prebuilt.root)" = "$PWD" ] || echo "device-bench.sh: prebuilt at $(cat .carry/prebuilt.root), here $PWD: CTest's paths will not resolve" >&2
      mkdir -p "$build" && "$py" -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' .carry/prebuilt.txz "$build"
      find "$build" -name '*_include.cmake' -exec sed -i "s|\"/[^\"]*/GoogleTestAddTests.cmake\"|\"$PWD/.carry/GoogleTestAddTests.cmake\"|" {} +
      export LD_LIBRARY_PATH=$PWD/.carry/toml/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
      # The multicolor room opens cuSPARSE and cuBLAS by the path they had where it was built.
      for lib in /usr/local/cuda/lib /usr/local/cuda/lib64; do [ -e "$lib" ] || ln -s "$(basename "$(ls -d /usr/local/cuda/lib* | head -1)")" "$lib"; done
      ldd "$build"/bin/tb-incomp | grep -q "libcudart.*not found" && export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$PWD/.carry/cudart
      { echo "prebuilt at $(cat .carry/prebuilt.commit)"; ldd "$build"/bin/* | grep "not found" | sort -u; } | tee "$results/prebuilt.txt"
      nvidia-smi >"$results/nvidia-smi.txt" 2>&1 ;;
    tests)
      gpu_ctest "${TESTS_T:-900}" gpu-tests.log ;;
    comp2d-tests)
      # The GPU tests of tb-comp2d's resident step alone (its kernels, the resident pseudo-time
      # loop, GMRES's device scalars and the core kernels they queue, --backend cuda against the
      # host), about a minute: before resident-comp2d, so that a failing kernel is named first.
      gpu_ctest "${COMP_TESTS_T:-120}" gpu-comp2d-tests.log \
        -R 'CompressibleKernelsGpu|ResidentPseudoTimeGpu|GmresScalarsGpu|CoreKernelsGpu|tb-comp2d' ;;
    sanitize)
      # compute-sanitizer over every GPU test program: memcheck (out-of-bounds and
      # misaligned accesses, leaks of device memory) and racecheck (shared-memory
      # hazards: the group kernels' scratch); SANITIZE_T seconds per program and tool.
      # SANITIZE_TOOLS adds initcheck (reads of device memory never written),
      # SANITIZE_PROGRAMS narrows the programs (test_solvers_parilut_gpu) and
      # SANITIZE_ARGS their tests (--gtest_filter=ParilutGpu.Step*).
      for exe in "$build"/bin/${SANITIZE_PROGRAMS:-test_*_gpu}; do
        for tool in ${SANITIZE_TOOLS:-memcheck racecheck}; do
          # shellcheck disable=SC2086
          timeout "${SANITIZE_T:-150}" compute-sanitizer --tool "$tool" --error-exitcode 9 --print-limit 20 "$exe" \
            ${SANITIZE_ARGS:-} >"$results/sanitize-$tool-$(basename "$exe").txt" 2>&1
          echo "$tool $(basename "$exe") exit $?" | tee -a "$results/sanitize.txt"
        done
      done ;;
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
    async-blocks)
      timeout "${ASYNC_T:-240}" "$build/bin/tb-bench-async-ilu" --sweep-bandwidth \
        --json "$results/gpu-$stamp-async-ilu-sweep-bandwidth.json" >"$results/async-blocks.txt" 2>&1 ;;
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
    parilut-pipeline)
      # Seed 003 Fig. 11 and the host / device step time of the ParILUT step pipeline on ANI7 and on a
      # >= 1M-row miniapp system: tb-incomp's 3D cavity at 102^3 cells (1,061,208 pressure unknowns),
      # its pressure system dumped after one step, or PLP_SYSTEM (a MatrixMarket file) instead.
      plp_system=${PLP_SYSTEM:-}
      if [ -z "$plp_system" ]; then
        timeout 300 "$build/bin/tb-incomp" inputs/incompressible/cavity3d_re1000.toml --steps 1 \
          --set grid.nx=102 --set grid.ny=102 --set grid.nz=102 --set run.output_every=0 \
          --dump-systems pressure --out "$build/plp-incomp" >"$results/parilut-pipeline-dump.txt" 2>&1
        plp_system=$(find "$build/plp-incomp/systems" -name '*-pressure-A.mtx' 2>/dev/null | sort | head -1)
      fi
      timeout "${PLP_T:-400}" "$build/bin/tb-bench-parilut-pipeline" --problems ani7 \
        ${plp_system:+--system "$plp_system"} --steps 3 --json "$results/gpu-$stamp-parilut-pipeline.json" \
        >"$results/parilut-pipeline.txt" 2>&1 ;;
    resident)
      # tb-incomp's 3D cavity at 64^3 and 128^3, 5 steps: the host defaults on every core
      # against --backend cuda (the resident step, the GPU defaults) and cuda-jacobi (the GPU
      # defaults with CG + block Jacobi on the device for the pressure), alternated twice, with the
      # step breakdown (bench/time_loops/gpu_resident.py).
      timeout "${RES_T:-540}" "$py" bench/time_loops/gpu_resident.py --bin "$build/bin" --cases incomp-64,incomp-128 \
        --backends host,cuda,cuda-jacobi --commit "${TB_COMMIT:-}" --json "$results/gpu-$stamp-resident-incomp.json" \
        >"$results/resident.txt" 2>&1
      echo "resident exit $?" ;;
    resident-ib)
      # tb-ib's default and fine sphere, 10 steps: the host defaults on every core against
      # --backend cuda (the resident step, the GPU defaults), alternated twice.
      timeout "${RES_T:-540}" "$py" bench/time_loops/gpu_resident.py --bin "$build/bin" --cases ib-default,ib-fine \
        --commit "${TB_COMMIT:-}" --json "$results/gpu-$stamp-resident-ib.json" >"$results/resident-ib.txt" 2>&1
      echo "resident-ib exit $?" ;;
    resident-comp2d)
      # tb-comp2d's whole run on the layered cylinder and the NACA0012 coarse, medium and
      # fine (.carry/meshes: scripts/device-carry.sh --comp-meshes): the host defaults on
      # every core against --backend cuda, alternated twice (bench/comp2d/gpu_comp2d.py).
      timeout "${COMP_T:-480}" "$py" bench/comp2d/gpu_comp2d.py --bin "$build/bin" --meshes .carry/meshes \
        --commit "${TB_COMMIT:-}" --json "$results/gpu-$stamp-comp2d-resident.json" >"$results/resident-comp2d.txt" 2>&1
      echo "resident-comp2d exit $?" ;;
    face-sums)
      # The compressible residual's face-to-cell sums on the device: the per-cell gather
      # against atomics and a face colouring (tb-bench-face-sums), on the shipped coarse
      # meshes and the medium and fine NACA0012 (.carry/meshes: device-carry.sh --comp-meshes).
      fs_meshes=()
      for m in inputs/meshes/naca0012_coarse.su2 inputs/meshes/cylinder_coarse.msh .carry/meshes/naca0012_medium.su2 \
        .carry/meshes/naca0012_fine.su2; do
        [ -e "$m" ] && fs_meshes+=(--mesh "$m")
      done
      timeout 120 "$build/bin/tb-bench-face-sums" --backend cuda "${fs_meshes[@]}" \
        --json "$results/gpu-$stamp-face-sums.json" >"$results/face-sums.txt" 2>&1 ;;
    mg)
      # The multigrid cycle and CG + mg on the device at 128^3, against CG + BiLU(0) on the host.
      timeout "${MG_T:-300}" "$build/bin/tb-bench-mg" --grid 128 --backend cuda --reps 5 --solve-reps 1 \
        >"$results/mg.txt" 2>&1 ;;
    launches)
      # fgbilu(graph=false|true) against each other in one tb-solve run, alternated twice: each solve's
      # SolveStats (tb-solve --json) has device_launches, preconditioner_launches and _applications,
      # solve_seconds and iterations. maxit fixes the work; rtol=1e-12 is not reached in it.
      specs=()
      for rep in 1 2; do
        for launch in plane sweep; do
          for graph in false true; do
            specs+=(--solver "bicgstab(rtol=1e-12,maxit=60,backend=cuda)+fgbilu(variant=cl,launch=$launch,graph=$graph)")
          done
        done
      done
      system=(--generate "poisson:nx=128,ny=128,nz=128,cluster=1,pin=1")
      [ -n "${LAUNCH_SYSTEM:-}" ] && system=("$LAUNCH_SYSTEM")
      timeout "${LAUNCH_T:-300}" "$build/bin/tb-solve" "${system[@]}" "${specs[@]}" \
        --json "$results/gpu-$stamp-launches-pressure128.json" >"$results/launches.txt" 2>&1
      echo "tb-solve exit $?" >>"$results/launches.txt"
      # One solve (both sweeps) per row, with its launches: 65^3 at n = 6 and 128^3 at n = 1 (2^21 n^2 IJK).
      timeout 240 "$build/bin/tb-bench-fgbilu" --cubes 65 --block-sizes 1 --sweep-entries 2097152 \
        --json "$results/gpu-$stamp-fgbilu-launches.json" --md "$results/gpu-$stamp-fgbilu-launches.md" \
        >>"$results/launches.txt" 2>&1 ;;
    mpi-tests)
      # The MPI tests alone (the two-rank GPU ones included), without mpi's tb-ib runs.
      need_mpi mpi-tests || continue
      ctest --test-dir "$build" -L mpi --output-on-failure --timeout 300 -j 4 2>&1 |
        tee "$results/mpi-tests.log" | tail -5 ;;
    mpi)
      need_mpi mpi || continue
      ldd --version | head -1 >"$results/mpi.txt"
      ctest --test-dir "$build" -L mpi --output-on-failure --timeout 300 -j 4 2>&1 |
        tee "$results/mpi-tests.log" | tail -5
      # tb-ib decomposed over 2 and 4 ranks with GBCG on each rank's own rows, host
      # and device (one GPU shared by the ranks), alternated.
      mkdir -p "$results/ib-ranks"
      for rep in $(seq "${IB_REPS:-1}"); do
        for ranks in 1 2 4; do
          for where in host cuda; do
            set_dev=("${ib_on_host[@]}")
            [ "$where" = cuda ] && set_dev=("${ib_on_device[@]}")
            out=$results/ib-ranks/r$rep-n$ranks-$where
            timeout 300 "$mpiexec" -n $ranks --oversubscribe "$build/bin/tb-ib" \
              "${set_dev[@]}" --set run.progress=false --out "$out" >"$out.log" 2>&1
            echo "tb-ib $ranks ranks $where rep $rep rc=$? $(grep -o '"wall_seconds": [0-9.]*' "$out/summary.json" 2>/dev/null)" \
              >>"$results/mpi.txt"
            pack
          done
        done
      done ;;
    scaling)
      # Strong scaling on the 16 cores, one thread a rank.
      need_mpi scaling || continue
      counts=${SCALING_RANKS:-1,2,4,8,16}
      cases=" ${SCALING_CASES:-naca-bjacobi naca-asm cavity sphere} "
      [[ $cases == *" naca-bjacobi "* ]] && ranks_py scaling.txt "$counts" tb-comp2d "${medium[@]}" \
        --json "$results/gpu-host16-$stamp-comp2d-naca-medium-bjacobi.json"
      [[ $cases == *" naca-work "* ]] && ranks_py scaling.txt "$counts" tb-comp2d "${medium[@]}" \
        --set mesh.partition=work --json "$results/gpu-host16-$stamp-comp2d-naca-medium-bjacobi-work.json"
      [[ $cases == *" naca-asm "* ]] && ranks_py scaling.txt "$counts" tb-comp2d "${medium[@]}" \
        --set "solver.flow=fgmres(restart=30,rtol=1e-1,maxit=60)+asm(overlap=1,local=bilu0)" \
        --json "$results/gpu-host16-$stamp-comp2d-naca-medium-asm1.json"
      [[ $cases == *" cavity "* ]] && ranks_py scaling.txt "$counts" tb-incomp --set grid.nx=128 --set grid.ny=128 \
        --json "$results/gpu-host16-$stamp-incomp-cavity128.json"
      [[ $cases == *" sphere "* ]] && ranks_py scaling.txt "$counts" tb-ib --json "$results/gpu-host16-$stamp-ib-sphere.json"
      true ;;
    orthog)
      # GMRES's Gram-Schmidt on the medium NACA0012 mesh, 1 and 16 ranks: classical (two
      # allreduces an iteration) against CGS-P (one), alternated ORTHOG_REPS times.
      need_mpi orthog || continue
      for rep in $(seq "${ORTHOG_REPS:-2}"); do
        for o in cgs cgsp; do
          ranks_py orthog.txt "${ORTHOG_RANKS:-1,16}" tb-comp2d "${medium[@]}" \
            --set "solver.flow=gmres(restart=10,rtol=4e-2,maxit=60,orthog=$o)+bilu0" \
            --json "$results/gpu-host16-$stamp-comp2d-naca-medium-orthog-$o-rep$rep.json"
        done
      done ;;
    triad)
      # The machine's memory bandwidth on 1-16 ranks at once (tb-bench-dist --triad): what a
      # bandwidth-bound loop can gain from more ranks here, beside the cores' layout (lscpu).
      need_mpi triad || continue
      { lscpu; command -v numactl >/dev/null && numactl -H; } >"$results/lscpu.txt" 2>&1
      for n in 33554432 262144; do
        for p in ${TRIAD_RANKS:-1 2 4 8 16}; do
          timeout 120 "$mpiexec" -n "$p" --oversubscribe ${SCALING_MPI_ARGS:-} "$build/bin/tb-bench-dist" --triad $n \
            --reps 10 --json "$results/gpu-host16-$stamp-triad-n$n-p$p.json" >>"$results/triad.txt" 2>&1
        done
      done ;;
    exchanges)
      # The ghost exchange's two transports (persistent requests, the neighbourhood all-to-all)
      # on 2-16 ranks, alternated (tb-bench-dist --exchanges): where many small pieces make it count.
      need_mpi exchanges || continue
      for p in ${EXCH_RANKS:-2 4 8 16}; do
        timeout 120 "$mpiexec" -n "$p" --oversubscribe ${SCALING_MPI_ARGS:-} "$build/bin/tb-bench-dist" \
          --generate stencil7:nx=48,ny=48,nz=48,n=4 --exchanges 2000 --reps 9 \
          --json "$results/gpu-host16-$stamp-exchanges-p$p.json" >>"$results/exchanges.txt" 2>&1
      done ;;
    shared-gpu)
      # tb-ib on 2 ranks sharing the GPU for 40 steps, without and then with
      # NVIDIA's MPS daemon (started here, in its own folders, and stopped after;
      # the card's settings are not touched), where the image has it.
      need_mpi shared-gpu || continue
      dev=("${ib_on_device[@]}" --steps 40 --set run.progress=false)
      for ranks in 1 2; do
        timeout 120 "$mpiexec" -n $ranks --oversubscribe "$build/bin/tb-ib" "${dev[@]}" --out "$results/shared-n$ranks" \
          >"$results/shared-n$ranks.log" 2>&1
        echo "tb-ib 40 steps, $ranks rank(s) on the GPU, no MPS: rc=$? $(grep -o '"wall_seconds": [0-9.]*' "$results/shared-n$ranks/summary.json")" >>"$results/shared-gpu.txt"
      done
      grep "devices:" "$results/shared-n2.log" >>"$results/shared-gpu.txt"
      if command -v nvidia-cuda-mps-control >/dev/null; then
        export CUDA_MPS_PIPE_DIRECTORY=/tmp/tb-mps/pipe CUDA_MPS_LOG_DIRECTORY=/tmp/tb-mps/log
        mkdir -p "$CUDA_MPS_PIPE_DIRECTORY" "$CUDA_MPS_LOG_DIRECTORY"
        nvidia-cuda-mps-control -d && sleep 1
        timeout 120 "$mpiexec" -n 2 --oversubscribe "$build/bin/tb-ib" "${dev[@]}" --out "$results/shared-mps" \
          >"$results/shared-mps.log" 2>&1
        echo "tb-ib 40 steps, 2 ranks on the GPU, MPS: rc=$? $(grep -o '"wall_seconds": [0-9.]*' "$results/shared-mps/summary.json")" >>"$results/shared-gpu.txt"
        echo quit | nvidia-cuda-mps-control
        unset CUDA_MPS_PIPE_DIRECTORY CUDA_MPS_LOG_DIRECTORY
      else
        echo "no nvidia-cuda-mps-control on this image" >>"$results/shared-gpu.txt"
      fi
      cat "$results/shared-gpu.txt" ;;
    ranks-gpu)
      # The medium NACA0012 mesh with each rank's solve resident on the one GPU
      # (partitioned_form keeps the Krylov method's backend=cuda, block Jacobi
      # over the ranks); one rank runs the whole solve on the device.
      need_mpi ranks-gpu || continue
      for pc in multicolor "async_bilu(build_sweeps=1,apply_sweeps=3)"; do
        ranks_py ranks-gpu.txt "${GPU_RANKS:-1,2,4,8}" tb-comp2d "${medium[@]}" \
          --set "solver.flow=fgmres(restart=30,rtol=1e-1,maxit=60,backend=cuda)+$pc" \
          --json "$results/gpu-$stamp-comp2d-naca-medium-local-${pc%%(*}.json"
      done
      # The whole step resident on each rank's piece (run.backend = cuda: the GPU
      # specification, the ghosts exchanged from device buffers).
      ranks_py ranks-gpu.txt "${GPU_RANKS:-1,2,4,8}" tb-comp2d "${medium[@]}" --set run.backend=cuda \
        --json "$results/gpu-$stamp-comp2d-naca-medium-resident.json" ;;
    *) echo "device-bench.sh: unknown step '$step' (build prebuilt tests comp2d-tests sanitize loops autopilot spmv fgbilu fgbilu-target multicolor async async-blocks banded parilut parilut-pipeline resident resident-ib resident-comp2d face-sums mg launches mpi-tests mpi scaling orthog triad exchanges ranks-gpu shared-gpu)" >&2 ;;
  esac
  log "end $step rc=$?"
  tail -5 "$results"/*.txt 2>/dev/null | tail -3
  pack
done
