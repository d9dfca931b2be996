#!/usr/bin/python3
"""Strong scaling of a miniapp decomposed over ranks (docs/distributed.md).

    bench/dist/miniapp_ranks.py [--miniapp tb-comp2d|tb-incomp|tb-ib] [--ranks 1,2] [--reps 3]
        [--case FILE] [--set KEY=VALUE ...] [--weak KEY=V1,V2,...] [--mpiexec-args "ARGS"] --json OUT

tb-comp2d (the default) runs inputs/compressible/naca0012_laminar.toml to
steady state, tb-incomp its built-in cavity (give --set grid.nx=128 ...), tb-ib
its built-in sphere (D/h = 10, to steady state).
Runs the case on each rank count in turn, the counts alternated within every
repetition (a shared machine's load then falls on all of them alike), one
OpenMP thread per rank. Per run: the loop's wall time (summary.json), steps,
linear iterations of all systems, the figures of merit, each rank's peak resident
memory (/usr/bin/time), and rank 0's memory at the start of main() and its peak
in the steps before any field output (summary.json "memory"). Reports the
median over the repetitions and, against one rank, the parallel efficiency
T1 / (P TP), the memory ratio of the largest rank's peak, and that of the
memory the steps added to what the process held at start. Needs /usr/bin/time
(Debian: time) and, for more than one rank, Open MPI's mpiexec.

--mpiexec-args adds Open MPI options to every run on more than one rank, e.g.
"--bind-to core" (Open MPI binds to the package above two processes).

Weak scaling: --weak KEY=V1,V2,... gives the key one value per rank count (the
grid grown with the ranks, e.g. --ranks 1,2 --weak grid.ny=128,256); the
efficiency is then the time per step of one rank over that of P ranks.
"""
import argparse
import json
import os
import pathlib
import platform
import shlex
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]


DEFAULT_CASES = {"tb-comp2d": str(ROOT / "inputs/compressible/naca0012_laminar.toml"), "tb-incomp": None,
                 "tb-ib": None}


def solve_split(run):
    """The linear solves' seconds and, on ranks, their MPI waits over the ranks (least to largest)."""
    t, over = run.get("time_split") or {}, run.get("time_split_over_ranks")
    if "linear_solve" not in t:
        return ""
    text = f", linear solve {t['linear_solve']:.3f} s"
    if over and "linear_communication" in over:
        least, largest = over["linear_communication"]
        text += f" (MPI waits {least:.3f}-{largest:.3f} s)"
    return text


