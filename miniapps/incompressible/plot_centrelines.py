#!/usr/bin/python3
"""Cavity centrelines of a tb-incomp run against Ghia, Ghia & Shin (1982).

    /usr/bin/python3 miniapps/incompressible/plot_centrelines.py RUN_DIR [--re 100] [--out centrelines.png]

Reads RUN_DIR/fields/centreline_{u,v}.csv and the reference tables from
inputs/validation (Ghia et al., J. Comput. Phys. 48 (1982), Tables I and II).
"""
import argparse
import csv
import pathlib

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

SHARED = pathlib.Path(__file__).resolve().parents[2] / "inputs" / "validation"


def read_profile(path):
    with open(path) as f:
        rows = list(csv.reader(f))
    return [float(r[0]) for r in rows[1:]], [float(r[1]) for r in rows[1:]]


def read_ghia(name, re):
    path = SHARED / name
    if not path.exists():
        return [], []
    lines = [l for l in path.read_text().splitlines() if l and not l.startswith("#")]
    header = lines[0].split(",")
    col = header.index(f"Re{re}")
    rows = [l.split(",") for l in lines[1:]]
    return [float(r[0]) for r in rows], [float(r[col]) for r in rows]


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("run")
    p.add_argument("--re", type=int, default=100)
    p.add_argument("--out", default=None)
    a = p.parse_args()
    run = pathlib.Path(a.run)
    y, u = read_profile(run / "fields" / "centreline_u.csv")
    x, v = read_profile(run / "fields" / "centreline_v.csv")
    gy, gu = read_ghia("ghia1982_u_vertical_centreline.csv", a.re)
    gx, gv = read_ghia("ghia1982_v_horizontal_centreline.csv", a.re)
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4.5))
    ax1.plot(u, y, "-", label="tb-incomp")
    ax1.plot(gu, gy, "o", mfc="none", label="Ghia et al. 1982")
    ax1.set_xlabel("u on x = 0.5")
    ax1.set_ylabel("y")
    ax2.plot(x, v, "-", label="tb-incomp")
    ax2.plot(gx, gv, "o", mfc="none", label="Ghia et al. 1982")
    ax2.set_xlabel("x")
    ax2.set_ylabel("v on y = 0.5")
    for ax in (ax1, ax2):
        ax.grid(alpha=0.3)
        ax.legend()
    fig.suptitle(f"Lid-driven cavity, Re {a.re}: {run}")
    fig.tight_layout()
    out = a.out or str(run / "centrelines.png")
    fig.savefig(out, dpi=120)
    print(out)


if __name__ == "__main__":
    main()
