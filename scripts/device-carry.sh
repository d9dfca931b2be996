#!/usr/bin/env bash
# Copies what a bare CUDA machine lacks into .carry/ (ignored by git), for
# scripts/device-bench.sh on that machine: Eigen's headers with its CMake
# package configuration, and GoogleTest's sources. Run it here, on a machine
# with the Debian packages (scripts/setup.sh), before sending the tree over.
#
# Layout: .carry/eigen3/{include/eigen3,share/eigen3/cmake} mirrors /usr, so
# Eigen3Config.cmake, which finds its headers at ../../../include/eigen3 from
# its own folder, needs no editing.
set -euo pipefail
cd "$(dirname "$0")/.."

eigen_headers=/usr/include/eigen3
eigen_cmake=/usr/share/eigen3/cmake
googletest=/usr/src/googletest
for p in "$eigen_headers" "$eigen_cmake/Eigen3Config.cmake" "$googletest/CMakeLists.txt"; do
  [ -e "$p" ] || { echo "device-carry.sh: $p is missing (install libeigen3-dev and libgtest-dev: scripts/setup.sh)" >&2; exit 2; }
done

rm -rf .carry/eigen3 .carry/googletest
mkdir -p .carry/eigen3/include .carry/eigen3/share/eigen3
cp -a "$eigen_headers" .carry/eigen3/include/
cp -a "$eigen_cmake" .carry/eigen3/share/eigen3/
cp -a "$googletest" .carry/googletest
du -sh .carry/eigen3 .carry/googletest
