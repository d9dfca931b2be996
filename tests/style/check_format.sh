#!/usr/bin/env bash
# Every tracked C++/CUDA file is as clang-format-14 with the project's
# .clang-format writes it. Pinned to 14, the
# version Debian 12 ships and scripts/setup.sh installs: another version formats
# some constructs differently and would fail files nobody changed.
# Exit 77 (ctest's skip) with the reason when clang-format-14 or git is absent,
# or the source is not a git checkout; 1 with clang-format's file:line report
# when a file differs.
# Usage: check_format.sh <source root>
set -uo pipefail
root=${1:?usage: check_format.sh <source root>}
for tool in clang-format-14 git; do
  if ! command -v "$tool" >/dev/null; then
    echo "SKIP: $tool is not installed (scripts/setup.sh installs it); formatting not checked"
    exit 77
  fi
done
cd "$root" || exit 1
if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  echo "SKIP: $root is not a git checkout, so there is no list of tracked files; formatting not checked"
  exit 77
fi
mapfile -d '' files < <(git ls-files -z -- '*.cpp' '*.hpp' '*.h' '*.cc' '*.cu' '*.cuh')
if [ ${#files[@]} -eq 0 ]; then
  echo "no tracked C++/CUDA files found under $root: nothing would be checked"
  exit 1
fi
if printf '%s\0' "${files[@]}" | xargs -0 clang-format-14 --dry-run --Werror; then
  echo "${#files[@]} tracked C++/CUDA files match .clang-format"
  exit 0
fi
echo "some files differ from .clang-format: run clang-format-14 -i on the files named above"
exit 1
