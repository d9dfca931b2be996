#!/usr/bin/python3
"""tb-incomp and tb-ib with their step resident on the device (--backend cuda:
fields, matrices and solves on the GPU, docs/systems.md "One switch to the
GPU") against the host defaults on every core, alternated (host, cuda, host,
cuda), with each run's step breakdown from summary.json: the time per step,
its split (assembly, linear set-up and solve, physics, transfers), the bytes
that crossed per step, the figures of merit; per case the ratios the resident
step is judged by (docs/systems.md): host step / device step, the solves'
share of the device step, the transfers' share; and the same over the steps
after the first (steps.csv), which leave out the one-time set-up.

  bench/time_loops/gpu_resident.py --bin build/bin --json OUT.json [--cases incomp-64,...]
                                   [--reps 2] [--backends host,cuda] [--quick]

Cases: incomp-64 and incomp-128 (the 3D cavity at Re 1000 on 64^3 and 128^3
cells, 5 steps), ib-default and ib-fine (the sphere at Re 100, its two case
files, 10 steps). The host defaults are the project's best host settings
(CG + multigrid on tb-incomp's pressure, BiCGStab + BiLU(0) on tb-ib's systems:
docs/incompressible.md, docs/immersed.md). --quick: tb-incomp on 16^3 and tb-ib's
default, 2 steps each, one repetition (ctest's smoke test, --backends host).
Exits 1 when a run fails.
"""
import argparse
import csv
import datetime
import json
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def cube(n):
    return ["grid.nx=%d" % n, "grid.ny=%d" % n, "grid.nz=%d" % n]


# name -> (program, case file, --set values, steps)
CASES = {
    "incomp-64": ("tb-incomp", "inputs/incompressible/cavity3d_re1000.toml", cube(64), 5),
    "incomp-128": ("tb-incomp", "inputs/incompressible/cavity3d_re1000.toml", cube(128), 5),
    "ib-default": ("tb-ib", "inputs/immersed/sphere_re100.toml", [], 10),
    "ib-fine": ("tb-ib", "inputs/immersed/sphere_re100_fine.toml", [], 10),
}
QUICK = {
    "incomp-16": ("tb-incomp", "inputs/incompressible/cavity3d_re1000.toml", cube(16), 2),
    "ib-default": ("tb-ib", "inputs/immersed/sphere_re100.toml", [], 2),
}
# Settings beyond the two backends: (program, backend, extra --set values).
# cuda-jacobi: tb-incomp's GPU defaults with CG + block Jacobi on the device for
# the pressure instead of CG + multigrid (the GPU default before multigrid).
SETTINGS = {
    "cuda-jacobi": ("tb-incomp", "cuda",
                    ["solver.pressure=cg(rtol=1e-9,maxit=2000,relative_to=b,stagnation=0,backend=cuda)+block_jacobi"]),
}
SPLIT = ("assembly", "linear_setup", "linear_solve", "physics", "host_to_device", "device_to_host", "output",
         "harness")


def run(bin_dir, case, setting, work, tag):
    program, toml, sets, steps = case
    backend, extra = setting, []
    if setting in SETTINGS:
        _, backend, extra = SETTINGS[setting]
    out = os.path.join(work, tag)
    cmd = [os.path.join(bin_dir, program), toml, "--steps", str(steps), "--backend", backend, "--out", out]
    for s in sets + extra + ["run.output_every=0", "run.progress=false"]:
        cmd += ["--set", s]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    r = {"command": " ".join(cmd[1:]), "exit_status": proc.returncode}
    try:
        summary = json.load(open(os.path.join(out, "summary.json")))
    except OSError:
        r["stderr_tail"] = proc.stderr.strip().splitlines()[-3:]
        return r
    n = max(int(summary["steps"]), 1)
    split = summary["time_split"]
    moved = summary["transfers"]
    # The first step sets every system up (patterns, solvers, the first copies of the
    # state); the steps after it are what a long run repeats: steps.csv's rows 2..n.
    later = list(csv.DictReader(open(os.path.join(out, "steps.csv"))))[1:]
    if later:
        r["later_steps"] = {
            "median_seconds": statistics.median(float(x["step_s"]) for x in later),
            "max_bytes": max(float(x["h2d_bytes"]) + float(x["d2h_bytes"]) for x in later),
            "median_transfer_seconds": statistics.median(float(x["h2d_s"]) + float(x["d2h_s"]) for x in later),
            "median_launches": statistics.median(int(x.get("launches") or 0) for x in later),
        }
    r |= {
        "steps": summary["steps"],
        "seconds_per_step": split["steps"] / n,
        "split_per_step": {k: split.get(k, 0.0) / n for k in SPLIT},
        "bytes_per_step": (moved["host_to_device"]["bytes"] + moved["device_to_host"]["bytes"]) / n,
        "solvers": summary["solvers"],
        "totals": summary["totals"],
        "figures_of_merit": summary["figures_of_merit"],
        "machine": summary["machine"],
    }
    return r


