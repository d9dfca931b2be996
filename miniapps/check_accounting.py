#!/usr/bin/python3
"""Every second of a miniapp's steps accounted for (docs/systems.md, "Accounting").

Runs a miniapp's default case and checks its step split:
  - summary.json's time_split: assembly, host_to_device, device_to_host,
    linear_setup, linear_solve, shadow_solvers, autopilot_probes, physics,
    harness and output add up to the loop's wall time ("loop") within 2 %
    ("unaccounted"), none of them negative;
  - steps.csv: the same accounts per step, whose sum over the steps is
    summary.json's, and the copies between host and device per step, whose
    bytes are the same every step after the first (on the host: none);
  - summary.json's transfers equal the steps' sums.

Usage: check_accounting.py BINARY [ARGS...] --out DIR
"""
import csv
import json
import os
import subprocess
import sys

ACCOUNTS = ["assembly", "host_to_device", "device_to_host", "linear_setup", "linear_solve", "shadow_solvers",
            "autopilot_probes", "physics", "harness", "output"]
COLUMNS = {"assembly": "assembly_s", "host_to_device": "h2d_s", "device_to_host": "d2h_s",
           "linear_setup": "linear_setup_s", "linear_solve": "linear_solve_s", "shadow_solvers": "shadow_s",
           "autopilot_probes": "probe_s", "physics": "physics_s", "harness": "harness_s", "output": "output_s"}


def fail(message):
    print("FAIL:", message)
    sys.exit(1)


def main():
    args = sys.argv[1:]
    if "--out" not in args:
        sys.exit(__doc__)
    out = args[args.index("--out") + 1]
    done = subprocess.run(args + ["--set", "run.progress=false"], capture_output=True, text=True)
    print(done.stdout, done.stderr, sep="")
    if done.returncode != 0:
        fail(f"exit status {done.returncode}")
    summary = json.load(open(os.path.join(out, "summary.json")))
    split = summary["time_split"]
    loop = split["loop"]
    total = sum(split[k] for k in ACCOUNTS)
    for k in ACCOUNTS:
        if split[k] < -1e-6 * loop:
            fail(f"time_split.{k} = {split[k]} is negative")
    unaccounted = loop - total
    print(f"loop {loop:.4f} s, accounted {total:.4f} s, unaccounted {unaccounted:.6f} s "
          f"({100 * unaccounted / loop:.3f} %)")
    if abs(unaccounted - split["unaccounted"]) > 1e-6 * loop + 1e-9:
        fail(f"time_split.unaccounted = {split['unaccounted']}, the accounts leave {unaccounted}")
    if not abs(unaccounted) <= 0.02 * loop:
        fail(f"{unaccounted} s of the loop's {loop} s is in no account (more than 2 %)")

    rows = list(csv.DictReader(open(os.path.join(out, "steps.csv"))))
    for k, column in COLUMNS.items():
        steps_sum = sum(float(r[column]) for r in rows)
        if abs(steps_sum - split[k]) > 1e-6 * loop + 1e-6:
            fail(f"steps.csv's {column} sums to {steps_sum}, time_split.{k} is {split[k]}")
    for direction, column, key in (("host to device", "h2d_bytes", "host_to_device"),
                                   ("device to host", "d2h_bytes", "device_to_host")):
        per_step = [int(r[column]) for r in rows]
        if len(set(per_step[1:])) > 1:
            fail(f"{direction}: the bytes per step change after the first step: {per_step}")
        if sum(per_step) != summary["transfers"][key]["bytes"]:
            fail(f"{direction}: the steps' bytes sum to {sum(per_step)}, summary.json has "
                 f"{summary['transfers'][key]['bytes']}")
        print(f"{direction}: {per_step[0]} bytes in the first step, {per_step[-1]} in each later one")
    print("ok")


if __name__ == "__main__":
    main()
