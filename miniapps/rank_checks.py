"""What the miniapps' check_ranks.py scripts share (docs/distributed.md): running a miniapp
on one rank or under mpiexec, reading its steps.csv, comparing numbers, and
stopping with the first difference."""
import csv
import shutil
import subprocess
import sys


class RankChecks:
    """exe: the miniapp; mpiexec: Open MPI's; check: the name printed on failure;
    base: the arguments every run takes before --out (the case, --set ...)."""

    def __init__(self, exe, mpiexec, check, base):
        self.exe, self.mpiexec, self.check, self.base = exe, mpiexec, check, base

    def fail(self, message):
        print(f"check_ranks {self.check}: {message}")
        sys.exit(1)

    def run(self, ranks, out, *args, base=None, expect=0, restart=None):
        """Runs on `ranks` ranks (oversubscribed) into `out`, or resumes `restart`;
        fails unless the exit status is `expect`."""
        command = [self.exe, *(self.base if base is None else base), "--set", "run.progress=false", "--out",
                   str(out), *args]
        if restart:
            command = [self.exe, "--restart", str(restart), *args]
        if ranks > 1:
            command = [self.mpiexec, "-n", str(ranks), "--oversubscribe", *command]
        done = subprocess.run(command, capture_output=True, text=True, timeout=300)
        if expect is not None and done.returncode != expect:
            self.fail(f"{' '.join(command)}: exit {done.returncode}, expected {expect}\n{done.stdout}\n{done.stderr}")
        return done

    def expect_restart_only_on(self, ranks, part, *args):
        """A checkpoint of a `ranks`-rank run is refused on one rank more and on
        one, naming the count, in one line before anything else is printed (not
        once per rank, nor after the mesh was split), and resumed on `ranks` it
        exits 0 or 1."""
        for other in (ranks + 1, 1):
            done = self.run(other, None, restart=part, expect=2)
            needed = f"holds the checkpoint of a run on {ranks}, whose partition it keeps: restart it on {ranks}"
            if needed not in done.stderr:
                self.fail(f"restart on {other} ranks: not refused with the rank count to use:\n{done.stderr}")
            errors = [line for line in done.stderr.splitlines() if "error" in line]
            if len(errors) != 1 or done.stdout.strip():
                self.fail(f"restart on {other} ranks: the refusal is not the one line printed:\n"
                          f"stdout:\n{done.stdout}\nstderr:\n{done.stderr}")
        self.run(ranks, None, *args, restart=part, expect=None)

    def expect_steps_close(self, label, one, many, keys, rel, iterations=(), slack=0):
        """The step tables `one` and `many` have as many rows, `keys` agree to
        `rel` relative in every row and the counts in `iterations` within `slack`."""
        if len(many) != len(one):
            self.fail(f"{label}: {len(many)} steps, one rank {len(one)}")
        for a, b in zip(one, many):
            for key in iterations:
                if abs(int(a[key]) - int(b[key])) > slack:
                    self.fail(f"{label}, step {a['step']}: {key} {b[key]}, one rank {a[key]}")
            for key in keys:
                if not close(float(a[key]), float(b[key]), rel):
                    self.fail(f"{label}, step {a['step']}: {key} {b[key]}, one rank {a[key]}")
        print(f"{label}: {len(many)} steps equal one rank's to {rel:g}")

    def dispatch(self, work, checks):
        """Empties `work` and runs checks[self.check] (a name -> function dict)."""
        shutil.rmtree(work, ignore_errors=True)
        work.mkdir(parents=True)
        if self.check not in checks:
            self.fail("CHECK is " + ", ".join(checks))
        checks[self.check]()

    def restart_equals_uninterrupted(self, work, keys, expect=0):
        """A 2-rank run checkpointed at step 3 is refused on 3 ranks and on one
        and, resumed on 2, gives the uninterrupted 6-step run's `keys` row for
        row; `expect`: the runs' exit status."""
        whole, part = work / "whole", work / "part"
        self.run(2, whole, "--steps", "6", expect=expect)
        self.run(2, part, "--steps", "3", "--set", "run.checkpoint_every=3", expect=expect)
        self.expect_restart_only_on(2, part, "--steps", "6")
        a, b = steps(whole), steps(part)
        if not same_rows(a, b, keys):
            self.fail("the resumed 2-rank run differs from the uninterrupted one:\n" +
                      "\n".join(f"{[r[k] for k in keys]}" for r in a + b))
        print("restart: refused on 3 ranks and on one; resumed on 2, 6 steps equal the uninterrupted run's")


def steps(out):
    with open(out / "steps.csv", newline="") as f:
        return list(csv.DictReader(f))


def close(a, b, tol):
    return abs(a - b) <= tol * max(abs(a), abs(b), 1e-300)


def same_rows(a, b, keys):
    """True when the two step tables hold the same text in `keys`, row for row."""
    return [[r[k] for k in keys] for r in a] == [[r[k] for k in keys] for r in b]
