#!/usr/bin/env bash
# Installs the Debian 12 packages the testbed builds against. Idempotent: when
# everything is present it prints nothing and changes nothing.
#   scripts/setup.sh            required packages
#   scripts/setup.sh --petsc    (accepted for old scripts: PETSc is now always installed)
#   scripts/setup.sh --gmsh     also gmsh (regenerates the mesh recipes in inputs/)
#   scripts/setup.sh --fuzz     also clang 14, libFuzzer and libomp (scripts/fuzz.sh, the tsan preset)
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git
  clang-format-14  # tests/style: the pinned formatter of the format test
  libeigen3-dev libgtest-dev libgmock-dev libbenchmark-dev
  libopenmpi-dev openmpi-bin
  libmetis-dev libvtk9-dev
  libtomlplusplus-dev libxxhash-dev
  python3-matplotlib python3-vtk9 xvfb xauth
  # PETSc (with hypre) as the solver kind petsc(...), and the Python bindings.
  petsc-dev python3-petsc4py pybind11-dev python3-dev python3-numpy python3-scipy
)
for arg in "$@"; do
  case "$arg" in
    --petsc) ;;
    --gmsh) packages+=(gmsh) ;;
    --fuzz) packages+=(clang-14 libclang-rt-14-dev libomp-14-dev) ;;
    -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
    *) echo "setup.sh: unknown option '$arg' (expected --petsc, --gmsh, --fuzz or --help)" >&2; exit 2 ;;
  esac
done

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
echo "setup.sh: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
