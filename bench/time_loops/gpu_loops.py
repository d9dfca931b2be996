#!/usr/bin/python3
"""The miniapps' time loops with their linear solves on a GPU, against the
same loops with the default (host) solvers, end to end (bench/README.md).

Each case runs once per setting: the program's defaults (host solvers, its own
thread count) and each GPU setting (every system's solver on `backend=cuda`).
Runs alternate (host, gpu-1, gpu-2, host, ...) and each figure is the median
over --reps. Recorded per run: exit status, wall time of the process, the
loop's own time, steps, converged or not, per system the linear totals
(solves, iterations, failures, set-up and solve seconds) and the figures of
merit, so that a GPU setting that changes the physics result shows.

  python3 bench/time_loops/gpu_loops.py --bin build/bin --reps 2 \\
      --json OUT.json    # bench/results/gpu-time-loops.json's part solves_on_gpu
  python3 bench/time_loops/gpu_loops.py --quick       # a few steps a case, one repetition

Without a GPU every GPU setting is refused at start-up (exit 2, no output):
the script records that and goes on.
"""
import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

CUDA = "backend=cuda"
FLOW = "fgmres(restart=30,rtol=1e-1,maxit=60,%s)" % CUDA
# The GPU settings stop where the host defaults do: tb-incomp's pressure and
# both of tb-ib's systems at rtol ||b|| (relative_to=b). tb-incomp's pressure
# CG runs without the stagnation rule, as its GPU default does: the pinned
# cell makes CG + Jacobi's residual rise and come back over 350-444
# iterations at 128^3, longer than the rule's window, and the solve converges
# in 1,170-1,228 without it (docs/incompressible.md, "CG + Jacobi on the
# pinned pressure system").
PRESSURE_CG = "cg(rtol=1e-9,maxit=2000,relative_to=b,stagnation=0,%s)" % CUDA
INCOMP_GPU = {
    "gpu block_jacobi": {"momentum": "bicgstab(rtol=1e-8,maxit=500,%s)+block_jacobi" % CUDA,
                         "pressure": PRESSURE_CG + "+block_jacobi"},
    "gpu async_bilu": {"momentum": "bicgstab(rtol=1e-8,maxit=500,%s)+async_bilu(build_sweeps=1,apply_sweeps=3)" % CUDA,
                       "pressure": PRESSURE_CG + "+async_bilu(build_sweeps=1,apply_sweeps=3)"},
}
COMP_GPU = {
    "gpu async_bilu(1,3)": {"flow": FLOW + "+async_bilu(build_sweeps=1,apply_sweeps=3)"},
    "gpu multicolor": {"flow": FLOW + "+multicolor"},
}
IB_GPU = {
    "gpu bicgstab_dia": {"pressure": "bicgstab_dia(rtol=1e-8,maxit=3000,relative_to=b,%s)" % CUDA,
                         "advection_diffusion": "bicgstab_dia(rtol=1e-8,maxit=500,relative_to=b,%s)" % CUDA},
    "gpu fgbilu cl": {"pressure": "bicgstab(rtol=1e-8,maxit=3000,relative_to=b,%s)+fgbilu(variant=cl)" % CUDA,
                      "advection_diffusion": "bicgstab_dia(rtol=1e-8,maxit=500,relative_to=b,%s)" % CUDA},
}
# (label, program, arguments, {setting: {system: spec}})
CASES = [
    ("tb-incomp default", "tb-incomp", [], INCOMP_GPU),
    ("tb-incomp cavity3d_re1000 (20 steps)", "tb-incomp",
     ["inputs/incompressible/cavity3d_re1000.toml", "--steps", "20"], INCOMP_GPU),
    ("tb-comp2d default", "tb-comp2d", [], COMP_GPU),
    # In seed 001's ordering for its asynchronous ILU (Table 3): the case file orders by RCM.
    ("tb-comp2d naca0012_laminar", "tb-comp2d", ["inputs/compressible/naca0012_laminar.toml", "--set",
                                                 "mesh.ordering=line-1wd"], COMP_GPU),
    ("tb-ib default", "tb-ib", [], IB_GPU),
]
QUICK_STEPS = "3"


def run_once(binary, args, specs, out_dir):
    cmd = [binary] + args + ["--out", out_dir, "--set", "run.progress=false"]
    for system, spec in specs.items():
        cmd += ["--set", "solver.%s=%s" % (system, spec)]
    shutil.rmtree(out_dir, ignore_errors=True)  # a refused run must not leave the last run's summary
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True)
    rec = {"exit": p.returncode, "wall_s": time.perf_counter() - t0}
    try:
        s = json.load(open(os.path.join(out_dir, "summary.json")))
    except (OSError, ValueError):
        rec["stderr_tail"] = p.stderr[-600:]
        return rec
    totals = {k.split("/", 1)[1]: v for k, v in s.get("totals", {}).items() if k.startswith("driver/")}
    rec.update({"loop_s": s.get("wall_seconds"), "steps": s.get("steps"), "converged": s.get("converged"),
                "linear_s": sum(t.get("setup_seconds", 0.0) + t.get("solve_seconds", 0.0) for t in totals.values()),
                "totals": totals, "time_split": s.get("time_split", {}),
                "figures_of_merit": s.get("figures_of_merit", {})})
    return rec


