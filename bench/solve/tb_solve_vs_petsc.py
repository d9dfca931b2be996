#!/usr/bin/python3
"""tb-solve against PETSc on the same system file, alternating runs (bench/README.md).

Both sides read the same MatrixMarket file written by `tb-solve --write-matrix`
and solve it with FGMRES(30), rtol 1e-8, x0 = 0, b = A * ones, preconditioned by
block ILU(0): ours `fgmres(restart=30,rtol=1e-8)+bilu0` (set-up = operator copy,
symbolic and numeric factorisation), PETSc 3.18's BAIJ `-pc_type ilu` through
petsc4py (set-up = KSPSetUp: symbolic and numeric ILU(0)). Both on one thread.
Runs alternate (ours, PETSc, ours, ...) because this VM is shared and noisy; the
ratio of medians is reported, with the machine's load average.

  /usr/bin/python3 bench/solve/tb_solve_vs_petsc.py --tb-solve build/bin/tb-solve \\
      --grid 32 --block-size 5 --reps 5 --json bench/results/host-tb-solve-vs-petsc.json
"""
import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time


def petsc_run(path, restart, rtol):
    import numpy as np
    import scipy.io
    from petsc4py import PETSc

    t0 = time.perf_counter()
    a = scipy.io.mmread(path).tocsr()
    read = time.perf_counter() - t0
    with open(path) as f:
        bs = 1
        for line in f:
            if not line.startswith("%"):
                break
            if "block size" in line or "block_size" in line:
                bs = int(line.replace("=", " ").split()[-1])
    n = a.shape[0]
    t0 = time.perf_counter()
    m = PETSc.Mat().createAIJ(size=(n, n), csr=(a.indptr.astype(PETSc.IntType), a.indices.astype(PETSc.IntType), a.data))
    m.setBlockSize(bs)
    m = m.convert("baij")
    convert = time.perf_counter() - t0
    x = m.createVecRight()
    b = m.createVecLeft()
    ones = m.createVecRight()
    ones.set(1.0)
    m.mult(ones, b)
    ksp = PETSc.KSP().create(comm=PETSc.COMM_SELF)
    ksp.setOperators(m)
    ksp.setType("fgmres")
    ksp.setGMRESRestart(restart)
    ksp.setTolerances(rtol=rtol, atol=0.0, max_it=2000)
    ksp.getPC().setType("ilu")
    t0 = time.perf_counter()
    ksp.setUp()
    setup = time.perf_counter() - t0
    x.set(0.0)
    t0 = time.perf_counter()
    ksp.solve(b, x)
    solve = time.perf_counter() - t0
    return {"read_s": read, "convert_s": convert, "setup_s": setup, "solve_s": solve, "iterations": ksp.getIterationNumber(),
            "reason": int(ksp.getConvergedReason())}


def ours_run(tb_solve, path, restart, rtol):
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        env = dict(os.environ, OMP_NUM_THREADS="1")
        spec = f"fgmres(restart={restart},rtol={rtol})+bilu0"
        subprocess.run([tb_solve, path, "--solver", spec, "--json", out.name], check=True, env=env,
                       stdout=subprocess.DEVNULL)
        d = json.load(open(out.name))
    s = d["solves"][0]
    return {"read_s": d["read_seconds"], "convert_s": d["convert_seconds"], "setup_s": s["stats"]["setup_seconds"],
            "symbolic_s": s["symbolic_seconds"], "numeric_s": s["numeric_seconds"], "solve_s": s["stats"]["solve_seconds"],
            "iterations": s["stats"]["iterations"], "reason": s["stats"]["reason"]}


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tb-solve", default="build/bin/tb-solve")
    p.add_argument("--grid", type=int, default=32)
    p.add_argument("--block-size", type=int, default=5)
    p.add_argument("--restart", type=int, default=30)
    p.add_argument("--rtol", type=float, default=1e-8)
    p.add_argument("--reps", type=int, default=5)
    p.add_argument("--json")
    o = p.parse_args()
    if o.reps < 1 or o.grid < 2 or not 1 <= o.block_size <= 64:
        sys.exit("tb_solve_vs_petsc.py: --reps >= 1, --grid >= 2, --block-size 1..64")
    os.environ["OMP_NUM_THREADS"] = "1"
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "A.mtx")
        g = o.grid
        subprocess.run([o.tb_solve, "--generate", f"stencil7:nx={g},ny={g},nz={g},n={o.block_size}", "--write-matrix",
                        path, "--solver", "bicgstab(maxit=1)+identity"], stdout=subprocess.DEVNULL)
        if not os.path.exists(path):
            sys.exit("tb_solve_vs_petsc.py: tb-solve did not write the system")
        ours, petsc = [], []
        for _ in range(o.reps):
            ours.append(ours_run(o.tb_solve, path, o.restart, o.rtol))
            petsc.append(petsc_run(path, o.restart, o.rtol))
    med = lambda runs, k: statistics.median(r[k] for r in runs)
    summary = {k: {"ours": med(ours, k), "petsc": med(petsc, k), "ratio": med(ours, k) / med(petsc, k)}
               for k in ("setup_s", "solve_s")}
    tot_o = statistics.median(r["setup_s"] + r["solve_s"] for r in ours)
    tot_p = statistics.median(r["setup_s"] + r["solve_s"] for r in petsc)
    summary["setup_plus_solve_s"] = {"ours": tot_o, "petsc": tot_p, "ratio": tot_o / tot_p}
    for k, v in summary.items():
        print(f"{k:20s} ours {v['ours']:.4f}  PETSc {v['petsc']:.4f}  ratio {v['ratio']:.2f}")
    print(f"iterations: ours {ours[0]['iterations']}, PETSc {petsc[0]['iterations']}")
    doc = {"benchmark": "tb-solve against PETSc BAIJ ILU(0), FGMRES(%d), rtol %g" % (o.restart, o.rtol),
           "system": f"stencil7:nx={g},ny={g},nz={g},n={o.block_size} ({g ** 3 * o.block_size} rows)",
           "machine": {"host": platform.node(), "cpu": platform.processor() or platform.machine(),
                       "load_average_at_end": os.getloadavg()[0]},
           "commit": subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip(),
           "date_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
           "threads": 1, "runs_alternated": o.reps, "summary_medians": summary, "ours": ours, "petsc": petsc}
    if o.json:
        with open(o.json, "w") as f:
            json.dump(doc, f, indent=1)


if __name__ == "__main__":
    main()
