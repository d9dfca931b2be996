#!/usr/bin/python3
"""The miniapps' cases run by two builds, alternated run by run (A, B, A, B, ...),
for a change that should move time or memory and nothing else: per case and
build the median wall time of the process, the loop's time split (linear
set-up, linear solve, physics), the peak resident memory (summary.json's
memory.peak_rss_mib), the figures of merit and steps.csv without its timing
columns (headers ending in "_s"), which must agree between the builds. The
"2 ranks" cases run under mpiexec -n 2, one thread a rank. Cases whose mesh
scripts/make-meshes.sh has not made are left out.

  /usr/bin/python3 bench/time_loops/builds_ab.py --a DIR_A --b DIR_B --reps 3 \\
      --json OUT.json [--cases NAME,...] [--threads N]

DIR_A and DIR_B hold the binaries (tb-incomp, tb-comp2d, tb-ib) of the two builds.
"""
import argparse
import csv
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MEDIUM = "inputs/meshes/generated/naca0012_medium.su2"
MESH_13K = "inputs/meshes/generated/naca0012_13k.msh"
GENERATED = (MEDIUM, MESH_13K)
# (name, program, arguments); a name ending in "2 ranks" runs under mpiexec -n 2.
CASES = [
    ("tb-incomp default", "tb-incomp", []),
    ("tb-incomp cavity 128x128", "tb-incomp", ["--set", "grid.nx=128", "--set", "grid.ny=128"]),
    ("tb-comp2d default", "tb-comp2d", []),
    ("tb-comp2d naca0012_laminar", "tb-comp2d", ["inputs/compressible/naca0012_laminar.toml"]),
    ("tb-comp2d naca0012_laminar medium", "tb-comp2d",
     ["inputs/compressible/naca0012_laminar.toml", "--set", "mesh.file=" + MEDIUM]),
    ("tb-comp2d naca0012_laminar 13k", "tb-comp2d",
     ["inputs/compressible/naca0012_laminar.toml", "--set", "mesh.file=" + MESH_13K]),
    ("tb-ib default", "tb-ib", []),
    ("tb-incomp cavity 128x128, 2 ranks", "tb-incomp", ["--set", "grid.nx=128", "--set", "grid.ny=128"]),
    ("tb-comp2d naca0012_laminar, 2 ranks", "tb-comp2d", ["inputs/compressible/naca0012_laminar.toml"]),
]


def steps_numbers(out):
    """steps.csv without its timing and transfer columns: what a change of speed alone must leave as it was."""
    with open(os.path.join(out, "steps.csv")) as f:
        rows = list(csv.reader(f))
    keep = [i for i, h in enumerate(rows[0]) if not h.endswith(("_s", "_bytes"))]
    return [[r[i] for i in keep] for r in rows]


def run_once(binary, args, env, out, ranks):
    command = [binary] + args + ["--out", out]
    if ranks > 1:
        command = ["mpiexec", "-n", str(ranks), "--oversubscribe"] + command
        env = dict(env, OMP_NUM_THREADS="1", OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    start = time.perf_counter()
    proc = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - start
    summary = json.load(open(os.path.join(out, "summary.json")))
    split = summary["time_split"]
    return {"exit_status": proc.returncode, "wall_s": wall, "steps": summary["steps"],
            "linear_setup_s": split["linear_setup"], "linear_solve_s": split["linear_solve"],
            "physics_s": split["physics"], "peak_rss_mib": summary.get("memory", {}).get("peak_rss_mib"),
            "figures_of_merit": summary.get("figures_of_merit", {}), "steps_csv": steps_numbers(out)}


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--a", required=True, help="directory of build A's binaries")
    p.add_argument("--b", required=True, help="directory of build B's binaries")
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--json", required=True)
    p.add_argument("--cases", default="", help="comma-separated case names (default: all)")
    p.add_argument("--threads", default="", help="OMP_NUM_THREADS for every run (default: the programs' own)")
    o = p.parse_args()
    wanted = [c for c in o.cases.split(",") if c]
    env = dict(os.environ)
    if o.threads:
        env["OMP_NUM_THREADS"] = o.threads
    cases = [c for c in CASES if not wanted or c[0] in wanted]
    cases = [c for c in cases if all(m not in " ".join(c[2]) or os.path.exists(os.path.join(ROOT, m)) for m in GENERATED)]
    result = {"machine": platform.processor() or platform.machine(), "node": platform.node(),
              "loadavg_before": os.getloadavg(), "threads": o.threads or "(the programs' own)",
              "a": os.path.abspath(o.a), "b": os.path.abspath(o.b), "reps": o.reps, "cases": {}}
    with tempfile.TemporaryDirectory() as work:
        for name, program, args in cases:
            runs = {"a": [], "b": []}
            for rep in range(o.reps):
                for build in ("a", "b"):
                    out = os.path.join(work, "%s-%d" % (build, rep))
                    ranks = 2 if name.endswith("2 ranks") else 1
                    runs[build].append(run_once(os.path.join(getattr(o, build), program), args, env, out, ranks))
            med = {b: {k: statistics.median(r[k] for r in runs[b]) for k in
                       ("wall_s", "linear_setup_s", "linear_solve_s", "physics_s", "peak_rss_mib", "steps")}
                   for b in runs}
            same = runs["a"][0]["figures_of_merit"] == runs["b"][0]["figures_of_merit"]
            same_steps = runs["a"][0]["steps_csv"] == runs["b"][0]["steps_csv"]
            for r in runs["a"] + runs["b"]:
                del r["steps_csv"]
            result["cases"][name] = {"runs": runs, "median": med, "b_over_a_wall": med["b"]["wall_s"] / med["a"]["wall_s"],
                                     "b_over_a_linear_solve": med["b"]["linear_solve_s"] / med["a"]["linear_solve_s"],
                                     "b_over_a_peak_rss": med["b"]["peak_rss_mib"] / med["a"]["peak_rss_mib"],
                                     "same_figures_of_merit": same, "same_steps_csv_without_timings": same_steps}
            print("%-36s wall A %.3f s, B %.3f s (B/A %.3f; %d steps, per step A %.1f ms, B %.1f ms); linear solve A "
                  "%.3f s, B %.3f s; peak RSS A %.1f MiB, B %.1f MiB; same results: %s, same steps.csv: %s" %
                  (name, med["a"]["wall_s"], med["b"]["wall_s"], med["b"]["wall_s"] / med["a"]["wall_s"],
                   med["b"]["steps"], 1e3 * med["a"]["wall_s"] / med["a"]["steps"],
                   1e3 * med["b"]["wall_s"] / med["b"]["steps"], med["a"]["linear_solve_s"],
                   med["b"]["linear_solve_s"], med["a"]["peak_rss_mib"], med["b"]["peak_rss_mib"], same, same_steps),
                  flush=True)
    result["loadavg_after"] = os.getloadavg()
    with open(o.json, "w") as f:
        json.dump(result, f, indent=1)


if __name__ == "__main__":
    sys.exit(main())
