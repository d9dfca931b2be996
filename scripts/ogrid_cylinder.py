#!/usr/bin/python3
"""Write a structured O-grid around the unit-diameter cylinder as an SU2 mesh.

    scripts/ogrid_cylinder.py N_THETA N_RADIAL OUT.su2 [--triangles] [--far R]
                              [--diagonals mirrored|one-way|random] [--rings K] [--seed S]

N_THETA cells around the cylinder (even), N_RADIAL cells from the wall (radius
0.5) to the far field (radius R, default 50), spaced geometrically so that the
wall cells are about square. The grid is mirror-symmetric about y = 0 (a node
at theta = 0 and one at theta = pi). --triangles splits each quadrilateral
along a diagonal, mirrored between the upper and lower halves so that the
triangulation stays symmetric. Markers: cylinder, farfield.

--diagonals one-way splits every quadrilateral along the same diagonal (the
mesh is then its own image under rotation, not under mirroring); random picks
each cell's diagonal by a coin (--seed S, default 1). --rings K applies that
choice to the K rings next to the wall only, mirrored beyond. These meshes show
how the orientation of the cells at the wall selects the circulation of the
steady inviscid flow (docs/compressible-validation.md).

The nested sequence 16 x 8, 32 x 16, 64 x 32 and 128 x 64 (128 to 8,192
quadrilaterals) is scripts/make-meshes.sh ogrid. Needs only Python's
standard library.
"""
import math
import random
import sys


def radii(n_theta, n_radial, far):
    """n_radial + 1 radii from 0.5 to far, geometric, the first step the wall cell's arc."""
    first = 0.5 * 2.0 * math.pi / n_theta
    lo, hi = 1.0 + 1e-12, 10.0
    total = far - 0.5
    for _ in range(200):  # bisection on the ratio q: first (q^n - 1) / (q - 1) = total
        q = 0.5 * (lo + hi)
        if first * (q ** n_radial - 1.0) / (q - 1.0) > total:
            hi = q
        else:
            lo = q
    q = 0.5 * (lo + hi)
    r = [0.5]
    for j in range(n_radial):
        r.append(r[-1] + first * q ** j)
    r[-1] = far
    return r


def option(argv, args, name, default):
    """The value after --name in argv (removed from args), or default."""
    if name not in argv:
        return default
    k = argv.index(name)
    if k + 1 >= len(argv):
        sys.exit("ogrid_cylinder: %s needs a value" % name)
    args.remove(argv[k + 1])
    return argv[k + 1]


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    triangles = "--triangles" in argv
    far = float(option(argv, args, "--far", "50"))
    diagonals = option(argv, args, "--diagonals", "mirrored")
    rings = int(option(argv, args, "--rings", "0"))
    coin = random.Random(int(option(argv, args, "--seed", "1")))
    if len(args) != 3:
        sys.exit(__doc__)
    if diagonals not in ("mirrored", "one-way", "random"):
        sys.exit("ogrid_cylinder: --diagonals must be mirrored, one-way or random, not '%s'" % diagonals)
    n_theta, n_radial, out = int(args[0]), int(args[1]), args[2]
    if n_theta < 4 or n_theta % 2 or n_radial < 1 or not far > 0.5:
        sys.exit("ogrid_cylinder: N_THETA must be even and >= 4, N_RADIAL >= 1, the far field beyond radius 0.5")
    r = radii(n_theta, n_radial, far)

    def node(i, j):
        return j * n_theta + i % n_theta

    cells = []
    for j in range(n_radial):
        for i in range(n_theta):
            # a, b along the inner circle (theta growing), c, d on the outer one: a-d-c-b is counter-clockwise.
            a, b, c, d = node(i, j), node(i + 1, j), node(i + 1, j + 1), node(i, j + 1)
            own = diagonals != "mirrored" and (rings == 0 or j < rings)
            if not triangles:
                cells.append((9, a, d, c, b))
            elif (own and (diagonals == "one-way" or coin.random() < 0.5)) or (not own and i < n_theta // 2):
                # a-c: the upper half's diagonal; its mirror image is b-d
                cells += [(5, a, c, b), (5, a, d, c)]
            else:
                cells += [(5, a, d, b), (5, b, d, c)]
    with open(out, "w") as f:
        f.write("%% O-grid %d x %d around the cylinder (diameter 1), far field at radius %g%s:\n"
                % (n_theta, n_radial, far, ", triangles" if triangles else ""))
        f.write("%% scripts/ogrid_cylinder.py %s\n" % " ".join(argv[1:]))
        f.write("NDIME= 2\nNELEM= %d\n" % len(cells))
        for k, c in enumerate(cells):
            f.write(" ".join(map(str, c)) + " %d\n" % k)
        f.write("NPOIN= %d\n" % (n_theta * (n_radial + 1)))
        k = 0
        for j in range(n_radial + 1):
            for i in range(n_theta):
                # The lower half is the upper half mirrored, bit for bit.
                m = min(i, n_theta - i)
                t = 2.0 * math.pi * m / n_theta
                x, y = r[j] * math.cos(t), r[j] * math.sin(t)
                if m in (0, n_theta // 2):
                    y = 0.0
                f.write("%.17g %.17g %d\n" % (x, y if i == m else -y, k))
                k += 1
        f.write("NMARK= 2\n")
        for tag, j in (("cylinder", 0), ("farfield", n_radial)):
            f.write("MARKER_TAG= %s\nMARKER_ELEMS= %d\n" % (tag, n_theta))
            for i in range(n_theta):
                f.write("3 %d %d\n" % (node(i, j), node(i + 1, j)))


if __name__ == "__main__":
    main(sys.argv)
