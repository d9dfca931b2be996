"""The CFD solver testbed's linear solvers from Python.

    import scipy.sparse as sp, numpy as np, tb_solvers
    x, stats = tb_solvers.solve(A, b, "cg(rtol=1e-8)+jacobi")
    x, stats = tb_solvers.solve(A, b, "petsc(ksp=cg,pc=hypre)")   # when built with PETSc

Every specification tb-solve and the miniapps accept works here
(tb_solvers.solvers_help() lists them); stats is SolveStats as a dict.
Matrices are SciPy sparse matrices (a bsr_matrix keeps its block size),
vectors NumPy arrays. Errors in the input raise ValueError.
"""
import numpy as np
import scipy.sparse as sp

from . import _core

__all__ = ["solve", "read_matrix_market", "write_matrix_market", "read_vector", "write_vector", "generate",
           "solvers_help", "has_petsc"]

has_petsc = _core.has_petsc
Error = _core.Error


def _csr(a):
    if not sp.issparse(a):
        raise ValueError("A must be a SciPy sparse matrix, got %s" % type(a).__name__)
    csr = sp.csr_matrix(a, dtype=np.float64)
    csr.sort_indices()
    csr.sum_duplicates()
    return csr


def _from_parts(parts):
    indptr, indices, data, rows, cols = parts
    return sp.csr_matrix((data, indices, indptr), shape=(rows, cols))


def solve(a, b, spec="gmres(restart=30)+bilu0", x0=None, block_size=None):
    """Solve A x = b with the solver `spec`, from x0 (zeros by default).

    block_size: the BSR block size the solver works on; default: A's own for a
    bsr_matrix, else 1. Returns (x, stats) with stats a dict (reason,
    converged, iterations, initial_residual, final_residual,
    residual_history, setup_seconds, solve_seconds, device_launches,
    preconditioner_applications, preconditioner_launches, detail, solver)."""
    if block_size is None:
        block_size = a.blocksize[0] if sp.isspmatrix_bsr(a) else 1
    csr = _csr(a)
    rows, cols = csr.shape
    b = np.ascontiguousarray(b, dtype=np.float64).ravel()
    x0 = np.zeros(rows) if x0 is None else np.ascontiguousarray(x0, dtype=np.float64).ravel()
    return _core.solve_csr(csr.indptr, csr.indices, csr.data, rows, cols, b, x0, spec, int(block_size))


def read_matrix_market(path):
    """(A as csr_matrix, block size) from a MatrixMarket file; the block size is
    the file's '% block_size N' comment (the testbed's dumps have it), else 1."""
    parts, block_size = _core.read_matrix(str(path))
    return _from_parts(parts), block_size or 1


def write_matrix_market(path, a, block_size=1, comment=""):
    """Write A; with block_size > 1 every block entry is written (zeros too)
    with the block size comment, as the testbed's dumps are."""
    csr = _csr(a)
    _core.write_matrix(str(path), csr.indptr, csr.indices, csr.data, csr.shape[0], csr.shape[1], int(block_size),
                       comment)


def read_vector(path):
    """A vector (MatrixMarket array, or coordinate n x 1), e.g. a dump's b or x0."""
    return _core.read_vector(str(path))


def write_vector(path, v, comment=""):
    _core.write_vector(str(path), np.ascontiguousarray(v, dtype=np.float64).ravel(), comment)


def generate(spec):
    """(A as csr_matrix, block size, description) for a generator
    specification as tb-solve --generate takes it, e.g.
    'stencil7:nx=16,ny=16,nz=16,n=5' or 'anisotropic:nx=63,ny=63'."""
    parts, block_size, description = _core.generate(spec)
    return _from_parts(parts), block_size, description


def solvers_help():
    """Every solver name with its parameters and defaults (tb-solve --help)."""
    return _core.solvers_help()
