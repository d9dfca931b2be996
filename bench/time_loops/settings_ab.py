#!/usr/bin/python3
"""One miniapp case under two settings, alternated run by run (A, B, A, B, ...):
a solver A/B study inside the real time loop. Per setting: the median wall
time of the process (summary.json's wall_seconds), the loop's time split, the
linear iterations and solve time of each system (summary.json's totals), the
step count and the figures of merit; and B over A for the times.

  /usr/bin/python3 bench/time_loops/settings_ab.py --program build/bin/tb-ib --reps 3 \\
      --a "solver.pressure=bicgstab_dia(rtol=1e-8,maxit=3000,relative_to=r0)" \\
      --b "solver.pressure=bicgstab_dia(rtol=1e-8,maxit=3000,relative_to=b)" \\
      [--threads 1] [--json OUT.json] [-- CASE ARGUMENTS...]

--a and --b may be repeated (one --set each); an empty setting is the default.
"""
import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile


def run_once(program, case_args, sets, threads, out):
    cmd = [program] + case_args
    for s in sets:
        cmd += ["--set", s]
    cmd += ["--out", out]
    env = dict(os.environ)
    if threads:
        env["OMP_NUM_THREADS"] = str(threads)
    proc = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if proc.returncode != 0:
        sys.exit(f"{' '.join(cmd)}: exit {proc.returncode}\n{proc.stderr[-2000:]}")
    with open(os.path.join(out, "summary.json")) as f:
        s = json.load(f)
    return {"wall_s": s["wall_seconds"], "steps": s["steps"], "time_split": s["time_split"],
            "systems": {k: {"iterations": v["iterations"], "solve_s": v["solve_seconds"], "solves": v["solves"]}
                        for k, v in s["totals"].items()},
            "figures_of_merit": s["figures_of_merit"], "load_1min": s["machine"]["load_average_1min"]}


def summarise(runs):
    med = statistics.median
    first = runs[0]
    return {"wall_s_median": med(r["wall_s"] for r in runs), "wall_s": [r["wall_s"] for r in runs],
            "linear_solve_s_median": med(r["time_split"]["linear_solve"] for r in runs),
            "physics_s_median": med(r["time_split"]["physics"] for r in runs),
            "steps": first["steps"], "systems": first["systems"], "figures_of_merit": first["figures_of_merit"]}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--program", required=True)
    ap.add_argument("--a", action="append", default=[], help="KEY=VALUE of setting A (repeatable)")
    ap.add_argument("--b", action="append", default=[], help="KEY=VALUE of setting B (repeatable)")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--threads", type=int, default=0, help="OMP_NUM_THREADS (default: the program's policy)")
    ap.add_argument("--json")
    ap.add_argument("case_args", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    case_args = [c for c in a.case_args if c != "--"]
    loadavg = lambda: open("/proc/loadavg").read().split()[:3]
    result = {"program": a.program, "case_args": case_args, "a": a.a, "b": a.b, "reps": a.reps,
              "threads": a.threads or "policy", "machine": platform.node(), "loadavg_before": loadavg()}
    runs = {"a": [], "b": []}
    with tempfile.TemporaryDirectory(prefix="tb-settings-ab-") as work:
        for rep in range(a.reps):
            for name, sets in (("a", a.a), ("b", a.b)):
                r = run_once(a.program, case_args, sets, a.threads, os.path.join(work, f"{name}{rep}"))
                runs[name].append(r)
                print(f"rep {rep + 1} {name.upper()}: {r['wall_s']:.3f} s, {r['steps']} steps, iterations "
                      + ", ".join(f"{k} {v['iterations']}" for k, v in r["systems"].items()), flush=True)
    result["loadavg_after"] = loadavg()
    result["runs"] = runs
    result["A"], result["B"] = summarise(runs["a"]), summarise(runs["b"])
    result["b_over_a"] = {k: result["B"][k] / result["A"][k]
                          for k in ("wall_s_median", "linear_solve_s_median", "physics_s_median")
                          if result["A"][k] > 0}
    print("B/A: " + ", ".join(f"{k} {v:.3f}" for k, v in result["b_over_a"].items()))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
