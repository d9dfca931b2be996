#!/usr/bin/python3
"""tb-comp2d decomposed over ranks against one rank (docs/distributed.md).

    check_ranks.py TB_COMP2D MPIEXEC WORK CHECK

CHECK is one of
  cd        the laminar NACA0012 to steady state, with the case's own solver
            (gmres + bilu0, run on ranks as gmres + bjacobi(local=bilu0)), on
            1, 2 and 3 ranks: Cd, Cl and the entropy error agree with one rank to
            1e-6; the start-up line names the cells each rank owns; the .pvtu has
            one piece per rank whose cells, ghosts removed, are the mesh's, each
            with its rank; summary.json's time_split_over_ranks brackets rank 0's
            time split, entry by entry. Again on 2 ranks with mesh.partition =
            work, whose parts must own other cell counts.
  cylinder  the same for the built-in case (the inviscid cylinder with its CFL
            ramp) with the paper's system (jacobian.form = first_order, fgmres +
            bilu0) on 1, 2 and 3 ranks: Cd and the entropy error within 1e-6 of
            one rank's, Cl within 1e-5: the circulation is a near-null mode of
            this unsymmetric mesh's Jacobian (docs/compressible.md), and the
            stopping test leaves it to move by about 1e-6 with the block Jacobi
            preconditioner's rank count.
  matrix_free  the built-in case as it is (jacobian.form = matrix_free, the
            default: each outer product a residual evaluation with its ghost
            exchange, the outer dot products reduced over the ranks) on 1, 2 and
            3 ranks: Cd and the entropy error within 1e-6 of one rank's, Cl
            within 1e-4 (the circulation, as above, with fewer steps to settle it).
  jacobi    four pseudo-time steps with FGMRES + point Jacobi, a preconditioner
            that does not depend on the ranks: the residual norms and the CFL of
            every step agree with one rank's to 1e-10 relative (the ten digits of
            steps.csv), the iteration counts exactly, on 2 and 3 ranks. (The
            solves stop at their 60 iterations unconverged; the ranks' other
            order of summation grows through them to 1.5e-9 by step 5.)
  restart   a 2-rank run checkpointed at step 3 is refused on 3 ranks and on one
            (naming the 2 it needs), and resumed on 2 it gives the steps of the
            uninterrupted 2-rank run digit for digit.
Three ranks run oversubscribed on a 2-core machine. Exits 1 naming the first
difference.
"""
import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
from rank_checks import RankChecks, steps  # noqa: E402

EXE, MPIEXEC, WORK, CHECK = sys.argv[1], sys.argv[2], pathlib.Path(sys.argv[3]), sys.argv[4]
SOURCE = pathlib.Path(__file__).resolve().parents[2]
CASE = SOURCE / "inputs/compressible/naca0012_laminar.toml"
MESH = SOURCE / "inputs/meshes/naca0012_coarse.su2"


CHECKS = RankChecks(EXE, MPIEXEC, CHECK, [str(CASE), "--set", f"mesh.file={MESH}"])
fail, run = CHECKS.fail, CHECKS.run


def figures(out):
    return json.loads((out / "summary.json").read_text())["figures_of_merit"]


def owned_cells(stdout, ranks):
    """The start-up line's cells per rank ("owned 4,474 + 4,474")."""
    marker = f"over {ranks} ranks (METIS on rank 0, 2 ghost layers): owned "
    if marker not in stdout:
        fail(f"{ranks} ranks: no start-up line with the cells per rank:\n{stdout}")
    return stdout.split(marker)[1].split(", ghosts")[0]


