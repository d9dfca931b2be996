#!/usr/bin/python3
"""Same bits before and after a change: each miniapp's default case and its
sample runs (samples.txt), recorded by one build and compared with another.

`record` runs every case with a build's binaries and keeps, per run, its exit
status, every steps.csv's nonlinear residual columns (res:*) and each system's
solves, iterations, stop reason and checksum (SYSTEM:solves, ...), and
summary.json's figures of merit: the numbers a change that keeps the
arithmetic must reproduce digit for digit. Timings are not kept.

`compare` lines two records up and prints each difference; it exits 1 when
any differs outside the runs marked timing-dependent (an autopilot in its
timed mode decides from seconds: its choices, and so its bits, may differ
from run to run of the same build; `record --twice` finds these by running
each case twice and marks those whose two records differ).

The default cases run in full; each sample runs for --sample-steps steps (as
miniapps/run_sample.py runs them, whose rules for paths, mpiexec and
restarts this script reuses).

  /usr/bin/python3 bench/time_loops/parity.py record --bin build/bin --json /tmp/before.json --twice
  /usr/bin/python3 bench/time_loops/parity.py record --bin build/bin --json /tmp/after.json
  /usr/bin/python3 bench/time_loops/parity.py compare /tmp/before.json /tmp/after.json
"""
import argparse
import csv
import glob
import importlib.util
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(HERE))
APPS = ["tb-incomp", "tb-comp2d", "tb-ib"]
SAMPLES = {"tb-incomp": "miniapps/incompressible/samples.txt", "tb-comp2d": "miniapps/compressible/samples.txt",
           "tb-ib": "miniapps/immersed/samples.txt"}
# res:*_s are timings the physics reports beside its residuals (tb-comp2d's residual_s, jacobian_s).
KEPT_COLUMN = re.compile(r"^res:|:(solves|iterations|reason|checksum|in_charge|probe)$")
TIMING_COLUMN = re.compile(r"^res:.*_s$")


