#!/usr/bin/python3
"""tb-comp2d over many meshes and case variants, one line and one JSON record
per run: exit status, steps, converged, steps that reused their Jacobian,
CFL-cut counts by safeguard, FGMRES iterations, final CFL, Cl, Cd, wall time.
For checking that a change to the continuation (jacobian.reuse, a CFL
safeguard) holds beyond the shipped cases; --set adds keys to every run, so
two sweeps with and without a setting can be compared line by line. A --set
of a key a variant sets itself replaces the variant's value; the line and the
record name what was replaced.

  /usr/bin/python3 bench/comp2d/variants_sweep.py --json OUT.json [--set jacobian.reuse=1] [--only naca]

Needs the generated meshes (scripts/make-meshes.sh medium fine nested ogrid layered); --only cylinder_mesh runs
the cylinder case file on each cylinder mesh; runs
whose mesh is missing are skipped with a note. One thread, at most 400 steps.
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
G = "inputs/meshes/generated"
NACA = "inputs/compressible/naca0012_laminar.toml"
CYL = "inputs/compressible/cylinder_inviscid.toml"
FO = ["jacobian.form=first_order"]
COARSE = "mesh.file=inputs/meshes/naca0012_coarse.su2"  # 8,948 cells, no wake refinement: the variants of settings
EXACT_PRECONDITIONERS = [
    ("bilu0", "bilu0"),
    ("async", "async_bilu(build_sweeps=1,apply_sweeps=3)"),
    ("sync", "async_bilu(build_sweeps=1,apply_sweeps=3,schedule=sync)"),
    ("exact_factors_sync_apply", "async_bilu(build_sweeps=0,apply_sweeps=3,schedule=sync)"),
    ("sync_reuse", "async_bilu(build_sweeps=2,apply_sweeps=6,schedule=sync,reuse=true)"),
]
# (name, case file or None for the built-in case, --set keys)
RUNS = [
    ("naca_13k", NACA, [f"mesh.file={G}/naca0012_13k.msh"]),
    ("naca_coarse", NACA, [COARSE]),
    ("naca_wake", NACA, []),
    ("naca_medium", NACA, [f"mesh.file={G}/naca0012_medium.su2"]),
    ("naca_fine", NACA, [f"mesh.file={G}/naca0012_fine.su2"]),
] + [(f"naca_{lv}{q}", NACA, [f"mesh.file={G}/nested/naca0012_{lv}_{q}.su2"])
     for lv in ("L0", "L1", "L2") for q in ("q0", "q1")] + [
    ("naca_venkatakrishnan", NACA, [COARSE, "scheme.limiter=venkatakrishnan"]),
    ("naca_hllc", NACA, [COARSE, "scheme.flux=hllc"]),
    ("naca_rusanov", NACA, [COARSE, "scheme.flux=rusanov"]),
    ("naca_rusanov_jacobian", NACA, [COARSE, "jacobian.flux=rusanov"]),
    ("naca_first_order_form", NACA, [COARSE] + FO),
    ("naca_async_bilu_rcm", NACA, [COARSE, "mesh.ordering=rcm",
                                   "solver.flow=fgmres(restart=30,rtol=1e-1,maxit=60)+async_bilu(build_sweeps=1,apply_sweeps=3)"]),
    ("naca_13k_matrix_free", NACA, [f"mesh.file={G}/naca0012_13k.msh", "jacobian.form=matrix_free", "mesh.ordering=rcm",
                                    "solver.flow=fgmres(restart=30,rtol=1e-1,maxit=10)+bilu0"]),
    ("naca_medium_rcm_3e-2", NACA, [f"mesh.file={G}/naca0012_medium.su2", "mesh.ordering=rcm",
                                    "solver.flow=fgmres(restart=30,rtol=3e-2,maxit=60)+bilu0"]),
    ("naca_scheme_order_1", NACA, [COARSE, "scheme.order=1"]),
    ("cylinder_case_file", CYL, []),
    ("cylinder_case_file_then_mf", CYL, ["jacobian.form=first_order_then_matrix_free"]),
    ("cylinder_default", None, []),
    ("cylinder_default_limiter", None, ["scheme.limiter=venkatakrishnan"]),
    ("cylinder_medium", None, [f"mesh.file={G}/cylinder_medium.su2"]),
    ("cylinder_first_order_form", None, FO),
    ("cylinder_n40_q0_first_order_form", None, FO + [f"mesh.file={G}/nested/cylinder_n40_q0.su2"]),
    ("cylinder_n80_q1_first_order_form", None, FO + [f"mesh.file={G}/nested/cylinder_n80_q1.su2"]),
    ("cylinder_o128_t_first_order_form", None, FO + [f"mesh.file={G}/ogrid/cylinder_o128_t.su2"]),
] + [  # the exact Jacobian (jacobian.form = exact) with BiLU(0) and with the asynchronous ILU in the host's
    # order and in the synchronous (Jacobi) order, on the shipped cylinder (the GPU test's case) and the NACA0012
    (f"exact_cylinder_{name}", CYL, ["mesh.file=inputs/meshes/cylinder_coarse.msh", "jacobian.form=exact", "cfl.growth=1.5",
                                     f"solver.flow=fgmres(restart=30,rtol=1e-1,maxit=30)+{pc}"])
    for name, pc in EXACT_PRECONDITIONERS
] + [(f"exact_naca_{order}_{name}", NACA, ["jacobian.form=exact", f"mesh.ordering={order}",
                                            f"solver.flow=fgmres(restart=100,rtol=1e-1,maxit=300)+{pc}"])
     for order in ("rcm", "line-1wd") for name, pc in EXACT_PRECONDITIONERS] + [
    # the cylinder case file on every cylinder mesh make-meshes.sh makes (docs/compressible.md: from about 100 cells up)
    (f"cylinder_mesh_n{n}_{q}", CYL, [f"mesh.file={G}/nested/cylinder_n{n}_{q}.su2"])
    for n in (10, 20, 40, 80) for q in ("q0", "q1")
] + [(f"cylinder_mesh_o{n}_{k}", CYL, [f"mesh.file={G}/ogrid/cylinder_o{n}_{k}.su2"])
     for n in (16, 32, 64, 128) for k in ("q", "t")] + [
    ("cylinder_mesh_medium", CYL, [f"mesh.file={G}/cylinder_medium.su2"]),
    ("cylinder_mesh_coarse", CYL, ["mesh.file=inputs/meshes/cylinder_coarse.msh"]),
] + [(f"cylinder_mesh_layered_n{n}_{q}", CYL, [f"mesh.file={G}/layered/cylinder_layered_n{n}_{q}.su2"])
     for n in (32, 48, 64, 96, 128, 192) for q in ("q0", "q1")]


def missing_mesh(sets):
    for s in sets:
        if s.startswith("mesh.file=") and not os.path.exists(os.path.join(ROOT, s.split("=", 1)[1])):
            return s.split("=", 1)[1]
    return None


def overridden(sets, extra):
    """The variant's own keys that a --set of the same key gives another value (the later --set wins)."""
    keys = {e.split("=", 1)[0] for e in extra}
    return [s for s in sets if s.split("=", 1)[0] in keys and s not in extra]


