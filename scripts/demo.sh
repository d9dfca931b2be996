#!/usr/bin/env bash
# Command (a) of the README: set up, build, and run the main job: for now the
# offline solver on the shipped demo system with two solver specifications side
# by side (the miniapps' default cases join here as they land).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake --preset release >/dev/null
cmake --build --preset release -j "${JOBS:-$(nproc)}"
mkdir -p out
build/bin/tb-solve inputs/systems/cdr3d_n4.mtx \
  --solver "gmres(restart=30,rtol=1e-8)+bilu0" \
  --solver "bicgstab(rtol=1e-8)+block_jacobi" \
  --json out/demo-solve.json
