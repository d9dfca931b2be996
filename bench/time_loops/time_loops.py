#!/usr/bin/python3
"""End-to-end time loops of the three miniapps, as a user runs them (bench/README.md, docs/threading.md).

Each case runs with default settings and with each explicit thread count
(OMP_NUM_THREADS=1..cores), on an idle machine and beside one competing busy
process (a single-threaded spin loop started before the run). Runs of one case
alternate between the settings (default, 1, 2, default, 1, 2, ...) because this
VM is shared and noisy. Recorded per run: wall time (the process, start-up
included), the loop's own time, steps, whether it converged, the time split of
summary.json (linear set-up, linear solve, physics, harness, output) and the
threads line the program printed. The summary gives, per case and load, the
default setting's median wall time over the best explicit setting's.

  /usr/bin/python3 bench/time_loops/time_loops.py --bin build/bin \\
      --json bench/results/host-time-loops.json
  /usr/bin/python3 bench/time_loops/time_loops.py --quick      # a smoke run (a few steps each)
"""
import argparse
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

# (label, program, arguments): the default case of each miniapp and the
# shipped cases a user runs first. Steps are capped only where a whole run
# would take many minutes on 2 cores; the cap is part of the label.
CASES = [
    ("tb-incomp default", "tb-incomp", []),
    ("tb-incomp cavity2d_re100", "tb-incomp", ["inputs/incompressible/cavity2d_re100.toml"]),
    ("tb-incomp cavity3d_re1000 (20 steps)", "tb-incomp", ["inputs/incompressible/cavity3d_re1000.toml", "--steps", "20"]),
    ("tb-comp2d default", "tb-comp2d", []),
    ("tb-comp2d naca0012_laminar", "tb-comp2d", ["inputs/compressible/naca0012_laminar.toml"]),
    ("tb-ib default", "tb-ib", []),
]
QUICK_STEPS = "3"


def run_once(binary, args, env_threads, out_dir):
    env = dict(os.environ)
    env.pop("OMP_NUM_THREADS", None)
    if env_threads:
        env["OMP_NUM_THREADS"] = str(env_threads)
    t0 = time.perf_counter()
    p = subprocess.run([binary] + args + ["--out", out_dir, "--set", "run.progress=false"], env=env,
                       capture_output=True, text=True)
    wall = time.perf_counter() - t0
    threads = re.search(r"threads: (.*)", p.stdout)
    rec = {"exit": p.returncode, "wall_s": wall, "threads": threads.group(1) if threads else ""}
    try:
        s = json.load(open(os.path.join(out_dir, "summary.json")))
        rec.update({"loop_s": s["wall_seconds"], "steps": s["steps"], "converged": s.get("converged"),
                    "steady": s["steady_state_reached"], "time_split": s.get("time_split", {}),
                    "figures_of_merit": s.get("figures_of_merit", {})})
    except (OSError, ValueError, KeyError):
        rec["stderr_tail"] = p.stderr[-400:]
    return rec


def shares(split):
    steps = split.get("steps", 0.0)
    if steps <= 0:
        return {}
    keys = ("linear_setup", "linear_solve", "shadow_solvers", "physics", "harness")
    return {k: split.get(k, 0.0) / steps for k in keys}


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bin", default="build/bin")
    p.add_argument("--reps", type=int, default=2, help="alternated repetitions of each setting (default 2)")
    p.add_argument("--cases", help="comma-separated substrings of case labels to run (default: all)")
    p.add_argument("--loads", default="idle,busy", help="idle, busy or both (default idle,busy)")
    p.add_argument("--quick", action="store_true", help=f"{QUICK_STEPS} steps a case, one repetition: a smoke run")
    p.add_argument("--json")
    o = p.parse_args()
    loads = o.loads.split(",")
    if o.reps < 1 or any(l not in ("idle", "busy") for l in loads):
        sys.exit("time_loops.py: --reps >= 1; --loads takes idle, busy or idle,busy")
    cores = len(os.sched_getaffinity(0))
    settings = [None] + list(range(1, cores + 1))  # None: the program's defaults
    cases = [c for c in CASES if not o.cases or any(s in c[0] for s in o.cases.split(","))]
    if not cases:
        sys.exit("time_loops.py: --cases matches no case; cases: " + "; ".join(c[0] for c in CASES))
    for _, program, _ in cases:
        if not os.access(os.path.join(o.bin, program), os.X_OK):
            sys.exit(f"time_loops.py: {os.path.join(o.bin, program)} is not an executable; build first or give --bin")
    reps = 1 if o.quick else o.reps
    results = []
    tmp = tempfile.mkdtemp(prefix="tb-time-loops-")
    try:
        for load in loads:
            busy = subprocess.Popen([sys.executable, "-c", "while True: pass"]) if load == "busy" else None
            try:
                if busy:
                    time.sleep(1.0)  # let the spinner be seen as runnable
                for label, program, args in cases:
                    if o.quick:  # drop the case's own --steps N, then take QUICK_STEPS
                        args = [a for i, a in enumerate(args) if a != "--steps" and (i == 0 or args[i - 1] != "--steps")]
                        args = args + ["--steps", QUICK_STEPS]
                    runs = {str(s or "default"): [] for s in settings}
                    for _ in range(reps):
                        for s in settings:
                            rec = run_once(os.path.join(o.bin, program), args, s, os.path.join(tmp, "run"))
                            runs[str(s or "default")].append(rec)
                            print(f"[{load}] {label:40s} threads={str(s or 'default'):8s} {rec['wall_s']:8.2f} s "
                                  f"exit {rec['exit']}  {rec.get('threads', '')}", flush=True)
                    med = {k: statistics.median(r["wall_s"] for r in v) for k, v in runs.items()}
                    best_key = min((k for k in med if k != "default"), key=lambda k: med[k])
                    first = runs["default"][0]
                    results.append({"case": label, "load": load, "runs": runs, "median_wall_s": med,
                                    "best_explicit": best_key,
                                    "default_over_best": med["default"] / med[best_key],
                                    "default_shares": shares(first.get("time_split", {}))})
            finally:
                if busy:
                    busy.kill()
                    busy.wait()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("\ncase                                      load  default s  best (threads)   default/best  harness share")
    for r in results:
        b = r["best_explicit"]
        print(f"{r['case']:40s} {r['load']:5s} {r['median_wall_s']['default']:9.2f}  {r['median_wall_s'][b]:7.2f} ({b:>2s})"
              f"  {r['default_over_best']:12.2f}  {100 * r['default_shares'].get('harness', 0):11.2f} %")
    doc = {"benchmark": "miniapp time loops end to end, default settings against explicit thread counts",
           "machine": {"host": platform.node(), "cpu": open("/proc/cpuinfo").read().split("model name")[1].split("\n")[0]
                       .strip(": ") if os.path.exists("/proc/cpuinfo") else platform.machine(),
                       "usable_cores": cores, "load_average_at_end": os.getloadavg()[0]},
           "busy_load": "one single-threaded python spin loop started 1 s before the runs",
           "commit": subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip(),
           "date_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "quick": o.quick, "reps": reps,
           "results": results}
    if o.json:
        with open(o.json, "w") as f:
            json.dump(doc, f, indent=1)
    # --quick stops steady cases early: tb-comp2d then exits 1 "not converged".
    ok = lambda rr: rr["exit"] == 0 or (o.quick and rr["exit"] == 1 and rr.get("converged") is False and
                                          "stderr_tail" not in rr)
    return 0 if all(ok(rr) for r in results for v in r["runs"].values() for rr in v) else 1


if __name__ == "__main__":
    sys.exit(main())