def median(runs, key):
    vals = [r[key] for r in runs if r.get(key) is not None]
    return statistics.median(vals) if vals else None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default="build/bin")
    ap.add_argument("--reps", type=int, default=2, help="alternated repetitions (default 2)")
    ap.add_argument("--cases", help="comma-separated substrings of case labels (default: all)")
    ap.add_argument("--quick", action="store_true", help=QUICK_STEPS + " steps a case, one repetition")
    ap.add_argument("--json")
    ap.add_argument("--commit", help="the commit of the tree measured (default: git rev-parse HEAD)")
    o = ap.parse_args()
    cases = [c for c in CASES if not o.cases or any(s in c[0] for s in o.cases.split(","))]
    if not cases:
        sys.exit("gpu_loops.py: --cases matches no case; cases: " + "; ".join(c[0] for c in CASES))
    for _, program, _, _ in cases:
        if not os.access(os.path.join(o.bin, program), os.X_OK):
            sys.exit("gpu_loops.py: %s is not an executable; build first or give --bin" % os.path.join(o.bin, program))
    reps = 1 if o.quick else o.reps
    load_before = os.getloadavg()[0]
    results = []
    with tempfile.TemporaryDirectory(prefix="tb-gpu-loops-") as work:
        for label, program, args, gpu in cases:
            if o.quick:
                args = [a for i, a in enumerate(args) if a != "--steps" and (i == 0 or args[i - 1] != "--steps")]
                args = args + ["--steps", QUICK_STEPS]
            settings = {"host default": {}}
            settings.update(gpu)
            runs = {k: [] for k in settings}
            for rep in range(reps):
                for k, specs in settings.items():
                    rec = run_once(os.path.join(o.bin, program), args, specs, os.path.join(work, "run"))
                    runs[k].append(rec)
                    print("%-40s %-22s %8.2f s wall, linear %s s, steps %s, exit %d" % (
                        label, k, rec["wall_s"], "%.3f" % rec["linear_s"] if "linear_s" in rec else "-",
                        rec.get("steps", "-"), rec["exit"]), flush=True)
                    if "stderr_tail" in rec:
                        print("    " + rec["stderr_tail"].strip().replace("\n", "\n    "), flush=True)
            host = median(runs["host default"], "wall_s")
            summary = {k: {"median_wall_s": median(v, "wall_s"), "median_linear_s": median(v, "linear_s"),
                           "median_loop_s": median(v, "loop_s"), "steps": v[0].get("steps"), "exit": v[0]["exit"],
                           "iterations": {s: t.get("iterations") for s, t in v[0].get("totals", {}).items()},
                           "failures": {s: t.get("failures") for s, t in v[0].get("totals", {}).items()},
                           "figures_of_merit": v[0].get("figures_of_merit", {})} for k, v in runs.items()}
            for k, v in summary.items():
                v["wall_over_host"] = v["median_wall_s"] / host if host and v["median_wall_s"] else None
            results.append({"case": label, "program": program, "args": args, "settings": settings,
                            "summary": summary, "runs": runs})
    print("\n%-40s %-22s %9s %9s %7s %6s %5s" % ("case", "setting", "wall s", "linear s", "/host", "steps", "exit"))
    for r in results:
        for k, v in r["summary"].items():
            f = lambda x, fmt: fmt % x if x is not None else "-"
            print("%-40s %-22s %9s %9s %7s %6s %5d" % (r["case"], k, f(v["median_wall_s"], "%.2f"),
                                                      f(v["median_linear_s"], "%.3f"), f(v["wall_over_host"], "%.2f"),
                                                      v["steps"], v["exit"]))
    gpu_name = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"],
                              capture_output=True, text=True).stdout.strip() if shutil.which("nvidia-smi") else ""
    doc = {"benchmark": "miniapp time loops with host and GPU linear solvers, end to end",
           "machine": {"host": platform.node(), "usable_cores": len(os.sched_getaffinity(0)), "gpu": gpu_name,
                       "load_average_before": load_before, "load_average_after": os.getloadavg()[0]},
           "commit": o.commit or subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                                                text=True).stdout.strip(),
           "date_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "quick": o.quick, "reps": reps,
           "results": results}
    if o.json:
        with open(o.json, "w") as f:
            json.dump(doc, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