def ratios(runs):
    """The resident step's figures against the host's, from the medians of the alternated runs."""
    med = {b: statistics.median(r["seconds_per_step"] for r in rs) for b, rs in runs.items() if rs}
    out = {"median_seconds_per_step": med}
    if "host" in med and "cuda" in med:
        out["speedup"] = med["host"] / med["cuda"]
        g = runs["cuda"][0]["split_per_step"]
        step = runs["cuda"][0]["seconds_per_step"]
        out["cuda_solves_share"] = (g["linear_setup"] + g["linear_solve"]) / step
        out["cuda_transfers_share"] = (g["host_to_device"] + g["device_to_host"]) / step
        out["cuda_bytes_per_step"] = max(r["bytes_per_step"] for r in runs["cuda"])
        host_fom, cuda_fom = runs["host"][0]["figures_of_merit"], runs["cuda"][0]["figures_of_merit"]
        later = {b: [r["later_steps"]["median_seconds"] for r in rs if "later_steps" in r] for b, rs in runs.items()}
        if later.get("host") and later.get("cuda"):
            out["later_steps_speedup"] = statistics.median(later["host"]) / statistics.median(later["cuda"])
            out["cuda_later_steps_max_bytes"] = max(r["later_steps"]["max_bytes"] for r in runs["cuda"])
        out["figures_of_merit_difference"] = {
            k: abs(cuda_fom[k] - v) for k, v in host_fom.items()
            if isinstance(v, (int, float)) and isinstance(cuda_fom.get(k), (int, float))}
    return out


def write(a, backends, machine, results):
    out = {
        "about": {
            "what": "tb-incomp and tb-ib, host defaults on every core against --backend cuda (the resident step), "
                    "alternated, with the step breakdown",
            "command": "scripts/device-bench.sh build resident resident-ib",
            "machine": "gpu" if "cuda" in backends else "host",
            "device": machine.get("gpu") or machine.get("cpu_model"),
            "commit": a.commit or machine.get("git_commit", ""),
            "date": datetime.date.today().isoformat(),
        },
        "cases": results,
    }
    with open(a.json, "w") as f:
        json.dump(out, f, indent=1)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", required=True)
    ap.add_argument("--json", required=True)
    ap.add_argument("--cases", default=",".join(CASES))
    ap.add_argument("--reps", type=int, default=2)
    ap.add_argument("--backends", default="host,cuda",
                    help="settings, alternated: host, cuda, " + ", ".join(SETTINGS) + " (where the program fits)")
    ap.add_argument("--commit", default="")
    ap.add_argument("--quick", action="store_true")
    a = ap.parse_args()
    table = QUICK if a.quick else CASES
    names = list(table) if a.quick else a.cases.split(",")
    unknown = [n for n in names if n not in table]
    if unknown:
        sys.exit(f"gpu_resident: unknown case(s) {', '.join(unknown)}; known: {', '.join(table)}")
    backends = a.backends.split(",")
    reps = 1 if a.quick else a.reps
    bin_dir = os.path.abspath(a.bin)
    results, failed, machine = {}, [], {}
    with tempfile.TemporaryDirectory() as work:
        for name in names:
            fits = [b for b in backends if b not in SETTINGS or SETTINGS[b][0] == table[name][0]]
            runs = {b: [] for b in fits}
            for rep in range(reps):
                for b in fits:
                    r = run(bin_dir, table[name], b, work, f"{name}-{b}-{rep}")
                    runs[b].append(r)
                    machine = r.get("machine", machine)
                    if r["exit_status"] != 0 or "steps" not in r:
                        failed.append(f"{name} {b} rep {rep + 1} (exit {r['exit_status']})")
                        print(f"{name} {b} rep {rep + 1}: exit {r['exit_status']}", flush=True)
                        continue
                    print(f"{name} {b} rep {rep + 1}: {1e3 * r['seconds_per_step']:.1f} ms a step, "
                          f"{r['bytes_per_step']:.0f} B a step; after the first: "
                          f"{1e3 * r.get('later_steps', {}).get('median_seconds', float('nan')):.1f} ms, "
                          f"{r.get('later_steps', {}).get('max_bytes', float('nan')):.0f} B", flush=True)
            ok = {b: [r for r in rs if "steps" in r] for b, rs in runs.items()}
            results[name] = {"runs": runs} | ratios(ok)
            if "speedup" in results[name]:
                print(f"{name}: the resident step {results[name]['speedup']:.1f}x the host's "
                      f"({results[name].get('later_steps_speedup', float('nan')):.1f}x over the steps after the first)",
                      flush=True)
            write(a, backends, machine, results)  # after every case: a run cut short keeps what finished
    if failed:
        sys.exit("gpu_resident: failed runs: " + ", ".join(failed))


if __name__ == "__main__":
    main()