def check_cd(base=None, tag="", cl_tolerance=1e-6):
    run(1, WORK / f"{tag}one", base=base, expect=0)
    one = figures(WORK / f"{tag}one")
    owned = {}
    # The NACA0012 case also on parts balanced in work (mesh.partition = work), on 2 ranks.
    runs = [(2, []), (3, [])] + ([(2, ["--set", "mesh.partition=work"])] if base is None else [])
    for ranks, extra in runs:
        label = f"{tag}{ranks} ranks{' by work' if extra else ''}"
        out = WORK / f"{tag}ranks{ranks}{'_work' if extra else ''}"
        done = run(ranks, out, *extra, base=base, expect=0)
        owned[label] = owned_cells(done.stdout, ranks)
        many = figures(out)
        for key in ("cd", "cl", "cd_pressure", "cd_viscous", "entropy_error"):
            tolerance = cl_tolerance if key == "cl" else 1e-6
            if abs(one[key] - many[key]) > tolerance:
                fail(f"{label}: {key} {many[key]!r}, one rank {one[key]!r} (more than {tolerance} apart)")
        check_pieces(out, ranks, int(one["cells"]))
        check_split_over_ranks(out, ranks)
        print(f"{label}: cd {many['cd']} (one rank {one['cd']}), cl {many['cl']} (one rank "
              f"{one['cl']}), {int(many['pseudo_steps'])} steps ({int(one['pseudo_steps'])} on one), "
              f"owned {owned[label]}")
    if base is None and owned["2 ranks"] == owned["2 ranks by work"]:
        fail(f"mesh.partition=work owns the same cells as the partition by cells: {owned['2 ranks']}")


def check_split_over_ranks(out, ranks):
    summary = json.loads((out / "summary.json").read_text())
    split, spread = summary["time_split"], summary.get("time_split_over_ranks")
    if spread is None:
        fail(f"{ranks} ranks: summary.json has no time_split_over_ranks")
    for entry in ("steps", "linear_setup", "linear_solve", "physics", "harness", "output"):
        least, largest = spread[entry]
        if not least <= split[entry] <= largest:
            fail(f"{ranks} ranks: time_split_over_ranks.{entry} [{least}, {largest}] does not hold rank 0's "
                 f"{split[entry]}")


def check_cylinder():
    check_cd(base=["--set", "jacobian.form=first_order"], tag="cylinder, ", cl_tolerance=1e-5)


def check_matrix_free():
    check_cd(base=[], tag="matrix-free cylinder, ", cl_tolerance=1e-4)


def check_pieces(out, ranks, cells):
    import vtk  # Debian's python3-vtk9, for /usr/bin/python3

    pvd = (out / "flow.pvd").read_text()
    last = pvd.rsplit('file="', 1)[1].split('"', 1)[0]
    if not last.endswith(".pvtu"):
        fail(f"{ranks} ranks: the .pvd names {last}, not a .pvtu")
    reader = vtk.vtkXMLPUnstructuredGridReader()
    reader.SetFileName(str(out / last))
    reader.Update()
    if reader.GetNumberOfPieces() != ranks:
        fail(f"{last}: {reader.GetNumberOfPieces()} pieces for {ranks} ranks")
    remove = vtk.vtkRemoveGhosts()
    remove.SetInputData(reader.GetOutput())
    remove.Update()
    grid = remove.GetOutput()
    if grid.GetNumberOfCells() != cells:
        fail(f"{last}: {grid.GetNumberOfCells()} cells without ghosts, the mesh has {cells}")
    rank = grid.GetCellData().GetArray("rank")
    seen = {int(rank.GetValue(i)) for i in range(grid.GetNumberOfCells())}
    if seen != set(range(ranks)):
        fail(f"{last}: the owned cells carry ranks {sorted(seen)}")


def check_jacobi():
    args = ["--set", "solver.flow=fgmres(restart=30,rtol=1e-1,maxit=60)+jacobi", "--steps", "4"]
    run(1, WORK / "jacobi1", *args, expect=0)
    one = steps(WORK / "jacobi1")
    for ranks in (2, 3):
        run(ranks, WORK / f"jacobi{ranks}", *args, expect=0)
        CHECKS.expect_steps_close(f"{ranks} ranks", one, steps(WORK / f"jacobi{ranks}"),
                                  ("cfl", "res:rho", "res:rho_u", "res:rho_v", "res:rho_E"), 1e-10,
                                  iterations=("flow:iterations",))


def check_restart():
    CHECKS.restart_equals_uninterrupted(
        WORK, ("step", "cfl", "res:rho", "res:rho_u", "res:rho_v", "res:rho_E", "flow:iterations"))


if __name__ == "__main__":
    CHECKS.dispatch(WORK, {"cd": check_cd, "cylinder": check_cylinder, "matrix_free": check_matrix_free,
                           "jacobi": check_jacobi, "restart": check_restart})
