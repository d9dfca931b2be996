#!/usr/bin/env bash
# Copies what a bare CUDA machine lacks into .carry/ (ignored by git), for
# scripts/device-bench.sh on that machine: Eigen's headers with its CMake
# package configuration, GoogleTest's sources, and what the miniapps need
# (toml++'s headers, library and CMake configuration; xxHash's headers). Run
# it here, on a machine with the Debian packages (scripts/setup.sh), before
# sending the tree over.
#
# Layout: .carry/eigen3/{include/eigen3,share/eigen3/cmake} mirrors /usr, so
# Eigen3Config.cmake, which finds its headers at ../../../include/eigen3 from
# its own folder, needs no editing.
#
# --mpi also fetches Debian's Open MPI, METIS and GNU time as .deb files into
# .carry/mpi (9 MB) and copies the medium NACA0012 mesh (scripts/make-meshes.sh
# medium; 2 MB) into .carry/meshes: the CUDA machine has none of them, and
# device-bench.sh unpacks the packages outside / and builds with MPI and METIS,
# for the MPI tests (the two-rank GPU ones included) and the `scaling` step. Relocating the unpacked tree with
# OPAL_PREFIX was tried on this (Debian) machine only; whether the CUDA image's
# C library is new enough for Debian 12's packages is found out there.
#
# --meshes also copies the Gmsh tetrahedral spheres of 6k and 103k nodes
# (scripts/make-meshes.sh tet; 27 MB) into .carry/meshes for
#   MC_ARGS="--mesh .carry/meshes/tet_sphere_103k.msh" scripts/device-bench.sh build multicolor
# The larger ones (106 MB and up) do not fit the device's 64 MiB carry limit.
#
# --comp-meshes copies the medium and fine NACA0012 meshes (scripts/make-meshes.sh
# medium fine; 12 MB) into .carry/meshes for device-bench.sh's resident-comp2d step.
# The flags combine: scripts/device-carry.sh --mpi --comp-meshes.
#
# --prebuilt builds here what device-bench.sh's GPU steps run (the GPU test
# programs, the three miniapps, tb-solve and the GPU benchmarks; CUDA on, VTK,
# MPI and PETSc off, as device-bench.sh's step build configures) in
# build-device/ and packs the programs and CTest's files into
# .carry/prebuilt.txz; device-bench.sh's step prebuilt unpacks it there in place
# of the step build, which on a bare machine spends minutes of device time
# compiling. CTest's files name this checkout's absolute path, so the device's
# copy must sit at the same path (it does: the device tool copies the checkout
# to where it is here). PREBUILT_JOBS sets the build's parallelism (2).
set -euo pipefail
cd "$(dirname "$0")/.."

has_flag() {
  local f
  for f in "${flags[@]}"; do [ "$f" = "$1" ] && return 0; done
  return 1
}
flags=("$@")

if has_flag --meshes; then
  rm -rf .carry/meshes && mkdir -p .carry/meshes
  for m in tet_sphere_6k tet_sphere_103k; do
    f=inputs/meshes/generated/$m.msh
    [ -e "$f" ] || { echo "device-carry.sh: $f is missing (scripts/make-meshes.sh tet)" >&2; exit 2; }
    cp "$f" .carry/meshes/
  done
  du -sh .carry/meshes
fi

if has_flag --comp-meshes; then
  mkdir -p .carry/meshes
  for m in naca0012_medium naca0012_fine; do
    f=inputs/meshes/generated/$m.su2
    [ -e "$f" ] || { echo "device-carry.sh: $f is missing (scripts/make-meshes.sh medium fine)" >&2; exit 2; }
    cp "$f" .carry/meshes/
  done
  du -sh .carry/meshes
fi

if has_flag --mpi; then
  rm -rf .carry/mpi && mkdir -p .carry/mpi
  (cd .carry/mpi && apt-get download openmpi-bin openmpi-common libopenmpi3 libopenmpi-dev libpmix2 libhwloc15 \
    libevent-core-2.1-7 libevent-pthreads-2.1-7 libfabric1 libucx0 libibverbs1 librdmacm1 libnl-3-200 \
    libnl-route-3-200 libpsm2-2 libpsm-infinipath1 libnuma1 libltdl7 libpciaccess0 libmunge2 libxnvctrl0 libgfortran5 \
    libmetis5 libmetis-dev time)
  du -sh .carry/mpi
  f=inputs/meshes/generated/naca0012_medium.su2
  [ -e "$f" ] || { echo "device-carry.sh: $f is missing (scripts/make-meshes.sh medium)" >&2; exit 2; }
  mkdir -p .carry/meshes && cp "$f" .carry/meshes/
