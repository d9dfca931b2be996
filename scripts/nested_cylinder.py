#!/usr/bin/python3
"""Write one level of a nested sequence of triangle meshes about the cylinder as SU2.

    scripts/nested_cylinder.py LEVEL OUT.su2

Level 0 is the 128-triangle mesh of seed 001's code's cylinder cases: 16 nodes
on each of five rings about the unit-diameter cylinder (radii 0.5, 0.902, 2.20,
6.40, 20), every second ring turned by half a cell, the triangles spanning
neighbouring rings. Level k splits every triangle of level k - 1 into four at
its edge midpoints, the new boundary nodes moved radially onto their circle, so
level k has 128 * 4^k triangles and 16 * 2^k faces on the wall. Every level is
its own mirror image in y = 0 (and in every line through a level-0 node of the
first ring): the exact discrete steady flow has no lift, and a lift a run
reports is what its iteration left (docs/compressible-validation.md, "The
inviscid cylinder"). Markers: cylinder, farfield. Needs only Python's standard
library.
"""
import math
import sys

RADII = (0.5, 0.9018, 2.2015, 6.4048, 20.0)
PER_RING = 16


def level_zero():
    """Nodes, triangles (node triples) and the two circles' node sets of level 0."""
    nodes, rings = [], []
    for j, r in enumerate(RADII):
        turn = math.pi / PER_RING if j % 2 else 0.0
        rings.append([len(nodes) + i for i in range(PER_RING)])
        nodes += [(r * math.cos(turn + 2 * math.pi * i / PER_RING), r * math.sin(turn + 2 * math.pi * i / PER_RING))
                  for i in range(PER_RING)]
    triangles = []
    for j in range(len(RADII) - 1):
        a, b = rings[j], rings[j + 1]
        for i in range(PER_RING):
            nxt = (i + 1) % PER_RING
            if j % 2 == 0:  # b[i] lies half a cell after a[i]
                triangles += [(a[i], b[i], a[nxt]), (a[i], b[i - 1], b[i])]
            else:  # b[i] lies half a cell before a[i]
                triangles += [(a[i], b[i], b[nxt]), (a[i], b[nxt], a[nxt])]
    return nodes, triangles, [set(rings[0]), set(rings[-1])]


def split(nodes, triangles, circles):
    """Every triangle into four; midpoints of an edge on a circle moved onto it."""
    nodes, midpoint, out = list(nodes), {}, []

    def mid(p, q):
        key = (min(p, q), max(p, q))
        if key not in midpoint:
            x, y = 0.5 * (nodes[p][0] + nodes[q][0]), 0.5 * (nodes[p][1] + nodes[q][1])
            circle = next((c for c in circles if p in c and q in c), None)
            if circle is not None:
                scale = math.hypot(*nodes[p]) / math.hypot(x, y)
                x, y = x * scale, y * scale
                circle.add(len(nodes))
            midpoint[key] = len(nodes)
            nodes.append((x, y))
        return midpoint[key]

    for a, b, c in triangles:
        ab, bc, ca = mid(a, b), mid(b, c), mid(c, a)
        out += [(a, ab, ca), (ab, b, bc), (ca, bc, c), (ab, bc, ca)]
    return nodes, out, circles


def counterclockwise(nodes, t):
    (x0, y0), (x1, y1), (x2, y2) = (nodes[k] for k in t)
    return t if (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0) > 0 else (t[0], t[2], t[1])


def boundary_edges(triangles, circle):
    """Edges of one triangle only whose nodes both lie on the circle."""
    count = {}
    for t in triangles:
        for e in ((t[0], t[1]), (t[1], t[2]), (t[2], t[0])):
            key = (min(e), max(e))
            count[key] = count.get(key, 0) + 1
    return [e for e, n in count.items() if n == 1 and e[0] in circle and e[1] in circle]


def main(argv):
    if len(argv) != 3 or not argv[1].isdigit() or int(argv[1]) > 6:
        sys.exit("usage: nested_cylinder.py LEVEL OUT.su2   (LEVEL 0-6: 128 * 4^LEVEL triangles)")
    nodes, triangles, circles = level_zero()
    for _ in range(int(argv[1])):
        nodes, triangles, circles = split(nodes, triangles, circles)
    triangles = [counterclockwise(nodes, t) for t in triangles]
    markers = [("cylinder", boundary_edges(triangles, circles[0])), ("farfield", boundary_edges(triangles, circles[1]))]
    with open(argv[2], "w") as f:
        f.write(f"NDIME= 2\nNELEM= {len(triangles)}\n")
        f.writelines(f"5 {a} {b} {c} {k}\n" for k, (a, b, c) in enumerate(triangles))
        f.write(f"NPOIN= {len(nodes)}\n")
        f.writelines(f"{x:.17g} {y:.17g} {k}\n" for k, (x, y) in enumerate(nodes))
        f.write(f"NMARK= {len(markers)}\n")
        for name, edges in markers:
            f.write(f"MARKER_TAG= {name}\nMARKER_ELEMS= {len(edges)}\n")
            f.writelines(f"3 {a} {b}\n" for a, b in edges)
    print(f"nested_cylinder: level {argv[1]}, {len(triangles)} triangles, {len(markers[0][1])} wall faces -> {argv[2]}")


if __name__ == "__main__":
    main(sys.argv)
