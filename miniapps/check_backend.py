#!/usr/bin/python3
"""--backend cuda against the host: a miniapp's default case, 3 steps each way.

Every system of the cuda run is solved on the device with the miniapp's GPU
specifications (MiniappDescription::gpu_specs); the host run with its
defaults. The nonlinear residuals of each step (steps.csv's res:* columns,
timings aside) and the figures of merit of summary.json must agree within
what the linear solvers' tolerances leave: the relative tolerance below per
miniapp (tb-comp2d's solves stop at rtol 0.1, tb-incomp's and tb-ib's at
1e-8 or tighter). Without a CUDA build or device the cuda run is refused
(exit 2): the check is skipped (exit 77) with the reason.

Usage: check_backend.py BINARY WORK_DIR
"""
import csv
import json
import math
import os
import shutil
import subprocess
import sys

TOLERANCE = {"tb-comp2d": 0.25, "tb-incomp": 1e-4, "tb-ib": 1e-4}
STEPS = "3"


def run(binary, out, *extra):
    shutil.rmtree(out, ignore_errors=True)
    return subprocess.run([binary, "--steps", STEPS, "--out", out, "--set", "run.progress=false", *extra],
                          capture_output=True, text=True)


def residuals(out):
    rows = list(csv.DictReader(open(os.path.join(out, "steps.csv"))))
    return [{k: float(v) for k, v in r.items() if k.startswith("res:") and not k.endswith("_s") and v} for r in rows]


def close(a, b, tol):
    return a == b or (math.isfinite(a) and math.isfinite(b) and abs(a - b) <= tol * max(abs(a), abs(b), 1e-300))


def main():
    binary, work = sys.argv[1], sys.argv[2]
    name = os.path.basename(binary)
    tol = TOLERANCE[name]
    cuda = run(binary, os.path.join(work, "cuda"), "--backend", "cuda")
    if cuda.returncode == 2 and "run.backend" in cuda.stderr:
        print("skipped: " + cuda.stderr.strip())
        sys.exit(77)
    host = run(binary, os.path.join(work, "host"))
    print(host.stdout, host.stderr, cuda.stdout, cuda.stderr, sep="")
    if host.returncode != 0 or cuda.returncode != 0:
        sys.exit(f"exit status {host.returncode} on the host, {cuda.returncode} with --backend cuda")
    failed = 0
    for step, (h, c) in enumerate(zip(residuals(os.path.join(work, "host")), residuals(os.path.join(work, "cuda"))),
                                  1):
        for key, value in h.items():
            if not close(value, c.get(key, math.nan), tol):
                print(f"step {step}: {key} {value} on the host, {c.get(key)} on the device (tolerance {tol})")
                failed += 1
    figures = [json.load(open(os.path.join(work, d, "summary.json")))["figures_of_merit"] for d in ("host", "cuda")]
    for key, value in figures[0].items():
        if isinstance(value, (int, float)) and not close(float(value), float(figures[1].get(key, math.nan)), tol):
            print(f"{key}: {value} on the host, {figures[1].get(key)} on the device (tolerance {tol})")
            failed += 1
    print("ok" if not failed else f"{failed} differences")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