def one_run(args, ranks, out):
    command = [args.exe] + ([args.case] if args.case else []) + ["--out", str(out), "--set", "run.progress=false"]
    for kv in args.set + [f"{key}={values[ranks]}" for key, values in args.weak.items()]:
        command += ["--set", kv]
    # Each rank's peak RSS into its own file (lines on a shared stderr interleave).
    out.mkdir(parents=True)
    timed = ["sh", "-c", f'{args.time} -f %M -o "$0/rss.${{OMPI_COMM_WORLD_RANK:-0}}" "$@"', str(out)] + command
    if ranks > 1:
        timed = [args.mpiexec, "-n", str(ranks), "--oversubscribe"] + shlex.split(args.mpiexec_args) + timed
    env = dict(os.environ, OMP_NUM_THREADS="1")
    done = subprocess.run(timed, capture_output=True, text=True, env=env, timeout=3600)
    if done.returncode != 0:
        sys.exit(f"miniapp_ranks: {' '.join(timed)}: exit {done.returncode}\n{done.stderr[-2000:]}")
    rss = [int((out / f"rss.{r}").read_text().split()[-1]) / 1024.0 for r in range(ranks)]
    summary = json.loads((out / "summary.json").read_text())
    fom, mem = summary["figures_of_merit"], summary["memory"]
    totals = summary["totals"]
    return {
        "wall_seconds": summary["wall_seconds"],
        "steps": summary["steps"],
        "iterations": sum(t["iterations"] for k, t in totals.items() if k.startswith("driver/")),
        "iterations_per_system": {k[len("driver/"):]: t["iterations"] for k, t in totals.items()
                                  if k.startswith("driver/")},
        "figures_of_merit": fom,
        "time_split": summary["time_split"],
        # Decomposed runs: each entry's least and largest over the ranks (time_split is rank 0's).
        "time_split_over_ranks": summary.get("time_split_over_ranks"),
        "peak_rss_mib_per_rank": rss,
        "rank0_rss_at_start_mib": mem["rss_at_start_mib"],
        "rank0_peak_rss_in_steps_mib": mem["peak_rss_in_steps_mib"],
        "solvers": summary["solvers"],
    }


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--miniapp", choices=sorted(DEFAULT_CASES), default="tb-comp2d")
    p.add_argument("--exe", help="default: build/bin/MINIAPP")
    p.add_argument("--mpiexec", default="mpiexec")
    p.add_argument("--mpiexec-args", default="", help="options for mpiexec on more than one rank (e.g. --bind-to core)")
    p.add_argument("--case", help="default: the NACA0012 case for tb-comp2d, the built-in cases of the others")
    p.add_argument("--set", action="append", default=[])
    p.add_argument("--weak", action="append", default=[], metavar="KEY=V1,V2,...",
                   help="weak scaling: one value of KEY per rank count")
    p.add_argument("--time", default="/usr/bin/time", help="GNU time (Debian: time), for each rank's peak memory")
    p.add_argument("--ranks", default="1,2")
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--json", required=True)
    args = p.parse_args()
    args.exe = args.exe or str(ROOT / "build/bin" / args.miniapp)
    args.case = args.case or DEFAULT_CASES[args.miniapp]
    if not os.access(args.time, os.X_OK):
        sys.exit(f"miniapp_ranks: {args.time} not found (apt-get install time): it measures each rank's memory")
    counts = [int(r) for r in args.ranks.split(",")]
    weak = {}
    for item in args.weak:
        key, _, values = item.partition("=")
        values = values.split(",")
        if not key or len(values) != len(counts):
            sys.exit(f"miniapp_ranks: --weak {item}: give KEY= and one value per rank count ({args.ranks})")
        weak[key] = dict(zip(counts, values))
    args.weak = weak
    load_at_start = os.getloadavg()[0]
    runs = {r: [] for r in counts}
    with tempfile.TemporaryDirectory() as tmp:
        for rep in range(args.reps):
            for r in counts if rep % 2 == 0 else reversed(counts):
                runs[r].append(one_run(args, r, pathlib.Path(tmp) / f"r{r}_{rep}"))
                last = runs[r][-1]
                print(f"rep {rep + 1}, {r} rank(s): {last['wall_seconds']:.2f} s, {last['steps']} steps, "
                      f"{last['iterations']} iterations, peak RSS {max(last['peak_rss_mib_per_rank']):.0f} MiB/rank"
                      f"{solve_split(last)}", flush=True)
    results = []
    for r in counts:
        rs = runs[r]
        med = {k: statistics.median(x[k] for x in rs) for k in ("wall_seconds", "steps", "iterations")}
        peak = statistics.median(max(x["peak_rss_mib_per_rank"]) for x in rs)
        added = statistics.median(x["rank0_peak_rss_in_steps_mib"] - x["rank0_rss_at_start_mib"] for x in rs)
        results.append({"ranks": r, **med, "figures_of_merit": rs[0]["figures_of_merit"], "solvers": rs[0]["solvers"],
                        "peak_rss_mib_per_rank": peak, "steps_added_rss_mib_rank0": added,
                        "at_start_rss_mib_rank0": statistics.median(x["rank0_rss_at_start_mib"] for x in rs),
                        "runs": rs})
    base = results[0]
    for res in results[1:]:
        if args.weak:  # the work grows with the ranks: time per step against one rank's
            res["parallel_efficiency"] = (base["wall_seconds"] / base["steps"]) / (res["wall_seconds"] / res["steps"])
        else:
            res["parallel_efficiency"] = base["wall_seconds"] / (res["ranks"] * res["wall_seconds"])
        res["peak_rss_ratio"] = res["peak_rss_mib_per_rank"] / base["peak_rss_mib_per_rank"]
        res["steps_added_rss_ratio"] = res["steps_added_rss_mib_rank0"] / base["steps_added_rss_mib_rank0"]
        res["iteration_ratio"] = res["iterations"] / base["iterations"]
        print(f"{res['ranks']} ranks: efficiency {res['parallel_efficiency']:.2f}, peak RSS {res['peak_rss_ratio']:.2f}x, "
              f"memory the steps added {res['steps_added_rss_ratio']:.2f}x, iterations {res['iteration_ratio']:.2f}x")
    # TB_COMMIT: a copied tree (the GPU machine's) whose git metadata is not the tree's.
    commit = os.environ.get("TB_COMMIT") or subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short=12", "HEAD"], capture_output=True, text=True).stdout.strip()
    doc = {"benchmark": "miniapp_ranks", "miniapp": args.miniapp, "command": " ".join(sys.argv), "case": args.case,
           "sets": args.set, "mpiexec_args": args.mpiexec_args, "scaling": "weak" if args.weak else "strong", "weak": args.weak,
           "machine": {"hostname": platform.node(), "logical_cpus": os.cpu_count(),
                       "load_average_1min_at_start": load_at_start, "load_average_1min_at_end": os.getloadavg()[0]},
           "git_commit": commit, "date_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
           "threads_per_rank": 1, "reps": args.reps, "results": results}
    pathlib.Path(args.json).write_text(json.dumps(doc, indent=1) + "\n")


if __name__ == "__main__":
    main()
