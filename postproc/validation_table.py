#!/usr/bin/python3
"""The demo's closing table: each miniapp's validation figures (from its
summary.json) beside their references.

  /usr/bin/python3 postproc/validation_table.py out/demo-incomp out/demo-comp2d out/demo-ib

A folder whose summary.json is missing or lacks a figure is shown as such.
"""
import json
import os
import sys

# (app, figure, reference value or None, what the reference is)
FIGURES = [
    ("tb-incomp", "ghia_u_max_deviation", 0.0, "max |u - Ghia et al. 1982| on the vertical centreline (Re 100)"),
    ("tb-incomp", "ghia_v_max_deviation", 0.0, "max |v - Ghia et al. 1982| on the horizontal centreline"),
    ("tb-comp2d", "cd", 0.0, "d'Alembert: 0 for the exact inviscid flow; the layered coarse mesh gives 0.052 "
                             "(built-in case: mirror-state wall) or 0.035 (the case file's wall pressure), falling "
                             "with refinement"),
    ("tb-comp2d", "cl", 0.0, "0 for the exact flow; the layered mesh's symmetric wall cells hold it below 0.01; "
                             "cylinder_coarse.msh, unstructured to the wall, selects a circulation: 0.078 (built-in "
                             "case) or 0.25 (case file) (docs/compressible.md)"),
    ("tb-comp2d", "entropy_error", 0.0, "isentropic flow: 0 for the exact solution"),
    ("tb-ib", "cd", 1.087, "sphere at Re 100, Johnson & Patel 1999"),
]


def load(folder):
    path = os.path.join(folder, "summary.json")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)


def main():
    summaries = {}
    for folder in sys.argv[1:]:
        s = load(folder)
        if s:
            summaries[s.get("app", folder)] = s
    print(f"{'case':10s} {'figure':22s} {'value':>10s} {'reference':>10s}  note")
    for app, name, reference, note in FIGURES:
        s = summaries.get(app)
        value = s.get("figures_of_merit", {}).get(name) if s else None
        shown = "not run" if s is None else ("-" if value is None else f"{value:.4g}")
        ref = "-" if reference is None else f"{reference:.4g}"
        print(f"{app:10s} {name:22s} {shown:>10s} {ref:>10s}  {note}")


if __name__ == "__main__":
    main()
