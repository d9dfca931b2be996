#!/usr/bin/env python3
"""Writes spd_sym_small.mtx and spd_sym_small_rhs.mtx without the project's own
writer, so the reader is checked against symmetric storage produced elsewhere.

The matrix is the 2D 5-point Laplacian on an 8 x 8 grid with Dirichlet
boundaries (64 rows, SPD), lower triangle only, column by column, values in
the '%.16e' style of scipy.io.mmwrite and Matlab's mmwrite. Plain Python: no
numpy or scipy needed.

    /usr/bin/python3 tests/data/make_spd_sym_small.py tests/data
"""
import math
import os
import sys

N = 8


def laplacian_lower(n):
    """(row, col, value), 1-based, row >= col, ordered column by column."""
    entries = []
    for col in range(n * n):
        i, j = divmod(col, n)
        entries.append((col + 1, col + 1, 4.0))
        if j + 1 < n:
            entries.append((col + 2, col + 1, -1.0))
        if i + 1 < n:
            entries.append((col + n + 1, col + 1, -1.0))
    return entries


def main(out_dir):
    entries = laplacian_lower(N)
    rows = N * N
    with open(os.path.join(out_dir, "spd_sym_small.mtx"), "w") as f:
        f.write("%%MatrixMarket matrix coordinate real symmetric\n")
        f.write("%\n")
        f.write("% 2D 5-point Laplacian, 8 x 8 grid, Dirichlet boundaries: SPD, 64 rows.\n")
        f.write("% Symmetric storage: lower triangle only, column by column.\n")
        f.write("% Written by tests/data/make_spd_sym_small.py, not by the testbed.\n")
        f.write("%d %d %d\n" % (rows, rows, len(entries)))
        for r, c, v in entries:
            f.write("%d %d %.16e\n" % (r, c, v))
    with open(os.path.join(out_dir, "spd_sym_small_rhs.mtx"), "w") as f:
        f.write("%%MatrixMarket matrix array real general\n")
        f.write("% right-hand side for spd_sym_small.mtx: b_i = sin(0.37 i) + 0.5, i = 0..63\n")
        f.write("%d 1\n" % rows)
        for i in range(rows):
            f.write("%.16e\n" % (math.sin(0.37 * i) + 0.5))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__)))
