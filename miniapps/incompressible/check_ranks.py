#!/usr/bin/python3
"""tb-incomp decomposed into slabs over ranks against one rank (docs/distributed.md).

    check_ranks.py TB_INCOMP MPIEXEC WORK CHECK

CHECK is one of
  centrelines  the default cavity (32 x 32, Re 100) to steady state with its own
               solvers (bicgstab/cg + bilu0, run on ranks with bjacobi(local=bilu0))
               on 1, 2 and 3 ranks: both centreline profiles agree with one rank's
               to 1e-6 and so do the Ghia deviations; the start-up line names the
               planes each rank owns; the .pvts has one piece per rank, together
               the whole grid, each cell with its rank.
  jacobi       five steps of the cavity, the channel (parabolic inflow across the
               slabs, convective outflow) and a 10^3 cavity in 3D, both systems
               with point Jacobi, a preconditioner that does not depend on the
               ranks, solved to 1e-12: the momentum residual, max du/dt and the
               CFL number of every step agree with one rank's to 1e-10 relative on
               2 and 3 ranks, the iteration counts within one (the ranks' other
               order of summation moves a stop by an iteration now and then;
               stopped at a fixed count short of convergence instead, BiCGStab's
               iterates drift apart by 1e-9 in a few steps).
  restart      a 2-rank run checkpointed at step 3 is refused on 3 ranks and on one
               (naming the 2 it needs), and resumed on 2 it gives the steps of the
               uninterrupted 2-rank run digit for digit.
Three ranks run oversubscribed on a 2-core machine. Exits 1 naming the first
difference.
"""
import csv
import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
from rank_checks import RankChecks, steps  # noqa: E402

EXE, MPIEXEC, WORK, CHECK = sys.argv[1], sys.argv[2], pathlib.Path(sys.argv[3]), sys.argv[4]
SOURCE = pathlib.Path(__file__).resolve().parents[2]
CASES = {
    "cavity": [],
    "channel": [str(SOURCE / "inputs/incompressible/channel2d.toml")],
    "cavity3d": [str(SOURCE / "inputs/incompressible/cavity3d_re1000.toml"), "--set", "grid.nx=10", "--set",
                 "grid.ny=10", "--set", "grid.nz=10"],
}


CHECKS = RankChecks(EXE, MPIEXEC, CHECK, [])
fail = CHECKS.fail


def run(ranks, out, *args, case="cavity", expect=0, restart=None):
    return CHECKS.run(ranks, out, *args, base=CASES[case], expect=expect, restart=restart)


def profile(path):
    with open(path, newline="") as f:
        return [(float(a), float(b)) for a, b in list(csv.reader(f))[1:]]


def check_centrelines():
    run(1, WORK / "one")
    one = json.loads((WORK / "one" / "summary.json").read_text())["figures_of_merit"]
    for ranks in (2, 3):
        out = WORK / f"ranks{ranks}"
        done = run(ranks, out)
        if f"32 x 32 cells over {ranks} ranks (slabs of y planes, 2 ghost planes): owned" not in done.stdout:
            fail(f"{ranks} ranks: no start-up line with the planes per rank:\n{done.stdout}")
        many = json.loads((out / "summary.json").read_text())["figures_of_merit"]
        for key in ("ghia_u_max_deviation", "ghia_v_max_deviation"):
            if abs(one[key] - many[key]) > 1e-6:
                fail(f"{ranks} ranks: {key} {many[key]!r}, one rank {one[key]!r}")
        for name in ("centreline_u.csv", "centreline_v.csv"):
            a, b = profile(WORK / "one" / "fields" / name), profile(out / "fields" / name)
            if len(a) != len(b) or any(x[0] != y[0] or abs(x[1] - y[1]) > 1e-6 for x, y in zip(a, b)):
                fail(f"{ranks} ranks: {name} differs from one rank's by more than 1e-6")
        check_pieces(out, ranks)
        print(f"{ranks} ranks: centrelines and Ghia deviations equal one rank's to 1e-6")


def check_pieces(out, ranks):
    import vtk  # Debian's python3-vtk9, for /usr/bin/python3

    pvd = (out / "flow.pvd").read_text()
    last = pvd.rsplit('file="', 1)[1].split('"', 1)[0]
    if not last.endswith(".pvts"):
        fail(f"{ranks} ranks: the .pvd names {last}, not a .pvts")
    reader = vtk.vtkXMLPStructuredGridReader()
    reader.SetFileName(str(out / last))
    reader.Update()
    if reader.GetNumberOfPieces() != ranks:
        fail(f"{last}: {reader.GetNumberOfPieces()} pieces for {ranks} ranks")
    grid = reader.GetOutput()
    if grid.GetNumberOfCells() != 32 * 32:
        fail(f"{last}: {grid.GetNumberOfCells()} cells, the grid has {32 * 32}")
    rank = grid.GetCellData().GetArray("rank")
    seen = [int(rank.GetValue(i)) for i in range(grid.GetNumberOfCells())]
    if seen != sorted(seen) or set(seen) != set(range(ranks)):
        fail(f"{last}: the cells carry ranks {sorted(set(seen))}, not slabs of 0..{ranks - 1} in order")


def check_jacobi():
    args = ["--set", "solver.momentum=bicgstab(rtol=1e-12,maxit=1000)+jacobi", "--set",
            "solver.pressure=cg(rtol=1e-12,maxit=5000)+jacobi", "--steps", "5"]
    for case in CASES:
        run(1, WORK / f"{case}1", *args, case=case)
        one = steps(WORK / f"{case}1")
        for ranks in (2, 3):
            run(ranks, WORK / f"{case}{ranks}", *args, case=case)
            CHECKS.expect_steps_close(f"{case}, {ranks} ranks", one, steps(WORK / f"{case}{ranks}"),
                                      ("cfl", "res:momentum", "res:du_dt"), 1e-10,
                                      iterations=("momentum:iterations", "pressure:iterations"), slack=1)


def check_restart():
    CHECKS.restart_equals_uninterrupted(WORK, ("step", "cfl", "res:momentum", "res:du_dt", "res:divergence",
                                               "momentum:iterations", "pressure:iterations"))


if __name__ == "__main__":
    CHECKS.dispatch(WORK, {"centrelines": check_centrelines, "jacobi": check_jacobi, "restart": check_restart})
