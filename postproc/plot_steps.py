#!/usr/bin/python3
"""Plots of a miniapp run or solver study, from the harness's tables.

  /usr/bin/python3 postproc/plot_steps.py out/tb-incomp             # one run (+ its shadow tables)
  /usr/bin/python3 postproc/plot_steps.py out/study --out plots     # independent A/B: one folder per spec

Writes PNGs: nonlinear residuals per step (one panel per quantity, one line per
run), linear iterations per step (one panel per system, one line per solver),
and cumulative solve time per solver. Uses Debian's
matplotlib, so run it with /usr/bin/python3.
"""
import argparse
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read_table(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        sys.exit(f"{path}: no rows")
    return rows


def number(text):
    return float(text) if text not in ("", None) else float("nan")


def find_tables(run_dir):
    """(label, steps.csv path) for the driver, each shadow and each A/B folder."""
    tables = []
    if os.path.exists(os.path.join(run_dir, "steps.csv")):
        tables.append(("driver", os.path.join(run_dir, "steps.csv")))
    for name in sorted(os.listdir(run_dir)):
        path = os.path.join(run_dir, name)
        if name.startswith("shadow-") and name.endswith(".csv"):
            tables.append((name[:-4], path))
        elif os.path.isdir(path) and os.path.exists(os.path.join(path, "steps.csv")):
            tables.append((name, os.path.join(path, "steps.csv")))
    if not tables:
        sys.exit(f"{run_dir}: no steps.csv, shadow-*.csv or study folders found")
    return tables


def systems_of(rows):
    return [c[: -len(":iterations")] for c in rows[0] if c.endswith(":iterations")]


def panels(count, title):
    """A figure with one panel per quantity, in rows of up to three."""
    cols = min(3, max(1, count))
    nrows = (count + cols - 1) // cols
    fig, axes = plt.subplots(nrows, cols, figsize=(4.6 * cols, 3.4 * nrows), squeeze=False)
    for ax in axes.flat[count:]:
        ax.set_visible(False)
    fig.suptitle(title)
    return fig, list(axes.flat[:count])


def save(fig, out, name):
    fig.tight_layout()
    fig.savefig(os.path.join(out, name), dpi=120)
    plt.close(fig)


def short(spec, width=38):
    return spec if len(spec) <= width else spec[: width - 3] + "..."


def plot_residuals(tables, out):
    """One panel per res: column (a residual, or a count such as cleared_cells:
    drawn on a linear axis when it is not positive throughout); one line per run."""
    drivers = [(label, rows) for label, rows in tables if not label.startswith("shadow")]  # shadows share the path
    columns = []
    for _, rows in drivers:
        columns += [c for c in rows[0] if c.startswith("res:") and c not in columns]
    fig, axes = panels(max(1, len(columns)), "nonlinear residuals per step")
    for ax, col in zip(axes, columns):
        positive = True
        for label, rows in drivers:
            if col not in rows[0]:
                continue
            values = [number(r[col]) for r in rows]
            positive = positive and all(v > 0 for v in values if v == v)
            ax.plot([int(r["step"]) for r in rows], values, label=label)
        if positive:
            ax.set_yscale("log")
        ax.set_title(col[4:])
        ax.set_xlabel("time step")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize="small")
    save(fig, out, "residuals.png")


def plot_iterations(tables, out):
    """One panel per linear system; one line per run or shadow, named with its solver."""
    systems = []
    for _, rows in tables:
        systems += [s for s in systems_of(rows) if s not in systems]
    fig, axes = panels(max(1, len(systems)), "linear iterations per step")
    for ax, system in zip(axes, systems):
        for label, rows in tables:
            if f"{system}:iterations" not in rows[0]:
                continue
            spec = rows[0].get(f"{system}:solver", "")
            ax.plot([int(r["step"]) for r in rows], [number(r[f"{system}:iterations"]) for r in rows],
                    marker=".", label=f"{label}: {short(spec)}")
        ax.set_title(system)
        ax.set_xlabel("time step")
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize="x-small")
    save(fig, out, "iterations.png")


def plot_solve_time(tables, out):
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for label, rows in tables:
        total, steps, cumulative = 0.0, [], []
        for r in rows:
            total += sum(number(r[f"{s}:setup_s"]) + number(r[f"{s}:solve_s"]) for s in systems_of(rows))
            steps.append(int(r["step"]))
            cumulative.append(total)
        ax.plot(steps, cumulative, label=label)
    ax.set_xlabel("time step")
    ax.set_ylabel("cumulative set-up + solve seconds")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "solve_time.png"), dpi=120)
    plt.close(fig)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("run_dir", help="a run's output folder (steps.csv) or a study folder (one subfolder per spec)")
    parser.add_argument("--out", help="folder for the PNGs (default: RUN_DIR/plots)")
    args = parser.parse_args()
    out = args.out or os.path.join(args.run_dir, "plots")
    os.makedirs(out, exist_ok=True)
    tables = [(label, read_table(path)) for label, path in find_tables(args.run_dir)]
    plot_residuals(tables, out)
    plot_iterations(tables, out)
    plot_solve_time(tables, out)
    print(f"plots in {out}: residuals.png iterations.png solve_time.png")


if __name__ == "__main__":
    main()
