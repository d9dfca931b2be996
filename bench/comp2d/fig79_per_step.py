#!/usr/bin/python3
"""Seed 001's Fig. 7 and 9 quantities per pseudo-step of a tb-comp2d run
(docs/compressible.md): the asynchronous ILU's fixed-point residual after
its build sweeps (relative to the initial guess's), and the max-norms of the
block-Jacobi iteration matrices of L and U, on the systems the loop solves
while its CFL ramps up to the cap.

The run writes the systems of the chosen steps (--dump-systems); then
tb-bench-async-ilu --factor-quality measures each one (block and scalar
variants, synchronous and asynchronous sweeps, 1 and 3 build sweeps, natural
order: the loop's own, line-1wd for the NACA0012 case, plus RCM and 1WD on
top) and the rows are joined with the step's CFL and order from steps.csv.

  /usr/bin/python3 bench/comp2d/fig79_per_step.py --bin build/bin \\
      --json bench/results/host-comp2d-fig79.json --md OUT.md
"""
import argparse
import csv
import glob
import json
import os
import re
import subprocess
import sys
import tempfile
import time


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default="build/bin")
    ap.add_argument("--case", default="inputs/compressible/naca0012_laminar.toml")
    ap.add_argument("--steps", default="1,2,4,8,12,16,20,24,32,40,48,56,64",
                    help="pseudo-steps whose systems are measured (default: through the converged run)")
    ap.add_argument("--json")
    ap.add_argument("--md")
    o = ap.parse_args()
    for exe in ("tb-comp2d", "tb-bench-async-ilu"):
        if not os.access(os.path.join(o.bin, exe), os.X_OK):
            sys.exit("fig79_per_step.py: %s is not an executable; build first or give --bin" % os.path.join(o.bin, exe))
    with tempfile.TemporaryDirectory(prefix="tb-fig79-") as work:
        run = os.path.join(work, "run")
        p = subprocess.run([os.path.join(o.bin, "tb-comp2d"), o.case, "--out", run, "--set", "run.progress=false",
                            "--dump-systems", o.steps], capture_output=True, text=True)
        if p.returncode not in (0, 1):
            sys.exit("fig79_per_step.py: tb-comp2d failed:\n" + p.stderr[-800:])
        steps = {int(r["step"]): r for r in csv.DictReader(open(os.path.join(run, "steps.csv")))}
        systems = sorted(glob.glob(os.path.join(run, "systems", "step*-flow-A.mtx")),
                         key=lambda f: int(re.search(r"step(\d+)-", f).group(1)))
        if not systems:
            sys.exit("fig79_per_step.py: the run wrote no systems (steps %s past its end?)" % o.steps)
        fq = os.path.join(work, "fq.json")
        args = [os.path.join(o.bin, "tb-bench-async-ilu"), "--factor-quality", "--json", fq]
        for s in systems:
            args += ["--system", s]
        q = subprocess.run(args, capture_output=True, text=True)
        if q.returncode != 0:
            sys.exit("fig79_per_step.py: tb-bench-async-ilu failed:\n" + q.stderr[-800:])
        measured = json.load(open(fq))
    rows = []
    for r in measured["rows"]:
        m = re.search(r"step(\d+)-", r["system"])
        if not m:  # the benchmark's own generated system, not one of the run's
            continue
        step = int(m.group(1))
        info = steps.get(step, {})
        rows.append(dict(r, step=step, cfl=float(info.get("cfl", "nan")), order=info.get("res:order"),
                         flow_iterations=info.get("flow:iterations")))
    doc = {"benchmark": "seed 001 Fig. 7/9 quantities per pseudo-step of tb-comp2d", "case": o.case,
           "steps": o.steps, "date_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
           "commit": subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                                    text=True).stdout.strip(),
           "machine": measured.get("machine"), "rows": rows}
    if o.json:
        with open(o.json, "w") as f:
            json.dump(doc, f, indent=1)
    # The table of the paper's setting: block variant, natural (the loop's) order, one build sweep.
    lines = ["| step | order | CFL | FGMRES its | schedule | build sweeps | ILU residual | L Jacobi norm | U Jacobi norm |",
             "|---:|---:|---:|---:|---|---:|---:|---:|---:|"]
    for r in rows:
        if r["ordering"] != "natural" or r["variant"] != "block":
            continue
        lines.append("| %s | %s | %.4g | %s | %s | %d | %.3g | %.3g | %.3g |" % (
            r["step"], r["order"], r["cfl"], r["flow_iterations"], r["schedule"], r["build_sweeps"],
            r["relative_ilu_residual"], r["l_jacobi_norm"], r["u_jacobi_norm"]))
    table = "\n".join(lines)
    print(table)
    if o.md:
        with open(o.md, "w") as f:
            f.write("# Seed 001 Fig. 7/9 quantities per pseudo-step: %s\n\n" % o.case)
            f.write("Block asynchronous ILU(0) in the loop's own (natural) order; every ordering and variant "
                    "is in the JSON. Commit %s, %s.\n\n" % (doc["commit"], doc["date_utc"]))
            f.write(table + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
