#!/usr/bin/python3
"""tb-ib under mpiexec against one rank (docs/immersed.md).

    check_ranks.py TB_IB MPIEXEC WORK CHECK

CHECK is one of
  banded   both systems with seed 004's banded BiCGStab (the defaults'
           solver) on 2 ranks, with run.decompose = false (every rank running
           the whole physics, GBCG cutting its slabs of the whole matrix) and
           decomposed (slabs of z planes, GBCG on the rows each rank
           assembled): the steps, Cd and fields equal one rank's
           (compare_ranks.py), and the decomposed run names bicgstab_dia.
  jacobi   the grid in slabs of z planes, both systems with BiCGStab + point
           Jacobi (a preconditioner that does not depend on the ranks) to 1e-12:
           five steps of a coarse sphere and of the pulsating ellipsoid (cells
           cleared as it moves) on 2 and 3 ranks; CFL, max du/dt, Cd and cleared
           cells of every step agree with one rank's to 1e-10 relative.
  drag     slabs, BiCGStab + ILU(0), block Jacobi over the ranks: a coarse
           sphere (D/h = 5, off centre across the slabs) to steady state on 2 and 3 ranks; the steps, Cd and
           its parts agree with one rank's to 1e-6, and so do the final fields
           (a .pvts of one piece per rank); the start-up line names the planes each
           rank owns. The manufactured Poisson problem on 2 ranks: its error
           equals one rank's to 1e-6.
  restart  a 2-rank run checkpointed at step 3 is refused on 3 ranks and on one
           (naming the 2 it needs), and resumed on 2 gives the uninterrupted
           run's steps digit for digit.
Three ranks run oversubscribed on a 2-core machine. Exits 1 naming the first
difference.
"""
import json
import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))
from rank_checks import RankChecks, close, steps  # noqa: E402

EXE, MPIEXEC, WORK, CHECK = sys.argv[1], sys.argv[2], pathlib.Path(sys.argv[3]), sys.argv[4]
SOURCE = HERE.parents[1]
# Off centre in z, so that the sphere's surface spans two slabs on 3 ranks too
# (whose middle rank holds every plane, its ghost planes included).
COARSE = ["--set", "grid.core_h=0.2", "--set", "body.centre_z=0.2"]
PULSE = [str(SOURCE / "inputs/immersed/pulsating_ellipsoid.toml"), "--set", "grid.core_h=0.16", "--set",
         "time.dt=0.05"]
POISSON = [str(SOURCE / "inputs/immersed/poisson_sphere.toml"), "--set", "grid.nx=24", "--set", "grid.ny=24",
           "--set", "grid.nz=24"]

CHECKS = RankChecks(EXE, MPIEXEC, CHECK, COARSE)
fail = CHECKS.fail


def solvers(preconditioner, rtol):
    return ["--set", f"solver.pressure=bicgstab(rtol={rtol},maxit=5000)+{preconditioner}", "--set",
            f"solver.advection_diffusion=bicgstab(rtol={rtol},maxit=500)+{preconditioner}"]


def figures(out):
    return json.loads((out / "summary.json").read_text())["figures_of_merit"]


def check_banded():
    args = [*COARSE, "--set", "solver.pressure=bicgstab_dia(rtol=1e-9,maxit=3000)", "--set",
            "solver.advection_diffusion=bicgstab_dia(rtol=1e-9,maxit=500)", "--steps", "12"]
    CHECKS.run(1, WORK / "one", base=args)
    for name, extra in (("replicated", ["--set", "run.decompose=false"]), ("decomposed", [])):
        done = CHECKS.run(2, WORK / name, base=[*args, *extra])
        if name == "decomposed" and "pressure=bicgstab_dia(rtol=1e-9,maxit=3000)" not in done.stdout:
            fail(f"decomposed: the pressure solver is not bicgstab_dia on the ranks' rows:\n{done.stdout}")
        compared = subprocess.run(["/usr/bin/python3", str(HERE / "compare_ranks.py"), str(WORK / "one"),
                                   str(WORK / name)], capture_output=True, text=True)
        print(f"{name}: {compared.stdout}", end="")
        if compared.returncode != 0:
            sys.exit(1)


def check_jacobi():
    for name, case, keys in (("sphere", COARSE, ("cfl", "res:du_dt", "res:cd")),
                             ("pulsating ellipsoid", PULSE, ("cfl", "res:du_dt", "res:cleared_cells"))):
        args = [*case, *solvers("jacobi", "1e-12"), "--steps", "5"]
        tag = name.split()[-1]
        CHECKS.run(1, WORK / f"{tag}1", base=args)
        one = steps(WORK / f"{tag}1")
        for ranks in (2, 3):
            CHECKS.run(ranks, WORK / f"{tag}{ranks}", base=args)
            CHECKS.expect_steps_close(f"{name}, {ranks} ranks", one, steps(WORK / f"{tag}{ranks}"), keys, 1e-10)


def check_drag():
    import compare_ranks

    args = [*COARSE, *solvers("bilu0", "1e-10")]
    CHECKS.run(1, WORK / "one", base=args)
    one = figures(WORK / "one")
    for ranks in (2, 3):
        out = WORK / f"ranks{ranks}"
        done = CHECKS.run(ranks, out, base=args)
        if f"cells over {ranks} ranks (slabs of z planes, 6 ghost planes): owned" not in done.stdout:
            fail(f"{ranks} ranks: no start-up line with the planes per rank:\n{done.stdout}")
        if "bjacobi(local=bilu0)" not in done.stdout:
            fail(f"{ranks} ranks: the solvers are not block Jacobi over the ranks:\n{done.stdout}")
        many = figures(out)
        for key in ("cd", "cd_pressure", "cd_viscous", "time"):
            if not close(one[key], many[key], 1e-6):
                fail(f"{ranks} ranks: {key} {many[key]!r}, one rank {one[key]!r}")
        if len(steps(out)) != len(steps(WORK / "one")):
            fail(f"{ranks} ranks: {len(steps(out))} steps to steady state, one rank {len(steps(WORK / 'one'))}")
        if compare_ranks.last_fields(out).suffix != ".pvts":
            fail(f"{ranks} ranks: no .pvts written")
        compare_ranks.compare_fields(WORK / "one", out, rel=1e-6)
        print(f"sphere, {ranks} ranks: {len(steps(out))} steps to steady state, Cd {many['cd']} "
              f"(one rank {one['cd']}), fields equal to 1e-6")
    poisson = [*POISSON, *solvers("bilu0", "1e-10")]
    CHECKS.run(1, WORK / "poisson1", base=poisson)
    CHECKS.run(2, WORK / "poisson2", base=poisson)
    e1, e2 = figures(WORK / "poisson1")["max_error"], figures(WORK / "poisson2")["max_error"]
    if not close(e1, e2, 1e-6):
        fail(f"manufactured Poisson: max error {e2} on 2 ranks, {e1} on one")
    print(f"manufactured Poisson, 2 ranks: max error {e2} (one rank {e1})")


def check_restart():
    CHECKS.restart_equals_uninterrupted(WORK, ("step", "cfl", "res:du_dt", "res:divergence", "res:cd",
                                               "advection_diffusion:iterations", "pressure:iterations"))


if __name__ == "__main__":
    CHECKS.dispatch(WORK, {"banded": check_banded, "jacobi": check_jacobi, "drag": check_drag,
                           "restart": check_restart})
