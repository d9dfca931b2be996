#!/usr/bin/env python3
"""One naming of the device kernels in every room (docs/ARCHITECTURE.md, "Kernels").

Under solvers/<room>/:
  kernels.hpp        declares each device step once, expanded in kernels::ref,
                     kernels::omp and kernels::cuda
  kernels.cpp        the dispatching functions (namespace kernels)
  kernels_ref.cpp    the sequential twins (kernels::ref)
  kernels_omp.cpp    the OpenMP kernels (kernels::omp)
  cuda/kernels.cu    the CUDA kernels (kernels::cuda); cuda/kernels.hpp declares
                     the CUDA-only variants that have no host twin

The check fails on
  - a .cpp or .cu source whose name says kernel but is not one of the above;
  - a kernels::ref or kernels::omp function defined outside its file;
  - a __global__ function outside cuda/kernels.cu and the launch templates of
    solvers/core/cuda/*.cuh that the rooms' cuda/kernels.cu instantiate;
  - a namespace named cuda, ref or omp that is not kernels::cuda|ref|omp.
Usage: check_kernel_names.py REPO_ROOT
"""
import pathlib
import re
import sys

SOURCE_NAMES = {"kernels.cpp", "kernels_ref.cpp", "kernels_omp.cpp"}
# A namespace block opened on a backend name: `namespace a::b::cuda {` or
# `namespace cuda {` (the enclosing name decides whether kernels:: precedes it).
NAMESPACE = re.compile(r"^\s*namespace\s+([\w:]+)\s*\{")
# An out-of-line definition `... kernels::ref::name(...) {` at file scope.
QUALIFIED_DEF = re.compile(r"^[\w:<>,\s*&]*\bkernels::(ref|omp)::\w+\s*\(")


def strip_comments(text):
    text = re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def check_file(path, rel, findings):
    name = path.name
    in_cuda = path.parent.name == "cuda"
    if path.suffix in (".cpp", ".cu") and "kernel" in name:
        if in_cuda and name != "kernels.cu":
            findings.append(f"{rel}: CUDA kernels belong in cuda/kernels.cu")
        if not in_cuda and name not in SOURCE_NAMES:
            findings.append(f"{rel}: kernel sources are kernels.cpp, kernels_ref.cpp, kernels_omp.cpp")
    text = strip_comments(path.read_text(encoding="utf-8", errors="replace"))
    shared_template = str(rel).startswith("solvers/core/cuda/") and path.suffix == ".cuh"
    if "__global__" in text and not (in_cuda and name == "kernels.cu") and not shared_template:
        findings.append(f"{rel}: a __global__ kernel outside cuda/kernels.cu")
    stack = []  # (names, brace depth inside the block) of the open namespaces
    depth = 0
    for number, line in enumerate(text.splitlines(), 1):
        m = NAMESPACE.match(line)
        if m:
            parts = m.group(1).split("::")
            enclosing = [p for names, _ in stack for p in names]
            full = enclosing + parts
            for i in range(len(enclosing), len(full)):
                if full[i] in ("ref", "omp", "cuda") and (i == 0 or full[i - 1] != "kernels"):
                    findings.append(f"{rel}:{number}: namespace {full[i]} outside kernels:: (use kernels::{full[i]})")
            backend = full[-1]
            if backend in ("ref", "omp") and path.suffix in (".cpp", ".cu") and name != f"kernels_{backend}.cpp":
                findings.append(f"{rel}:{number}: kernels::{backend} defined outside kernels_{backend}.cpp")
            stack.append((parts, depth + 1))
        else:
            q = QUALIFIED_DEF.match(line)
            if q and path.suffix in (".cpp", ".cu") and depth == len(stack) and name != f"kernels_{q.group(1)}.cpp":
                findings.append(f"{rel}:{number}: kernels::{q.group(1)} defined outside kernels_{q.group(1)}.cpp")
        for c in line:
            if c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
                while stack and depth < stack[-1][1]:
                    stack.pop()


def self_test():
    """The check finds each kind of breach in a small made-up room."""
    import tempfile

    bad = {
        "kernels_host.cpp": "namespace tb::x::kernels::omp {\nvoid f() {}\n}\n",
        "algo.cpp": "namespace tb::x {\nvoid kernels::ref::g(int a) {\n}\n}\n",
        "cuda/step_kernels.cu": "namespace tb::x::cuda {\n__global__ void k() {}\n}\n",
        "kernels_ref.cpp": "namespace tb::x::kernels::ref {\nvoid g() {}\n}  // namespace\n",
    }
    expected = 6  # name, omp outside; ref outside; name, __global__, namespace cuda
    with tempfile.TemporaryDirectory() as tmp:
        room = pathlib.Path(tmp)
        findings = []
        for name, text in bad.items():
            (room / name).parent.mkdir(parents=True, exist_ok=True)
            (room / name).write_text(text)
            check_file(room / name, name, findings)
    if len(findings) != expected:
        print("check_kernel_names.py self-test: expected", expected, "findings, got:", *findings, sep="\n  ")
        return False
    return True


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    if not self_test():
        return 1
    findings = []
    for path in sorted((root / "solvers").rglob("*")):
        if path.suffix in (".cpp", ".cu", ".hpp", ".cuh") and path.is_file():
            check_file(path, path.relative_to(root), findings)
    for f in findings:
        print(f)
    if findings:
        print(f"{len(findings)} finding(s): see docs/ARCHITECTURE.md, 'Kernels'")
        return 1
    print("kernel files and namespaces: one naming in every room")
    return 0


if __name__ == "__main__":
    sys.exit(main())
