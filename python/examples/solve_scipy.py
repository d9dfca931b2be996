#!/usr/bin/python3
# %% [markdown]
# # The testbed's solvers on a SciPy matrix
# Notebook-style (cells marked `# %%`, open it in Jupyter or VS Code, or run it
# as a script). Needs the tb_solvers package on PYTHONPATH: `<build>/python`
# in a build tree, `<prefix>/lib/python3/dist-packages` once installed.

# %%
import numpy as np
import scipy.sparse as sp

import tb_solvers

# %% [markdown]
# A 2D convection-diffusion matrix on a 48 x 48 grid (upwinded, so not
# symmetric) and a right-hand side with a known solution.

# %%
n = 48
h = 1.0 / (n + 1)
lap = sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(n, n)) / h**2
conv = sp.diags([-1.0, 1.0], [-1, 0], shape=(n, n)) / h * 20.0
one = sp.identity(n)
a = (sp.kron(one, lap + conv) + sp.kron(lap, one)).tocsr()
x_true = np.random.default_rng(3).standard_normal(a.shape[0])
b = a @ x_true

# %% [markdown]
# Several specifications side by side; `stats` is the solver's SolveStats.

# %%
specs = ["gmres(restart=30,rtol=1e-10)+bilu0", "bicgstab(rtol=1e-10)+jacobi", "fgmres(rtol=1e-10)+fgbilu"]
if tb_solvers.has_petsc:
    specs.append("petsc(ksp=gmres,pc=hypre,format=aij,rtol=1e-10)")
print(f"{'solver':52s} {'iters':>6s} {'reason':16s} {'error':>9s}")
for spec in specs:
    x, stats = tb_solvers.solve(a, b, spec)
    error = np.linalg.norm(x - x_true) / np.linalg.norm(x_true)
    print(f"{spec:52s} {stats['iterations']:6d} {stats['reason']:16s} {error:9.2e}")
    assert stats["converged"] and error < 1e-6

# %% [markdown]
# The residual history of the last solve (PETSc's own norm for petsc(...)).

# %%
history = np.asarray(stats["residual_history"])
print("residual reduction per iteration (geometric mean):",
      (history[-1] / history[0]) ** (1.0 / max(1, len(history) - 1)))
