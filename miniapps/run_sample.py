#!/usr/bin/python3
"""Runs one of a miniapp's sample command lines (its samples.txt, printed by
--help) for two steps, as the sample tests do, and checks the exit status.

The sample runs in the source root (its paths are relative to it) with:
  - the program name (tb-incomp, ...) replaced by the built binary in --bin-dir,
    and mpiexec by --mpiexec (with --oversubscribe: the test machines have few cores);
  - every path under out/ moved into --work, and --out added where the sample
    has none, so tests write only to the build tree;
  - --steps 2 appended, so that every sample runs two steps whatever its case
    says (--steps 4 for the restart in "a; b": two steps past the checkpoint);
  - in a sequence ("a; b", a checkpointed run then its restart) the checkpoint
    interval set to 1, because two steps reach no checkpoint at the sample's own.
Every command of the sample must exit with --expect, except --help, which exits 0.

With --as-printed a sample runs as a user runs it from --help: no --steps, its
own checkpoint interval, to its end; INDEX may be "all", each sample's exit
status and time printed on one line (a check of the whole list before a
release: minutes, not a test).

Usage: run_sample.py --bin-dir D --work W --source S --expect N [--mpiexec M] [--as-printed] samples.txt INDEX
(INDEX counts from 1 over the lines that are neither blank nor comments.)
"""
import argparse
import os
import re
import shlex
import subprocess
import sys
import time


def command_of(words, args, work, in_sequence, steps):
    """The sample's words as a command of this build, its out/ paths under work; steps = None: as printed."""
    out = []
    for w in words:
        if w.startswith("tb-") and os.path.exists(os.path.join(args.bin_dir, w)):
            out.append(os.path.join(args.bin_dir, w))
        elif w == "mpiexec":
            if not args.mpiexec:
                sys.exit("the sample needs mpiexec, which this build did not find")
            out += [args.mpiexec, "--oversubscribe"]
        elif w.startswith("out/"):
            out.append(os.path.join(work, w))
        elif in_sequence and steps is not None and re.match(r"^run\.checkpoint_every=\d+$", w):
            out.append("run.checkpoint_every=1")
        else:
            out.append(w)
    return out if "--help" in out or steps is None else out + ["--steps", str(steps)]


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bin-dir", required=True)
    p.add_argument("--work", required=True)
    p.add_argument("--source", required=True)
    p.add_argument("--expect", type=int, required=True)
    p.add_argument("--mpiexec", default="")
    p.add_argument("--as-printed", action="store_true", help="the whole run, as --help prints it")
    p.add_argument("samples")
    p.add_argument("index")
    args = p.parse_args()
    lines = [l for l in open(args.samples, encoding="utf-8").read().split("\n") if l.strip() and not l.strip().startswith("#")]
    if args.index == "all" and args.as_printed:
        failed = 0
        for index in range(1, len(lines) + 1):
            t = time.monotonic()
            try:
                status = run(lines, index, os.path.join(args.work, str(index)), args, subprocess.DEVNULL)
            except SystemExit as e:  # a sample this invocation cannot run (no --mpiexec): said, and the list goes on
                print(e, flush=True)
                status = 1
            print(f"{'ok    ' if status == 0 else 'FAILED'} {time.monotonic() - t:7.1f} s  {index:2d}: {lines[index - 1]}",
                  flush=True)
            failed += status
        return 1 if failed else 0
    if not args.index.isdigit() or not 1 <= int(args.index) <= len(lines):
        sys.exit(f"{args.samples} has {len(lines)} samples, not {args.index}")
    return run(lines, int(args.index), args.work, args, None)


def run(lines, index, work, args, output):
    """Runs sample `index` (from 1) in `work`; 0 when every command exits as expected."""
    sample = re.sub(r"[ \t]+#.*$", "", lines[index - 1])
    os.makedirs(work, exist_ok=True)
    parts = [s.strip() for s in split_sequence(sample) if s.strip()]
    for n, part in enumerate(parts):
        # --steps counts from the start of the run, a restart's too: two more each.
        cmd = command_of(shlex.split(part), args, work, len(parts) > 1, None if args.as_printed else 2 * (n + 1))
        if "--out" not in cmd and "--restart" not in cmd:
            cmd += ["--out", os.path.join(work, "out")]  # not the default out/ of the source root
        if output is None:
            print("$", " ".join(shlex.quote(w) for w in cmd), flush=True)
        status = subprocess.run(cmd, cwd=args.source, stdout=output, stderr=output).returncode
        expect = 0 if "--help" in cmd else args.expect
        if status != expect:
            print(f"exit status {status}, expected {expect}" + ("" if output is None else f": {' '.join(cmd)}"))
            return 1
    return 0


def split_sequence(sample):
    """The commands of "a; b", split at the semicolons outside quotes (a
    quoted autopilot specification has its own)."""
    parts, current, quote = [], "", None
    for ch in sample:
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == ";":
            parts.append(current)
            current = ""
            continue
        current += ch
    return parts + [current]


if __name__ == "__main__":
    sys.exit(main())