fi

eigen_headers=/usr/include/eigen3
toml_cmake=/usr/lib/x86_64-linux-gnu/cmake/tomlplusplus
eigen_cmake=/usr/share/eigen3/cmake
googletest=/usr/src/googletest
for p in "$eigen_headers" "$eigen_cmake/Eigen3Config.cmake" "$googletest/CMakeLists.txt" \
  "$toml_cmake/tomlplusplusConfig.cmake" /usr/include/xxhash.h; do
  [ -e "$p" ] || { echo "device-carry.sh: $p is missing (install libeigen3-dev, libgtest-dev, libtomlplusplus-dev and libxxhash-dev: scripts/setup.sh)" >&2; exit 2; }
done

rm -rf .carry/eigen3 .carry/googletest
mkdir -p .carry/eigen3/include .carry/eigen3/share/eigen3
cp -a "$eigen_headers" .carry/eigen3/include/
cp -a "$eigen_cmake" .carry/eigen3/share/eigen3/
cp -a "$googletest" .carry/googletest

# toml++'s configuration finds its prefix four folders up from itself:
# .carry/toml/lib/x86_64-linux-gnu/cmake/tomlplusplus -> .carry/toml.
rm -rf .carry/toml .carry/xxhash
mkdir -p .carry/toml/include .carry/toml/lib/x86_64-linux-gnu/cmake .carry/xxhash/include
cp -a /usr/include/toml++ .carry/toml/include/
cp -a /usr/lib/x86_64-linux-gnu/libtomlplusplus.so* .carry/toml/lib/x86_64-linux-gnu/
cp -a "$toml_cmake" .carry/toml/lib/x86_64-linux-gnu/cmake/
cp -a /usr/include/xxhash.h /usr/include/xxh3.h .carry/xxhash/include/
du -sh .carry/eigen3 .carry/googletest .carry/toml .carry/xxhash

if has_flag --prebuilt; then
  cmake -S . -B build-device -DCMAKE_BUILD_TYPE=Release -DWITH_CUDA=ON -DWITH_VTK=OFF -DWITH_PETSC=OFF \
    -DWITH_PYTHON=OFF -DWITH_MPI=OFF -DWITH_METIS=OFF >/dev/null
  targets=(tb-incomp tb-ib tb-comp2d tb-solve tb-bench-face-sums tb-bench-fgbilu tb-bench-mg)
  mapfile -t -O "${#targets[@]}" targets < <(cmake --build build-device --target help | grep -o 'test_[a-z_]*_gpu$')
  cmake --build build-device -j "${PREBUILT_JOBS:-2}" --target "${targets[@]}"
  # GoogleTest's lists of tests (discovered before the tests run, DISCOVERY_MODE PRE_TEST) made here,
  # and CMake's script that makes them, which the device's CMake may lack at this path.
  ctest --test-dir build-device -N >/dev/null
  cp "$(grep -ho '"/[^"]*/GoogleTestAddTests.cmake"' build-device/tests/*/*_include.cmake \
    build-device/tests/*/*/*_include.cmake 2>/dev/null | head -1 | tr -d '"')" .carry/
  # The programs built, every CTestTestfile.cmake and the lists of tests.
  (cd build-device && find . \( -name CTestTestfile.cmake -o -name '*_tests.cmake' -o -name '*_include.cmake' \) \
    -not -path '*/CMakeFiles/*' >../.carry/prebuilt.list)
  for t in "${targets[@]}"; do [ -x "build-device/bin/$t" ] && echo "./bin/$t" >>.carry/prebuilt.list; done
  # xz: a third of gzip's size for the CUDA programs (13 MB against 37), and the device's python3 unpacks it.
  XZ_OPT="-6 -T0" tar cJf .carry/prebuilt.txz -C build-device -T .carry/prebuilt.list
  # CUDA's runtime, for an image without this toolkit's major version (used only where it is missing there).
  mkdir -p .carry/cudart && cp -L /usr/local/cuda/lib/libcudart.so.[0-9]* .carry/cudart/
  echo "$PWD" >.carry/prebuilt.root
  git rev-parse --short HEAD >.carry/prebuilt.commit
  du -sh .carry/prebuilt.txz
fi
