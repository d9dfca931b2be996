#!/usr/bin/python3
"""--backend cuda against the host: a miniapp's default case each way.

Every system of the cuda run is solved on the device with the miniapp's GPU
specifications (MiniappDescription::gpu_specs); the host run with its
defaults. What is compared is what the two runs' different solvers leave
equal:

- tb-incomp and tb-ib, 3 steps: the nonlinear residuals of each step
  (steps.csv's res:* columns) and the figures of merit of summary.json, within
  a relative 1e-4 (their solves stop at 1e-8 or tighter). A divergence is the
  pressure solve's residual, not the flow's: it agrees where both runs leave
  it below 1e-6 (velocities of order one). The projection's correction count
  is the solver's path and is not compared.
- tb-comp2d, run to its steady state: the pseudo-time path depends on the
  preconditioner (the first steps' lift differs in sign between BILU(0) and
  the asynchronous ILU), the converged flow does not. Both runs converge, in
  pseudo-step counts within a factor 1.5, to figures of merit within 1e-6
  (1e-9 absolute for those near zero); the final residual is not compared.

Without a CUDA build or device the cuda run is refused (exit 2): the check is
skipped (exit 77) with the reason.

Usage: check_backend.py BINARY WORK_DIR
"""
import csv
import json
import math
import os
import shutil
import subprocess
import sys

# steps: --steps (None: the case's own, to its steady state); per_step: compare steps.csv.
CHECKS = {
    "tb-comp2d": {"steps": None, "per_step": False, "tol": 1e-6, "floor": 1e-9,
                  "skip": {"energy_residual", "pseudo_steps"}},
    "tb-incomp": {"steps": "3", "per_step": True, "tol": 1e-4, "floor": 0.0, "skip": {"res:projection_corrections"}},
    "tb-ib": {"steps": "3", "per_step": True, "tol": 1e-4, "floor": 0.0, "skip": {"res:projection_corrections"}},
}
DIVERGENCE_FLOOR = 1e-6


def run(binary, out, steps, *extra):
    shutil.rmtree(out, ignore_errors=True)
    count = ["--steps", steps] if steps else []
    return subprocess.run([binary, *count, "--out", out, "--set", "run.progress=false", *extra],
                          capture_output=True, text=True)


def residuals(out):
    rows = list(csv.DictReader(open(os.path.join(out, "steps.csv"))))
    return [{k: float(v) for k, v in r.items() if k.startswith("res:") and not k.endswith("_s") and v} for r in rows]


def close(key, a, b, check):
    if a == b:
        return True
    if not (math.isfinite(a) and math.isfinite(b)):
        return False
    if "divergence" in key and max(abs(a), abs(b)) <= DIVERGENCE_FLOOR:
        return True
    return abs(a - b) <= max(check["tol"] * max(abs(a), abs(b)), check["floor"])


def main():
    binary, work = sys.argv[1], sys.argv[2]
    check = CHECKS[os.path.basename(binary)]
    cuda = run(binary, os.path.join(work, "cuda"), check["steps"], "--backend", "cuda")
    if cuda.returncode == 2 and "run.backend" in cuda.stderr:
        print("skipped: " + cuda.stderr.strip())
        sys.exit(77)
    host = run(binary, os.path.join(work, "host"), check["steps"])
    print(host.stdout, host.stderr, cuda.stdout, cuda.stderr, sep="")
    if host.returncode != 0 or cuda.returncode != 0:
        sys.exit(f"exit status {host.returncode} on the host, {cuda.returncode} with --backend cuda")
    failed = 0
    if check["per_step"]:
        for step, (h, c) in enumerate(zip(residuals(os.path.join(work, "host")),
                                          residuals(os.path.join(work, "cuda"))), 1):
            for key, value in h.items():
                if key not in check["skip"] and not close(key, value, c.get(key, math.nan), check):
                    print(f"step {step}: {key} {value} on the host, {c.get(key)} on the device")
                    failed += 1
    summaries = [json.load(open(os.path.join(work, d, "summary.json"))) for d in ("host", "cuda")]
    figures = [s["figures_of_merit"] for s in summaries]
    for key, value in figures[0].items():
        if key in check["skip"] or not isinstance(value, (int, float)):
            continue
        if not close(key, float(value), float(figures[1].get(key, math.nan)), check):
            print(f"{key}: {value} on the host, {figures[1].get(key)} on the device")
            failed += 1
    if not check["per_step"]:
        steps = [s["steps"] for s in summaries]
        if not all(s.get("converged") for s in summaries) or max(steps) > 1.5 * min(steps):
            print(f"converged: {[s.get('converged') for s in summaries]} in {steps[0]} steps on the host, "
                  f"{steps[1]} on the device")
            failed += 1
    print("ok" if not failed else f"{failed} differences")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
