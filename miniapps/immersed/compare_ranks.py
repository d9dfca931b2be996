#!/usr/bin/python3
"""Compare a tb-ib run on one rank with the same run on several (docs/immersed.md).

    compare_ranks.py ONE_DIR MANY_DIR

The banded solvers give the one-rank iterates to round-off on any number of
ranks (seed 004's row decomposition, docs/banded.md; run.decompose = false,
each rank running the whole physics): the flow figures (max du/dt, Cd) must
agree to 1e-7 relative and the final fields (rank 0's .vts, or a decomposed
run's .pvts with one piece per rank) must hold the same values. Iteration
counts may differ a little: two ranks add the partial sums of each dot product
in another order, and BiCGStab's residual near the tolerance is sensitive to that
rounding (about 130 pressure iterations a step, up to 17 apart on the default
sphere); the total over the run of each system's iterations may differ by at most
5 %. Exits 1 with the first difference named.
"""
import csv
import json
import pathlib
import sys


def rows(run):
    with open(run / "steps.csv", newline="") as f:
        return list(csv.DictReader(f))


def fail(message):
    print(f"compare_ranks: {message}")
    sys.exit(1)


def close(a, b, rel):
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-300)


def compare_steps(one, many):
    a, b = rows(one), rows(many)
    if len(a) != len(b):
        fail(f"{len(a)} steps on one rank, {len(b)} on several")
    largest, totals = 0, {}
    for ra, rb in zip(a, b):
        for key in ra:
            if key.endswith(":iterations"):
                ia, ib = int(ra[key]), int(rb[key])
                largest = max(largest, abs(ia - ib))
                ta, tb = totals.get(key, (0, 0))
                totals[key] = (ta + ia, tb + ib)
            if key in ("res:du_dt", "res:cd") and not close(float(ra[key]), float(rb[key]), 1e-7):
                fail(f"step {ra['step']}: {key} {ra[key]} on one rank, {rb[key]} on several")
            # The divergence left after the projection is set by the pressure
            # solve's tolerance, not by the ranks: both must be small, not equal.
            if key == "res:divergence" and not max(float(ra[key]), float(rb[key])) < 1e-6:
                fail(f"step {ra['step']}: divergence {ra[key]} / {rb[key]} (expected < 1e-6)")
    for key, (ta, tb) in totals.items():
        if abs(ta - tb) > 0.05 * max(ta, tb):
            fail(f"{key}: {ta} iterations in all on one rank, {tb} on several (more than 5 % apart)")
    return len(a), largest, totals


def read_fields(path):
    import vtk
    from vtk.util.numpy_support import vtk_to_numpy

    reader = vtk.vtkXMLPStructuredGridReader() if path.suffix == ".pvts" else vtk.vtkXMLStructuredGridReader()
    reader.SetFileName(str(path))
    reader.Update()
    data = reader.GetOutput()
    if data is None or data.GetNumberOfCells() == 0:
        fail(f"{path}: no cells read")
    cells = data.GetCellData()
    return data.GetDimensions(), {cells.GetArrayName(i): vtk_to_numpy(cells.GetArray(i)) for i in range(cells.GetNumberOfArrays())}


def last_fields(run):
    """The last .pvts of a decomposed run, else the last whole-grid .vts."""
    pvts = sorted((run / "fields").glob("flow_*.pvts"))
    return pvts[-1] if pvts else sorted((run / "fields").glob("flow_[0-9]*[0-9].vts"))[-1]


def compare_fields(one, many, rel=1e-7):
    last_one, last_many = last_fields(one), last_fields(many)
    dims_a, a = read_fields(last_one)
    dims_b, b = read_fields(last_many)
    if dims_a != dims_b:
        fail(f"grid {dims_a} in {last_one.name}, {dims_b} in {last_many.name}")
    for name in ("velocity", "pressure", "cell_type"):
        scale = max(float(abs(a[name]).max()), 1e-300)
        diff = float(abs(a[name] - b[name]).max())
        if diff > rel * scale:
            fail(f"{name}: max difference {diff:.3e} (scale {scale:.3e}) between {last_one.name} and {last_many.name}")
    return last_one.name, last_many.name


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__)
    one, many = pathlib.Path(argv[1]), pathlib.Path(argv[2])
    steps, largest, totals = compare_steps(one, many)
    cd_a = json.load(open(one / "summary.json"))["figures_of_merit"].get("cd")
    cd_b = json.load(open(many / "summary.json"))["figures_of_merit"].get("cd")
    if cd_a is not None and not close(cd_a, cd_b, 1e-7):
        fail(f"Cd {cd_a} on one rank, {cd_b} on several")
    files = compare_fields(one, many)
    print(f"compare_ranks: {steps} steps; Cd {cd_a} / {cd_b}; fields {files[0]} = {files[1]}; "
          f"one solve's iterations at most {largest} apart; in all, one rank / several:")
    for key, (ta, tb) in sorted(totals.items()):
        print(f"  {key} {ta} / {tb}")


if __name__ == "__main__":
    main(sys.argv)
