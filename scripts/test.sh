#!/usr/bin/env bash
# Command (b) of the README: set up a fresh Debian 12 machine, build, run every test.
# GPU tests skip themselves with a printed reason when no device is visible;
# MPI tests run under mpiexec -n 2.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
jobs=${JOBS:-$(nproc)}
cmake --preset ci
cmake --build --preset ci -j "$jobs"
ctest --preset ci -j "$jobs"
