#!/usr/bin/python3
"""The programs' malloc policy against another, alternated run by run: each case
runs as the program sets itself up (GLIBC_TUNABLES, docs/threading.md) and
with the user's GLIBC_TUNABLES=OTHER (--other; default glibc.malloc.hugetlb=0:
no huge pages), which the program leaves alone. Per case and setting: the median wall time of
the process and the median linear time (set-up, solves and autopilot probes).

  /usr/bin/python3 bench/time_loops/thp_ab.py [--threads N] [--reps 3] [--other TUNABLES] [--json OUT]

Needs build/bin and scripts/make-meshes.sh medium (the 13k and medium NACA0012 meshes).
"""
import argparse
import json
import os
import statistics
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NACA = "inputs/compressible/naca0012_laminar.toml"
F = "fgmres(restart=30,rtol=1e-1,maxit=60)"
B = "bicgstab(rtol=1e-8,maxit=3000)"
CASES = [
    ("comp2d naca coarse", ["tb-comp2d", NACA]),
    ("comp2d naca 13k", ["tb-comp2d", NACA, "--set", "mesh.file=inputs/meshes/generated/naca0012_13k.msh"]),
    ("comp2d naca medium", ["tb-comp2d", NACA, "--set", "mesh.file=inputs/meshes/generated/naca0012_medium.su2"]),
    ("comp2d default cylinder", ["tb-comp2d"]),
    ("incomp default", ["tb-incomp"]),
    ("ib default 30 steps", ["tb-ib", "--steps", "30"]),
    ("comp2d naca autopilot", ["tb-comp2d", NACA, "--steps", "100", "--set",
                               f"solver.flow=autopilot(candidates=[{F}+bilu0; {F}+block_jacobi; {F}+multicolor], "
                               "every=20, start=3)"]),
    ("ib 30 autopilot", ["tb-ib", "--steps", "30", "--set",
                         f"solver.pressure=autopilot(candidates=[bicgstab_dia(rtol=1e-8,maxit=3000); {B}+bilu0; "
                         f"{B}+jacobi], every=15, start=3)"]),
]


def run(cmd, arm, threads, out, other):
    env = dict(os.environ)
    env.pop("GLIBC_TUNABLES", None)
    if arm == "nothp":
        env["GLIBC_TUNABLES"] = other
    if threads:
        env["OMP_NUM_THREADS"] = threads
    t0 = time.perf_counter()
    p = subprocess.run([os.path.join(ROOT, "build/bin", cmd[0])] + cmd[1:] +
                       ["--set", "run.progress=false", "--out", out], cwd=ROOT, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    s = json.load(open(os.path.join(out, "summary.json")))
    linear = sum(v.get("setup_seconds", 0) + v.get("solve_seconds", 0)
                 for k, v in s["totals"].items() if k.startswith("driver/"))
    linear += sum(a["probe_seconds"] for a in s.get("autopilot", {}).values())
    return {"process_wall_s": wall, "run_wall_s": s["wall_seconds"], "linear_s": linear, "steps": s["steps"],
            "exit": p.returncode}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--threads", help="OMP_NUM_THREADS (default: the program's policy)")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--other", default="glibc.malloc.hugetlb=0", help="the second arm's GLIBC_TUNABLES")
    ap.add_argument("--cases", help="only the cases whose name contains this text")
    ap.add_argument("--json")
    a = ap.parse_args()
    load0 = open("/proc/loadavg").read().split()[:3]
    res = {}
    with tempfile.TemporaryDirectory(prefix="tb-thp-ab-") as work:
        for name, cmd in [c for c in CASES if not a.cases or a.cases in c[0]]:
            for rep in range(a.reps):
                for arm in ("thp", "nothp"):
                    out = os.path.join(work, f"{len(res)}-{rep}-{arm}")
                    res.setdefault(name, {}).setdefault(arm, []).append(run(cmd, arm, a.threads, out, a.other))
            arms = res[name]
            m = {k: (statistics.median(x["process_wall_s"] for x in v), statistics.median(x["linear_s"] for x in v))
                 for k, v in arms.items()}
            print("%-26s program's: wall %.3f s, linear %.3f s | other: wall %.3f s, linear %.3f s | other / program's: "
                  "%.2f, %.2f (%d steps)" % (name, *m["thp"], *m["nothp"], m["nothp"][0] / m["thp"][0],
                                             m["nothp"][1] / m["thp"][1], arms["thp"][0]["steps"]), flush=True)
    if a.json:
        json.dump({"threads": a.threads or "(the program's policy)", "reps": a.reps, "other": a.other,
                   "arms": {"thp": "the program's GLIBC_TUNABLES", "nothp": "GLIBC_TUNABLES=" + a.other}, "loadavg_before": load0,
                   "loadavg_after": open("/proc/loadavg").read().split()[:3], "results": res},
                  open(a.json, "w"), indent=1)


if __name__ == "__main__":
    main()
