#!/usr/bin/python3
"""Peak resident memory per cell of tb-incomp (2D and 3D) and tb-ib (uniform
grid), the figures the miniapps' start-up memory estimate uses
(miniapps/common/case_checks.hpp, require_grid_fits): each case runs two steps
at two grid sizes, and summary.json's peak_rss_mib gives the peak of the run.
Per case: the peak over the cells at each size, and the slope between the two
sizes (the memory an added cell costs, libraries and runtime left out).

  /usr/bin/python3 bench/time_loops/memory_per_cell.py [--bin build/bin] --json OUT.json
"""
import argparse
import datetime
import json
import os
import platform
import subprocess
import tempfile
import time

CASES = {
    "incomp_2d": ("tb-incomp", [256, 512], lambda n: [f"grid.nx={n}", f"grid.ny={n}"], lambda n: n * n),
    "incomp_3d": ("tb-incomp", [48, 64],
                  lambda n: [f"grid.nx={n}", f"grid.ny={n}", f"grid.nz={n}", "bc.zmin.type=wall", "bc.zmax.type=wall"],
                  lambda n: n ** 3),
    "ib_uniform": ("tb-ib", [48, 64], lambda n: ["grid.core_h=0", f"grid.nx={n}", f"grid.ny={n}", f"grid.nz={n}"],
                   lambda n: n ** 3),
}


def run(binary, sets, out):
    args = [binary, "--steps", "2", "--out", out, "--set", "run.progress=false", "--set", "run.output_every=0",
            "--set", "run.max_growth=0", "--set", "run.max_failed_steps=0"]  # memory, not convergence
    for s in sets:
        args += ["--set", s]
    # A failed solve (exit 1) still writes the summary and its memory: the peak is what is measured.
    subprocess.run(args, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(os.path.join(out, "summary.json")) as f:
        return json.load(f)["memory"]["peak_rss_mib"]


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bin", default="build/bin")
    p.add_argument("--json", required=True)
    a = p.parse_args()
    command = "/usr/bin/python3 bench/time_loops/memory_per_cell.py --json " + a.json
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    model = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")),
                 platform.processor())
    result = {"about": {
        "what": "peak resident memory per cell of tb-incomp (2D, 3D) and tb-ib (uniform grid), two steps at two "
                "grid sizes: the figures of the miniapps' start-up memory estimate",
        "command": command, "machine": "host", "device": f"{os.cpu_count()}-core VM ({model})", "commit": commit,
        "date": datetime.date.today().isoformat(),
        "headline": "peak RSS per cell at the larger grid: tb-incomp 2D {i2:.2f} KiB, 3D {i3:.2f} KiB; "
                    "tb-ib {ib:.2f} KiB",
        "figures": {"i2": "/cases/incomp_2d/sizes/1/kib_per_cell", "i3": "/cases/incomp_3d/sizes/1/kib_per_cell",
                    "ib": "/cases/ib_uniform/sizes/1/kib_per_cell"}},
        "command": command, "loadavg_before": os.getloadavg()[0], "cases": {}}
    with tempfile.TemporaryDirectory() as tmp:
        for name, (app, sizes, sets, count) in CASES.items():
            rows = []
            for n in sizes:
                t0 = time.time()
                peak = run(os.path.join(a.bin, app), sets(n), os.path.join(tmp, f"{name}-{n}"))
                cells = count(n)
                rows.append({"n": n, "cells": cells, "peak_rss_mib": peak,
                             "kib_per_cell": peak * 1024.0 / cells, "seconds": round(time.time() - t0, 1)})
                print(name, rows[-1], flush=True)
            slope = (rows[1]["peak_rss_mib"] - rows[0]["peak_rss_mib"]) * 1024.0 / (rows[1]["cells"] - rows[0]["cells"])
            result["cases"][name] = {"app": app, "sizes": rows, "slope_kib_per_cell": slope}
    result["loadavg_after"] = os.getloadavg()[0]
    with open(a.json, "w") as f:
        json.dump(result, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
