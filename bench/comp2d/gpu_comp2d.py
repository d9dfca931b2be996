#!/usr/bin/env python3
"""tb-comp2d on the host's cores against --backend cuda (the pseudo-time loop
resident on the device, docs/compressible.md), alternated, per mesh: the whole
run's time, pseudo-steps, Cd and Cl, the step's time split and the bytes that
cross between host and device per pseudo-step (over the whole run, and over the
steps between the first, which uploads the mesh, and the last, which writes the
fields: the traffic outside output); the ratios host / device.

  bench/comp2d/gpu_comp2d.py --bin build/bin --json OUT.json [--meshes DIR] [--reps 2]
                             [--backends host,cuda] [--quick]

The host runs take the case's defaults on every core, which are the project's
best host setting for tb-comp2d (BILU(0) in the matrix-free form's inner solves:
miniapps/compressible/comp_case.hpp). The cases: the inviscid cylinder on the
layered mesh (its case file) and the laminar NACA0012 on the coarse mesh (its
case file), medium and fine (scripts/make-meshes.sh medium fine, read from
--meshes; a missing one is skipped and named). --quick: the two shipped cases, one
repetition (ctest's smoke test, --backends host). Exits 1 when a run failed or did
not converge.
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

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bench_comp2d  # noqa: E402

ROOT = bench_comp2d.ROOT


def cases(meshes, quick):
    out = [("cylinder_layered", "inputs/compressible/cylinder_inviscid.toml", []),
           ("naca0012_wake", "inputs/compressible/naca0012_laminar.toml", [])]  # the case file's mesh
    missing = []
    if not quick:
        for level in ("medium", "fine"):
            path = os.path.join(meshes, f"naca0012_{level}.su2")
            if os.path.exists(path):
                out.append((f"naca0012_{level}", "inputs/compressible/naca0012_laminar.toml",
                            ["mesh.file=" + os.path.abspath(path)]))
            else:
                missing.append(path)
    return out, missing


def step_bytes(steps_csv):
    """What crossed each pseudo-step, both ways (steps.csv's h2d_bytes + d2h_bytes), over the steps
    between the first (which lays the mesh and the pattern out) and the last (which writes the
    fields): the issue's traffic outside output. Their mean and the largest, the steps counted, and
    the device launches of those steps (steps.csv's launches): their mean and the largest."""
    rows = list(csv.DictReader(open(steps_csv)))[1:-1]
    moved = [int(r["h2d_bytes"] or 0) + int(r["d2h_bytes"] or 0) for r in rows]
    launches = [int(r.get("launches") or 0) for r in rows]
    return {"steps": len(moved), "mean": statistics.mean(moved) if moved else 0.0,
            "largest": max(moved, default=0),
            "launches_mean": statistics.mean(launches) if launches else 0.0,
            "launches_largest": max(launches, default=0)}


def one_run(exe, name, toml, sets, backend, work):
    sets = sets + ["run.output_every=0", "run.progress=false", "run.backend=" + backend]
    try:
        r = bench_comp2d.run(exe, f"{name}-{backend}", toml, sets, work)
    except (OSError, KeyError, ValueError) as e:  # no summary.json: the run was refused or crashed
        return {"exit_status": None, "converged": False, "error": f"{type(e).__name__}: {e}"}
    summary = json.load(open(os.path.join(work, f"{name}-{backend}", "summary.json")))
    moved = summary["transfers"]
    r["time_split"] = summary["time_split"]
    r["bytes_per_step"] = (moved["host_to_device"]["bytes"] + moved["device_to_host"]["bytes"]) / max(
        r["pseudo_steps"], 1)
    r["step_bytes"] = step_bytes(os.path.join(work, f"{name}-{backend}", "steps.csv"))
    r["solver"] = summary["solvers"].get("flow", "")
    return r


def write(a, backends, missing, results):
    machine = next((x["machine"] for e in results.values() for rs in e["runs"].values() for x in rs
                    if "machine" in x), {})
    out = {
        "about": {
            "what": "tb-comp2d's whole run, host defaults on every core against --backend cuda (the resident "
                    "pseudo-time loop), alternated",
            "command": "scripts/device-bench.sh build resident-comp2d",
            "machine": "gpu" if "cuda" in backends else "host",
            "device": machine.get("gpu") or machine.get("cpu_model"),
            "commit": a.commit or machine.get("git_commit", ""),
            "date": datetime.date.today().isoformat(),
        },
        "missing_meshes": missing,
        "cases": results,
    }
    with open(a.json, "w") as f:
        json.dump(out, f, indent=1)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", required=True)
    ap.add_argument("--json", required=True)
    ap.add_argument("--meshes", default=os.path.join(ROOT, "inputs/meshes/generated"))
    ap.add_argument("--reps", type=int, default=2)
    ap.add_argument("--backends", default="host,cuda")
    ap.add_argument("--commit", default="")
    ap.add_argument("--quick", action="store_true")
    a = ap.parse_args()
    exe = os.path.abspath(os.path.join(a.bin, "tb-comp2d"))
    backends = a.backends.split(",")
    reps = 1 if a.quick else a.reps
    todo, missing = cases(a.meshes, a.quick)
    for m in missing:
        print(f"gpu_comp2d: {m} is missing (scripts/make-meshes.sh): skipped", file=sys.stderr)
    results = {}
    with tempfile.TemporaryDirectory() as work:
        for name, toml, sets in todo:
            runs = {b: [] for b in backends}
            for rep in range(reps):  # alternated: host, cuda, host, cuda
                for b in backends:
                    r = one_run(exe, name, toml, sets, b, work)
                    runs[b].append(r)
                    if "error" in r:
                        print(f"{name} {b} rep {rep + 1}: no result ({r['error']})", flush=True)
                        continue
                    print(f"{name} {b} rep {rep + 1}: exit {r['exit_status']}, {r['pseudo_steps']} steps, "
                          f"{r['wall_seconds']:.2f} s, Cd {r['cd']:.8f}, {r['bytes_per_step']:.0f} B/step in all, "
                          f"{r['step_bytes']['mean']:.0f} B/step outside the first and the last (largest "
                          f"{r['step_bytes']['largest']})", flush=True)
            ok = {b: [x for x in rs if "error" not in x] for b, rs in runs.items()}
            entry = {"cells": next((x["cells"] for rs in ok.values() for x in rs), None), "runs": runs,
                     "median_wall_seconds": {b: statistics.median(x["wall_seconds"] for x in rs)
                                             for b, rs in ok.items() if rs}}
            if ok.get("host") and ok.get("cuda"):
                h, g = ok["host"][0], ok["cuda"][0]
                entry["speedup"] = entry["median_wall_seconds"]["host"] / entry["median_wall_seconds"]["cuda"]
                entry["cd_relative_difference"] = abs(g["cd"] - h["cd"]) / abs(h["cd"])
                entry["cl_difference"] = abs(g["cl"] - h["cl"])
                entry["pseudo_steps"] = {"host": h["pseudo_steps"], "cuda": g["pseudo_steps"]}
                entry["cuda_bytes_per_step"] = max(x["bytes_per_step"] for x in ok["cuda"])
                # The target (<= 1 KB a pseudo-step outside output): the largest step of any device run.
                entry["cuda_largest_step_bytes"] = max(x["step_bytes"]["largest"] for x in ok["cuda"])
            results[name] = entry
            write(a, backends, missing, results)  # after every case: a run cut short keeps what finished
    failed = [f"{name} {b}" for name, e in results.items() for b, rs in e["runs"].items()
              for r in rs if r.get("exit_status") != 0 or not r["converged"]]
    if failed:
        sys.exit("gpu_comp2d: runs that failed or did not converge: " + ", ".join(failed))


if __name__ == "__main__":
    main()