def run(exe, name, case, sets, extra, work):
    out = os.path.join(work, name)
    cmd = [exe] + ([case] if case else []) + ["--steps", "400", "--out", out]
    for s in sets + extra:
        cmd += ["--set", s]
    env = dict(os.environ, OMP_NUM_THREADS="1", OMP_WAIT_POLICY="passive")
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, env=env)
    summary = json.load(open(os.path.join(out, "summary.json")))
    rows = list(csv.DictReader(open(os.path.join(out, "steps.csv"))))
    f = summary["figures_of_merit"]
    return {
        "name": name, "case": case or "(built-in)", "set": sets + extra, "overridden": overridden(sets, extra),
        "exit_status": proc.returncode,
        "steps": len(rows), "converged": bool(f["converged"]),
        "jacobian_reused": sum(r.get("res:jacobian_reused") == "1" for r in rows),
        "cfl_cuts": {c: sum(r["res:cfl_cut"] == c for r in rows) for c in ("1", "2", "3", "4")},
        "linear_iterations": sum(t["iterations"] for t in summary["totals"].values()),
        "final_cfl": f["final_cfl"], "cl": f["cl"], "cd": f["cd"], "wall_seconds": summary["wall_seconds"],
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default="build/bin")
    ap.add_argument("--json", help="write the records here")
    ap.add_argument("--set", action="append", default=[], help="a case key for every run (repeatable)")
    ap.add_argument("--only", help="only the runs whose name contains this text (or one of these, comma-separated)")
    a = ap.parse_args()
    exe = os.path.abspath(os.path.join(ROOT, a.bin, "tb-comp2d")) if not os.path.isabs(a.bin) else os.path.join(a.bin, "tb-comp2d")
    records = []
    with tempfile.TemporaryDirectory() as work:
        for name, case, sets in RUNS:
            if a.only and not any(part in name for part in a.only.split(",")):
                continue
            mesh = missing_mesh(sets)
            if mesh:
                print(f"{name}: skipped, no {mesh} (scripts/make-meshes.sh)", file=sys.stderr)
                continue
            r = run(exe, name, case, sets, a.set, work)
            records.append(r)
            cuts = "/".join(str(r["cfl_cuts"][c]) for c in ("1", "2", "3", "4"))
            print(f"{name:34s} exit {r['exit_status']} steps {r['steps']:4d} converged {int(r['converged'])} "
                  f"reused {r['jacobian_reused']:3d} cuts {cuts:>11s} its {r['linear_iterations']:6d} "
                  f"cfl {r['final_cfl']:7.0f} cl {r['cl']:+.5f} cd {r['cd']:.6f} wall {r['wall_seconds']:.2f}"
                  + (f" (--set replaced {', '.join(r['overridden'])})" if r["overridden"] else ""), flush=True)
    if a.json:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
        with open(a.json, "w") as f:
            json.dump({"commit": head.stdout.strip(), "set": a.set, "loadavg": open("/proc/loadavg").read().split()[:3],
                       "runs": records}, f, indent=1)


if __name__ == "__main__":
    main()