def run_sample_module():
    spec = importlib.util.spec_from_file_location("run_sample", os.path.join(SOURCE, "miniapps", "run_sample.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def cases(sample_steps):
    """(label, [command words], steps or None) for every default case and sample."""
    out = [(f"{app} default", [[app]], None) for app in APPS]
    for app in APPS:
        lines = [l for l in open(os.path.join(SOURCE, SAMPLES[app]), encoding="utf-8").read().split("\n")
                 if l.strip() and not l.strip().startswith("#")]
        for i, line in enumerate(lines, 1):
            sample = re.sub(r"[ \t]+#.*$", "", line)
            if "--help" in sample:
                continue
            parts = [p.strip() for p in run_sample_module().split_sequence(sample) if p.strip()]
            out.append((f"{app} sample {i}", [shlex.split(p) for p in parts], sample_steps))
    return out


def read_run(out_dir):
    rec = {"tables": {}, "figures": {}}
    for path in sorted(glob.glob(os.path.join(out_dir, "**", "*.csv"), recursive=True)):
        name = os.path.relpath(path, out_dir)
        if not (name.endswith("steps.csv") or os.path.basename(name).startswith("shadow-")):
            continue
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
        rec["tables"][name] = [{k: v for k, v in r.items() if k and KEPT_COLUMN.search(k) and not TIMING_COLUMN.search(k)} for r in rows]
    for path in sorted(glob.glob(os.path.join(out_dir, "**", "summary.json"), recursive=True)):
        try:
            s = json.load(open(path))
        except ValueError:
            continue
        figures = dict(s.get("figures_of_merit", {}))
        for key in ("steps", "steady_state_reached", "converged"):
            if key in s:
                figures[key] = s[key]
        rec["figures"][os.path.relpath(path, out_dir)] = figures
    return rec


def run_case(words_list, steps, bin_dir, mpiexec, rs):
    work = tempfile.mkdtemp(prefix="parity-")
    try:
        args = argparse.Namespace(bin_dir=bin_dir, work=work, mpiexec=mpiexec)
        statuses = []
        for n, words in enumerate(words_list):
            if steps is None:
                cmd = [os.path.join(bin_dir, words[0])] + words[1:]
            else:
                cmd = rs.command_of(words, args, len(words_list) > 1, steps * (n + 1))
            if "--out" not in cmd and "--restart" not in cmd:
                cmd += ["--out", os.path.join(work, "out")]
            cmd += ["--set", "run.progress=false"] if "--restart" not in cmd else []
            p = subprocess.run(cmd, cwd=SOURCE, capture_output=True, text=True)
            statuses.append(p.returncode)
        rec = read_run(work)
        rec["exit"] = statuses
        return rec
    finally:
        shutil.rmtree(work, ignore_errors=True)


def record(a):
    rs = run_sample_module()
    mpiexec = shutil.which("mpiexec") or ""
    env_ok = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1"}
    os.environ.update(env_ok)
    result = {}
    for label, words_list, steps in cases(a.sample_steps):
        if a.only and not any(o in label for o in a.only.split(",")):
            continue
        if any(w == "mpiexec" for words in words_list for w in words) and not mpiexec:
            continue
        print(label, flush=True)
        rec = run_case(words_list, steps, os.path.abspath(a.bin), mpiexec, rs)
        if a.twice:
            again = run_case(words_list, steps, os.path.abspath(a.bin), mpiexec, rs)
            rec["timing_dependent"] = again != rec
        result[label] = rec
    json.dump(result, open(a.json, "w"), indent=1, sort_keys=True)
    return 0


def differences(x, y, where="", ignored=("timing_dependent",)):
    if isinstance(x, dict) and isinstance(y, dict):
        for k in sorted(set(x) | set(y)):
            if k in ignored:
                continue
            if k not in x or k not in y:
                yield f"{where}/{k}: only in {'after' if k not in x else 'before'}"
                continue
            yield from differences(x[k], y[k], f"{where}/{k}", ignored)
    elif isinstance(x, list) and isinstance(y, list):
        if len(x) != len(y):
            yield f"{where}: {len(x)} entries before, {len(y)} after"
        for i, (p, q) in enumerate(zip(x, y)):
            yield from differences(p, q, f"{where}[{i}]", ignored)
    elif x != y:
        yield f"{where}: {x!r} before, {y!r} after"


def compare(a):
    before, after = json.load(open(a.before)), json.load(open(a.after))
    failed = 0
    for label in sorted(set(before) | set(after)):
        if label not in before or label not in after:
            print(f"{label}: recorded {'before' if label in before else 'after'} only")
            continue
        ignored = ("timing_dependent", "exit") if a.ignore_exit else ("timing_dependent",)
        diffs = list(differences(before[label], after[label], "", ignored))
        loose = before[label].get("timing_dependent") or after[label].get("timing_dependent")
        state = "same" if not diffs else ("differs (timing-dependent)" if loose else "DIFFERS")
        print(f"{label}: {state}")
        for d in diffs[:a.show]:
            print(f"    {d}")
        failed += bool(diffs) and not loose
    print(f"{len(set(before) & set(after))} runs compared, {failed} differ")
    return 1 if failed else 0


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True)
    r = sub.add_parser("record")
    r.add_argument("--bin", default="build/bin")
    r.add_argument("--json", required=True)
    r.add_argument("--sample-steps", type=int, default=3)
    r.add_argument("--only", help="comma-separated substrings of the labels to run")
    r.add_argument("--twice", action="store_true", help="run each case twice and mark those that differ")
    c = sub.add_parser("compare")
    c.add_argument("before")
    c.add_argument("after")
    c.add_argument("--show", type=int, default=5, help="differences printed per run")
    c.add_argument("--ignore-exit", action="store_true",
                   help="compare the numbers only, not the exit statuses (a change of the exit rule)")
    a = p.parse_args()
    return record(a) if a.command == "record" else compare(a)


if __name__ == "__main__":
    sys.exit(main())
