#!/usr/bin/python3
"""tb_solvers from Python against tb-solve on the same files.

usage: test_tb_solvers.py TB_SOLVE WORKDIR

A SciPy matrix (2D Poisson, 5-point) is solved from Python; the same matrix and
right-hand side, written by the bindings, are solved by tb-solve with the same
specification: the iteration counts must be equal and the residuals agree. A
generated block system round-trips through MatrixMarket with its block size,
and bad input raises ValueError naming what is wrong."""
import json
import os
import subprocess
import sys

import numpy as np
import scipy.sparse as sp

import tb_solvers


def poisson2d(n):
    t = sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(n, n))
    return (sp.kron(sp.identity(n), t) + sp.kron(t, sp.identity(n))).tocsr()


def tb_solve_iterations(tb_solve, work, a_path, b_path, spec, block_size=1):
    out = os.path.join(work, "stats.json")
    subprocess.run([tb_solve, a_path, "--rhs", b_path, "--solver", spec, "--block-size", str(block_size), "--json",
                    out], check=True, stdout=subprocess.DEVNULL)
    with open(out) as f:
        solve = json.load(f)["solves"][0]
    return solve["stats"]["iterations"], solve["true_relative_residual"]


def check_against_tb_solve(tb_solve, work, a, b, spec, block_size=1):
    x, st = tb_solvers.solve(a, b, spec, block_size=block_size)
    assert st["converged"], st
    assert st["iterations"] > 2, st  # a real iteration, not a lucky x0
    rel = np.linalg.norm(b - a @ x) / np.linalg.norm(b)
    assert rel < 1e-6, (spec, rel)
    assert abs(st["final_residual"] / np.linalg.norm(b) - rel) <= 1e-3 * rel + 1e-15, (st["final_residual"], rel)
    a_path, b_path = os.path.join(work, "A.mtx"), os.path.join(work, "b.mtx")
    tb_solvers.write_matrix_market(a_path, a, block_size=block_size)
    tb_solvers.write_vector(b_path, b)
    its, tool_rel = tb_solve_iterations(tb_solve, work, a_path, b_path, spec, block_size)
    print(f"{spec}: python {st['iterations']} iterations (rel. residual {rel:.3e}), "
          f"tb-solve {its} (rel. residual {tool_rel:.3e})")
    assert its == st["iterations"], (spec, its, st["iterations"])
    assert abs(tool_rel - rel) <= 1e-6 * rel, (tool_rel, rel)


def main():
    tb_solve, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    a = poisson2d(40)
    b = a @ np.linspace(0.0, 1.0, a.shape[0])
    specs = ["cg(rtol=1e-8)+jacobi", "gmres(restart=30,rtol=1e-8)+bilu0"]
    if tb_solvers.has_petsc:
        specs.append("petsc(ksp=cg,pc=jacobi,rtol=1e-8)")
    for spec in specs:
        check_against_tb_solve(tb_solve, work, a, b, spec)

    # A block system: generated, written with its block size, read back equal.
    g, bs, description = tb_solvers.generate("stencil7:nx=5,ny=4,nz=3,n=3")
    assert bs == 3 and g.shape == (180, 180), (bs, g.shape, description)
    path = os.path.join(work, "block.mtx")
    tb_solvers.write_matrix_market(path, g, block_size=bs)
    back, back_bs = tb_solvers.read_matrix_market(path)
    assert back_bs == 3 and abs(back - g).max() == 0.0
    bb = g @ np.ones(g.shape[0])
    check_against_tb_solve(tb_solve, work, g, bb, "bicgstab(rtol=1e-9)+bilu0", block_size=bs)
    x, st = tb_solvers.solve(sp.bsr_matrix(g, blocksize=(3, 3)), bb, "bicgstab(rtol=1e-9)+bilu0")
    assert st["converged"] and np.allclose(x, 1.0, atol=1e-6)

    for bad, word in [("gmress+bilu0", "gmress"), ("gmres(restartt=3)", "restartt")]:
        try:
            tb_solvers.solve(a, b, bad)
        except ValueError as e:
            assert word in str(e), str(e)
        else:
            raise AssertionError("no error for " + bad)
    print("tb_solvers: all checks passed")


if __name__ == "__main__":
    main()
