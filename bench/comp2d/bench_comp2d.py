#!/usr/bin/env python3
"""End-to-end benchmark of tb-comp2d (docs/compressible.md): pseudo-steps, linear iterations
and the time per pseudo-step split into residual, Jacobian (matrix-free: the
outer iteration less its preconditioner solves), linear set-up, linear solve
(every solve of the flow system) and the rest (the harness: output, checksum, bookkeeping), as JSON.

  bench/comp2d/bench_comp2d.py build-host/bin/tb-comp2d OUT.json [CASE ...]

CASE is name=case.toml[:key=value,...]; without one the three default cases run:
the inviscid cylinder (its case file, on the layered mesh) and the laminar
NACA0012 on the coarse mesh, and the NACA0012 on the medium mesh when
scripts/make-meshes.sh medium has made it.
Set OMP_NUM_THREADS=1 OMP_WAIT_POLICY=passive for the issue's 1-thread figures.
"""
import csv
import datetime
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def default_cases():
    cases = [
        ("cylinder_layered", "inputs/compressible/cylinder_inviscid.toml", []),  # the case file's mesh
        ("naca0012_wake", "inputs/compressible/naca0012_laminar.toml", []),  # the case file's mesh
    ]
    medium = "inputs/meshes/generated/naca0012_medium.su2"
    if os.path.exists(os.path.join(ROOT, medium)):
        cases.append(("naca0012_medium", "inputs/compressible/naca0012_laminar.toml", ["mesh.file=" + medium]))
    return cases


def split_top_level(text):
    """Splits at the commas outside parentheses: a solver specification keeps its own."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p for p in parts if p]


def parse_case(text):
    name, rest = text.split("=", 1)
    toml, _, sets = rest.partition(":")
    return name, toml, split_top_level(sets)


def run(exe, name, toml, sets, workdir):
    out = os.path.join(workdir, name)
    cmd = [exe, toml, "--out", out]
    for s in sets:
        cmd += ["--set", s]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    summary = json.load(open(os.path.join(out, "summary.json")))
    rows = list(csv.DictReader(open(os.path.join(out, "steps.csv"))))
    f = summary["figures_of_merit"]
    steps = len(rows)
    # The linear figures from summary.json's totals: every solve of the step
    # (steps.csv's flow columns are the step's last solve; a matrix-free step
    # solves the first-order system once per outer iteration).
    flow = summary["totals"]["driver/flow"]
    total = {k: sum(float(r[c]) for r in rows) for k, c in
             [("residual", "res:residual_s"), ("jacobian", "res:jacobian_s")]}
    total |= {"linear_setup": flow["setup_seconds"], "linear_solve": flow["solve_seconds"]}
    wall = summary["wall_seconds"]
    total["harness_and_rest"] = wall - sum(total.values())
    first_order = sum(1 for r in rows if r["res:order"] == "1")
    return {
        "case": toml, "set": sets, "exit_status": proc.returncode, "last_line": proc.stdout.strip().splitlines()[-1]
        if proc.stdout.strip() else "",
        "cells": int(f["cells"]), "converged": bool(f["converged"]), "pseudo_steps": steps,
        "pseudo_steps_first_order": first_order, "pseudo_steps_second_order": steps - first_order,
        "linear_iterations": flow["iterations"], "linear_solves": flow["solves"],
        "outer_iterations": sum(int(float(r.get("res:outer_its", 0))) for r in rows),
        # jacobian.form = first_order_then_matrix_free: the step whose stall moved the run to the matrix-free form (0: none).
        "matrix_free_from_step": next((int(r["step"]) for r in rows if r.get("res:cfl_cut") == "4"), 0),
        "max_cfl": max(float(r["cfl"]) for r in rows), "final_cfl": f["final_cfl"],
        "steps_at_cfl_cap": sum(1 for r in rows if float(r["cfl"]) >= 1e4 * (1 - 1e-12)),
        # jacobian.reuse: steps that solved with an earlier step's matrix.
        "steps_jacobian_reused": sum(1 for r in rows if r.get("res:jacobian_reused") == "1"),
        "min_omega": min(float(r["res:omega"]) for r in rows),
        "cl": f["cl"], "cd": f["cd"], "cd_pressure": f["cd_pressure"], "cd_viscous": f["cd_viscous"],
        "wall_seconds": wall,
        "seconds_per_step": {k: v / steps for k, v in total.items()} | {"total": wall / steps},
        "machine": summary["machine"],
    }


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    exe, out_json = os.path.abspath(sys.argv[1]), sys.argv[2]
    cases = [parse_case(c) for c in sys.argv[3:]] or default_cases()
    results = {"_run": {
        "commit": subprocess.run(["git", "describe", "--always", "--dirty"], cwd=ROOT, capture_output=True,
                                 text=True).stdout.strip(),
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "loadavg_before": open("/proc/loadavg").read().split()[:3],
        "threads": os.environ.get("OMP_NUM_THREADS", "(unset)")}}
    with tempfile.TemporaryDirectory() as work:
        for name, toml, sets in cases:
            results[name] = run(exe, name, toml, sets, work)
            r = results[name]
            print(f"{name}: {r['pseudo_steps']} steps, converged {r['converged']}, {r['linear_iterations']} linear its, "
                  f"{1e3 * r['seconds_per_step']['total']:.1f} ms/step, max CFL {r['max_cfl']:.0f}, Cd {r['cd']:.5f}")
    results["_run"]["loadavg_after"] = open("/proc/loadavg").read().split()[:3]
    with open(out_json, "w") as f:
        json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
