#!/usr/bin/python3
"""Multigrid for the pressure Poisson inside the time loops: the solvers solve
the identical systems as shadows of one run (--shadow: same matrix, right-hand
side and initial guess at every step), so their times interleave step by step
and share the machine's load.

  /usr/bin/python3 bench/time_loops/mg_pressure.py --build build \\
      [--grids 32:10,64:5,128:3] [--study 64:5,128:3] [--ib-steps 20] [--threads 2] \\
      [--cuda] --json bench/results/host-mg-pressure.json

Cases:
  scaling  tb-incomp's 3D cavity (cavity3d_re1000.toml, tanh-clustered, Re 1000)
           at each grid N^3 for its steps: cg+mg driving, cg+bilu0, PETSc CG +
           GAMG and PETSc CG + hypre BoomerAMG as shadows (one rtol, 1e-9 of
           ||b||, the case's default rule).
  study    the smoothers and cycle options of mg as shadows of cg+mg at each
           study grid.
  immersed tb-ib's fine sphere (sphere_re100_fine.toml, 0.19 M cells, ghost-cell
           rows outside the 7-point stencil): bicgstab+mg driving; the remainder
           in the Galerkin operators or in the smoother only, BiLU(0), the case
           file's bicgstab_dia, PETSc BiCGStab + GAMG / hypre as shadows.
--cuda adds cg(backend=cuda)+mg and the GPU ILU settings to the scaling case
(a machine with a GPU).

Per solver: solves, iterations (per solve: mean and largest), set-up seconds,
solve seconds, and per step; ratios of the others' solve time per step over
the driver's. JSON: an "about" object (bench/results/make_index.py), the
machine, load before and after, the commit, the date; paths relative to the
repository.
"""
import argparse
import datetime
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

INCOMP_TOL = "rtol=1e-9,maxit=2000,relative_to=b"
IB_TOL = "rtol=1e-8,maxit=3000,relative_to=b"

STUDY = [
    "mg(smoother=chebyshev,degree=2)",
    "mg(smoother=chebyshev,degree=4)",
    "mg(smoother=chebyshev,degree=2,sweeps=2)",
    "mg(smoother=jacobi)",
    "mg(smoother=jacobi,sweeps=2)",
    "mg(smoother=gauss_seidel)",
    "mg(smoother=gauss_seidel,sweeps=2)",
    "mg(smoother=fgbilu)",
    "mg(smoother=async_ilu)",
    "mg(cycle=w)",
    "mg(semicoarsening=0)",
]


def loadavg():
    return open("/proc/loadavg").read().split()[:3]


def run(program, args, threads, out):
    env = dict(os.environ)
    if threads:
        env["OMP_NUM_THREADS"] = str(threads)
    cmd = [program] + args + ["--out", out]
    print("  " + " ".join(cmd), flush=True)
    proc = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if proc.returncode not in (0, 1):
        sys.exit(f"exit {proc.returncode}\n{proc.stderr[-3000:]}")
    with open(os.path.join(out, "summary.json")) as f:
        return json.load(f), proc.returncode


