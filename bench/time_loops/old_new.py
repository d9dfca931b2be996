#!/usr/bin/python3
"""Two builds of the miniapps on the same cases, alternated: did a change
alter any number a user sees, and the time of a whole run?

Each case runs with the old build's program, then the new build's, --reps
times. Recorded per run: the loop's wall time (summary.json) and steps.
Compared once: steps.csv of the last old and new runs, every column but the
timings (headers ending in "_s"), row by row; equal means the same numbers
to the digits steps.csv writes.

  git worktree add /tmp/old-tree REV && (cd /tmp/old-tree && cmake --preset ci &&
      cmake --build build -j2 --target tb-incomp tb-comp2d tb-ib)
  /usr/bin/python3 bench/time_loops/old_new.py --old /tmp/old-tree/build/bin --new build/bin \\
      --json bench/results/host-YYYYMMDD-old-new.json
"""
import argparse
import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile

# (label, program, ranks, arguments): each miniapp's default case, the NACA0012
# case file, and two decomposed runs.
CASES = [
    ("tb-incomp default", "tb-incomp", 1, []),
    ("tb-comp2d default", "tb-comp2d", 1, []),
    ("tb-comp2d naca0012_laminar", "tb-comp2d", 1, ["inputs/compressible/naca0012_laminar.toml"]),
    ("tb-ib default (30 steps)", "tb-ib", 1, ["--steps", "30"]),
    ("tb-incomp 128^2, 2 ranks", "tb-incomp", 2, ["--set", "grid.nx=128", "--set", "grid.ny=128"]),
    ("tb-comp2d naca0012_laminar, 2 ranks", "tb-comp2d", 2, ["inputs/compressible/naca0012_laminar.toml"]),
]


def run(bin_dir, program, ranks, args, out):
    shutil.rmtree(out, ignore_errors=True)
    cmd = [os.path.join(bin_dir, program)] + args + ["--set", "run.progress=false", "--out", out]
    env = dict(os.environ)
    if ranks > 1:
        cmd = ["mpiexec", "-n", str(ranks), "--oversubscribe"] + cmd
        env.update(OMP_NUM_THREADS="1", OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    done = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if done.returncode not in (0, 1):
        sys.exit(f"old_new.py: {' '.join(cmd)} exited {done.returncode}: {done.stderr.strip()[-400:]}")
    with open(os.path.join(out, "summary.json")) as f:
        s = json.load(f)
    return {"wall_seconds": s.get("wall_seconds"), "steps": s.get("steps")}


def numbers(steps_csv):
    with open(steps_csv) as f:
        rows = list(csv.reader(f))
    keep = [i for i, h in enumerate(rows[0]) if not h.endswith("_s")]
    return [[r[i] for i in keep] for r in rows]


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--old", required=True, help="the old build's bin folder")
    p.add_argument("--new", default="build/bin", help="the new build's bin folder (default build/bin)")
    p.add_argument("--reps", type=int, default=3, help="alternated rounds (default 3)")
    p.add_argument("--cases", help="comma-separated substrings of case labels (default: all)")
    p.add_argument("--json")
    o = p.parse_args()
    for d in (o.old, o.new):
        if not os.path.isdir(d):
            sys.exit(f"old_new.py: {d}: no such folder (give the builds' bin folders)")
    cases = [c for c in CASES if not o.cases or any(s in c[0] for s in o.cases.split(","))]
    if not cases:
        sys.exit(f"old_new.py: --cases {o.cases}: matches none of: " + "; ".join(c[0] for c in CASES))
    work = tempfile.mkdtemp(prefix="old-new-")
    results = []
    for label, program, ranks, args in cases:
        times = {"old": [], "new": []}
        for rep in range(o.reps):
            for which, bin_dir in (("old", o.old), ("new", o.new)):
                r = run(bin_dir, program, ranks, args, os.path.join(work, which))
                times[which].append(r["wall_seconds"])
                print(f"{label}, round {rep + 1}, {which}: {r['wall_seconds']:.3f} s, {r['steps']} steps", flush=True)
        same = numbers(os.path.join(work, "old", "steps.csv")) == numbers(os.path.join(work, "new", "steps.csv"))
        print(f"{label}: steps.csv without timings {'equal' if same else 'DIFFERENT'}", flush=True)
        results.append({"case": label, "program": program, "ranks": ranks, "args": args,
                        "wall_seconds": times, "steps_csv_equal_without_timings": same})
    shutil.rmtree(work, ignore_errors=True)
    if o.json:
        out = {"benchmark": "bench/time_loops/old_new.py", "old": os.path.abspath(o.old),
               "new": os.path.abspath(o.new), "reps": o.reps, "load_average": os.getloadavg(),
               "results": results}
        with open(o.json, "w") as f:
            json.dump(out, f, indent=1)
        print(f"wrote {o.json}")


if __name__ == "__main__":
    main()
