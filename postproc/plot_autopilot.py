#!/usr/bin/python3
"""The solver autopilot's decisions in one run (docs/autopilot.md), from its tables.

  /usr/bin/python3 postproc/plot_autopilot.py out/tb-incomp [--out plots]

Per system whose solver is an autopilot, writes autopilot-<system>.png: above,
each candidate's cost per step at its probes (summary.json; an open triangle
marks a probe cut short, whose cost is a lower bound, an open square one that
stopped at its iteration limit where no candidate met its tolerance, whose
cost is priced to the tolerance) and the measured
cost of the solver in charge on every step (steps.csv: set-up + solve seconds);
below, which candidate was in charge. Before drawing it checks that the
in-charge column of steps.csv follows the switches of summary.json (a fallback
step may differ) and exits 1 naming the step where it does not. Uses Debian's
matplotlib: run it with /usr/bin/python3.
"""
import argparse
import csv
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return float("nan")


def in_charge_per_step(rows, system):
    """[(step, candidate, cost s)] from steps.csv (a step's solves of the system are summed there)."""
    out = []
    for row in rows:
        if row.get(system + ":in_charge") in (None, ""):
            continue
        cost = number(row[system + ":setup_s"]) + number(row[system + ":solve_s"])
        out.append((int(row["step"]), int(row[system + ":in_charge"]), cost))
    return out


def check_switches(system, trace, ap, start):
    """The in-charge column against the switches: the first mismatch, or None."""
    expected = start
    switches = {s["step"]: s["to"] for s in ap["switches"]}
    fallback_steps = 0
    for step, who, _ in trace:
        expected = switches.get(step, expected)
        if who != expected:
            fallback_steps += 1  # a fallback takes one step; more than the fallbacks recorded is wrong
            if fallback_steps > ap["fallbacks"]:
                return "%s: step %d has candidate %d in charge, the switches say %d" % (system, step, who, expected)
    return None


def plot(system, trace, ap, path):
    fig, (top, bottom) = plt.subplots(2, 1, sharex=True, figsize=(8, 6), gridspec_kw={"height_ratios": [3, 1]})
    for k, spec in enumerate(ap["candidates"], start=1):
        pts = [(p["step"], p["cost_s"]) for p in ap["probes"] if p["candidate"] == k and p["cost_s"] is not None]
        if pts:
            line, = top.plot([s for s, _ in pts], [c for _, c in pts], "o-", ms=4, label="%d: %s" % (k, spec))
            # A probe cut short where it could no longer take the charge: its cost is a lower bound.
            cut = [(p["step"], p["cost_s"]) for p in ap["probes"] if p["candidate"] == k and p.get("cut")]
            if cut:
                top.plot([s for s, _ in cut], [c for _, c in cut], "^", ms=7, mfc="none", color=line.get_color())
            # Stopped at its iteration limit where every candidate did: priced to its tolerance.
            missed = [(p["step"], p["cost_s"]) for p in ap["probes"] if p["candidate"] == k and p.get("missed")]
            if missed:
                top.plot([s for s, _ in missed], [c for _, c in missed], "s", ms=7, mfc="none", color=line.get_color())
    top.plot([s for s, _, _ in trace], [c for _, _, c in trace], color="black", lw=0.8, label="in charge (measured)")
    top.set_yscale("log")
    top.set_ylabel("cost per step, s" + (" (calibrated)" if ap["mode"] == "deterministic" else ""))
    top.legend(fontsize=7)
    top.set_title("autopilot on %s: %d probes, %d switches" % (system, len(ap["probes"]), len(ap["switches"])))
    bottom.step([s for s, _, _ in trace], [w for _, w, _ in trace], where="post", color="black")
    bottom.set_yticks(range(1, len(ap["candidates"]) + 1))
    bottom.set_ylabel("in charge")
    bottom.set_xlabel("step")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("run", help="a run's output folder (summary.json, steps.csv)")
    ap.add_argument("--out", help="folder for the PNGs (default: the run folder)")
    a = ap.parse_args()
    with open(os.path.join(a.run, "summary.json")) as f:
        summary = json.load(f)
    autopilots = summary.get("autopilot", {})
    if not autopilots:
        sys.exit("%s: no autopilot in this run (a solver written autopilot(candidates=[...]))" % a.run)
    with open(os.path.join(a.run, "steps.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    out = a.out or a.run
    os.makedirs(out, exist_ok=True)
    for system, auto in autopilots.items():
        trace = in_charge_per_step(rows, system)
        if not trace:
            sys.exit("%s: steps.csv has no column %s:in_charge" % (a.run, system))
        first = auto["switches"][0]["from"] if auto["switches"] else trace[0][1]
        problem = check_switches(system, trace, auto, first)
        if problem:
            sys.exit("%s: %s" % (a.run, problem))
        path = os.path.join(out, "autopilot-%s.png" % system)
        plot(system, trace, auto, path)
        print("wrote %s" % path)


if __name__ == "__main__":
    main()