def largest_per_solve(out, csv_name, system):
    """The largest iteration count of one solve of `system` in a steps or shadow CSV."""
    import csv
    most = 0
    with open(os.path.join(out, csv_name)) as f:
        for row in csv.DictReader(f):
            solves = int(row.get(f"{system}:solves") or 0)
            if solves:
                most = max(most, int(row[f"{system}:iterations"]) // solves)
    return most


def table(summary, out, system, specs):
    """One row per solver of `system`: the driver first, then the shadows in order."""
    steps = summary["steps"]
    rows = []
    for i, spec in enumerate(specs):
        key = f"driver/{system}" if i == 0 else f"shadow{i}/{system}"
        t = summary["totals"][key]
        csv_name = "steps.csv" if i == 0 else f"shadow-{i}.csv"
        rows.append({
            "solver": spec, "solves": t["solves"], "iterations": t["iterations"], "failures": t["failures"],
            "iterations_per_solve": t["iterations"] / max(1, t["solves"]),
            "largest_iterations_per_solve": largest_per_solve(out, csv_name, system),
            "setup_s": t["setup_seconds"], "solve_s": t["solve_seconds"],
            "solve_s_per_step": t["solve_seconds"] / steps,
            "setup_and_solve_s_per_step": (t["setup_seconds"] + t["solve_seconds"]) / steps,
        })
    driver = rows[0]["solve_s_per_step"]
    for r in rows:
        r["solve_s_per_step_over_driver"] = r["solve_s_per_step"] / driver if driver > 0 else None
    return rows


def shadow_run(program, case_args, system, specs, threads, work, name):
    args = list(case_args) + ["--set", "run.output_every=0", "--set", f"solver.{system}={specs[0]}"]
    for s in specs[1:]:
        args += ["--shadow", f"{system}={s}"]
    out = os.path.join(work, name)
    before = loadavg()
    summary, rc = run(program, args, threads, out)
    rows = table(summary, out, system, specs)
    for r in rows:
        print(f"    {r['solver']:<70} its/solve {r['iterations_per_solve']:7.1f}  max {r['largest_iterations_per_solve']:5d}"
              f"  setup {r['setup_s']:8.3f} s  solve/step {r['solve_s_per_step']:8.3f} s"
              f"  x{r['solve_s_per_step_over_driver']:.2f}", flush=True)
    return {"args": args, "steps": summary["steps"], "exit_status": rc, "loadavg_before": before,
            "loadavg_after": loadavg(), "machine": summary["machine"], "threads": summary.get("threads"),
            "wall_s": summary["wall_seconds"], "solvers": rows}


def grid_steps(text):
    return [(int(g), int(s)) for g, s in (item.split(":") for item in text.split(",") if item)]


def about(result, a):
    """The "about" object of bench/results/make_index.py: the headline's figures
    are read from the largest scaling grid and the immersed case."""
    last = f"/scaling/{len(result['scaling']) - 1}/solvers" if result["scaling"] else None
    machine = result["scaling"][0]["machine"] if result["scaling"] else {}
    out = {"what": "the pressure Poisson solvers inside tb-incomp's 3D cavity and tb-ib's fine sphere, as shadows "
                   "on identical systems: cg+mg against CG + BiLU(0), PETSc GAMG and hypre, and mg's smoothers",
           "command": " ".join(["python3", "bench/time_loops/mg_pressure.py"] + sys.argv[1:]),
           "machine": "gpu" if a.cuda else "host",
           "device": f"{machine.get('logical_cpus', '?')}-core {machine.get('cpu_model', '?')}",
           "commit": result["commit"][:7], "date": result["date_utc"][:10], "headline": "", "figures": {}}
    if last:
        out["headline"] = ("largest cavity: CG + mg {mg:.3g} iterations a solve (BiLU(0) {bilu:.4g}, GAMG {gamg:.3g}); "
                           "pressure solve time per step {over_bilu:.3g}x faster than CG + BiLU(0), "
                           "{over_gamg:.3g}x faster than PETSc GAMG")
        out["figures"] = {"mg": f"{last}/0/iterations_per_solve", "bilu": f"{last}/1/iterations_per_solve",
                          "gamg": f"{last}/2/iterations_per_solve",
                          "over_bilu": f"{last}/1/solve_s_per_step / {last}/0/solve_s_per_step",
                          "over_gamg": f"{last}/2/solve_s_per_step / {last}/0/solve_s_per_step"}
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--grids", default="32:10,64:5,128:3", help="N:steps of the scaling case")
    ap.add_argument("--study", default="64:5,128:3", help="N:steps of the smoother study")
    ap.add_argument("--ib-steps", type=int, default=20)
    ap.add_argument("--threads", type=int, default=0, help="OMP_NUM_THREADS (default: the program's policy)")
    ap.add_argument("--cuda", action="store_true")
    ap.add_argument("--json", required=True)
    a = ap.parse_args()
    incomp = os.path.join(a.build, "bin", "tb-incomp")
    ib = os.path.join(a.build, "bin", "tb-ib")
    cavity = os.path.join(ROOT, "inputs", "incompressible", "cavity3d_re1000.toml")
    sphere = os.path.join(ROOT, "inputs", "immersed", "sphere_re100_fine.toml")
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short=12", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    result = {"what": "pressure Poisson solvers inside the time loops, as shadows on identical systems",
              "script": "bench/time_loops/mg_pressure.py", "commit": commit,
              "date_utc": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
              "loadavg_before": loadavg(), "threads": a.threads or "policy", "scaling": [], "study": [],
              "immersed": None}
    with tempfile.TemporaryDirectory(prefix="tb-mg-pressure-") as work:
        for n, steps in grid_steps(a.grids):
            print(f"scaling {n}^3, {steps} steps", flush=True)
            specs = [f"cg({INCOMP_TOL})+mg", f"cg({INCOMP_TOL})+bilu0", f"petsc(ksp=cg,pc=gamg,{INCOMP_TOL})",
                     f"petsc(ksp=cg,pc=hypre,{INCOMP_TOL})"]
            if a.cuda:
                specs += [f"cg({INCOMP_TOL},backend=cuda)+mg", f"cg({INCOMP_TOL},backend=cuda)+fgbilu"]
            case = [cavity, "--steps", str(steps)] + sum((["--set", f"grid.{d}={n}"] for d in ("nx", "ny", "nz")), [])
            r = shadow_run(incomp, case, "pressure", specs, a.threads, work, f"scaling{n}")
            r["grid"] = n
            result["scaling"].append(r)
        for n, steps in grid_steps(a.study):
            print(f"study {n}^3, {steps} steps", flush=True)
            specs = [f"cg({INCOMP_TOL})+mg"] + [f"cg({INCOMP_TOL})+{s}" for s in STUDY]
            case = [cavity, "--steps", str(steps)] + sum((["--set", f"grid.{d}={n}"] for d in ("nx", "ny", "nz")), [])
            r = shadow_run(incomp, case, "pressure", specs, a.threads, work, f"study{n}")
            r["grid"] = n
            result["study"].append(r)
        if a.ib_steps > 0:
            print(f"immersed fine sphere, {a.ib_steps} steps", flush=True)
            specs = [f"bicgstab({IB_TOL})+mg", f"bicgstab({IB_TOL})+mg(remainder=smoother)",
                     f"bicgstab({IB_TOL})+mg(degree=2)", f"bicgstab({IB_TOL})+mg(smoother=gauss_seidel)",
                     f"bicgstab({IB_TOL})+mg(smoother=jacobi)", f"bicgstab({IB_TOL})+bilu0",
                     f"bicgstab_dia({IB_TOL})", f"petsc(ksp=bcgs,pc=gamg,{IB_TOL})",
                     f"petsc(ksp=bcgs,pc=hypre,{IB_TOL})"]
            result["immersed"] = shadow_run(ib, [sphere, "--steps", str(a.ib_steps)], "pressure", specs, a.threads,
                                            work, "immersed")
    result["loadavg_after"] = loadavg()
    result = {"about": about(result, a), **result}
    result = json.loads(json.dumps(result).replace(ROOT + "/", ""))
    os.makedirs(os.path.dirname(os.path.abspath(a.json)), exist_ok=True)
    with open(a.json, "w") as f:
        json.dump(result, f, indent=1)
    print(f"wrote {a.json}")


if __name__ == "__main__":
    main()
