#!/usr/bin/python3
"""Mirror a 2D SU2 mesh across y = 0 and join the halves.

    scripts/mirror_su2.py HALF.su2 OUT.su2 [--drop MARKER]

HALF lies in y >= 0 with its symmetry line on y = 0 (nodes there are shared by
both halves). Mirrored cells have their node order reversed so they stay
counter-clockwise; the marker named by --drop (default: symmetry) is left out,
every other marker gets its mirrored edges. Used by scripts/make-meshes.sh for
inputs/meshes/cylinder_symmetric.su2.
"""
import sys


def read_su2(path):
    lines = open(path).read().split("\n")
    cells, nodes, markers = [], [], {}
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("NELEM"):
            n = int(line.split("=")[1])
            cells = [list(map(int, lines[i + 1 + k].split()[:-1])) for k in range(n)]
            i += n + 1
        elif line.startswith("NPOIN"):
            n = int(line.split("=")[1].split()[0])
            nodes = [tuple(map(float, lines[i + 1 + k].split()[:2])) for k in range(n)]
            i += n + 1
        elif line.startswith("MARKER_TAG"):
            tag = line.split("=")[1].strip()
            n = int(lines[i + 1].split("=")[1])
            markers[tag] = [list(map(int, lines[i + 2 + k].split())) for k in range(n)]
            i += n + 2
        else:
            i += 1
    return cells, nodes, markers


def main(argv):
    if len(argv) not in (3, 5) or (len(argv) == 5 and argv[3] != "--drop"):
        sys.exit(__doc__)
    drop = argv[4] if len(argv) == 5 else "symmetry"
    cells, nodes, markers = read_su2(argv[1])
    if drop not in markers:
        sys.exit(f"mirror_su2: {argv[1]} has no marker '{drop}' (markers: {', '.join(markers)})")
    if any(y < -1e-12 for _, y in nodes):
        sys.exit(f"mirror_su2: {argv[1]} has nodes below y = 0")
    image, all_nodes = {}, list(nodes)
    for k, (x, y) in enumerate(nodes):
        if abs(y) <= 1e-12:
            image[k] = k
        else:
            image[k] = len(all_nodes)
            all_nodes.append((x, -y))
    all_cells = cells + [[c[0]] + [image[v] for v in reversed(c[1:])] for c in cells]
    out = ["NDIME= 2", f"NELEM= {len(all_cells)}"]
    out += [" ".join(map(str, c + [k])) for k, c in enumerate(all_cells)]
    out += [f"NPOIN= {len(all_nodes)}"] + [f"{x:.17g} {y:.17g} {k}" for k, (x, y) in enumerate(all_nodes)]
    kept = [t for t in markers if t != drop]
    out.append(f"NMARK= {len(kept)}")
    for tag in kept:
        edges = markers[tag] + [[t, image[b], image[a]] for t, a, b in markers[tag]]
        out += [f"MARKER_TAG= {tag}", f"MARKER_ELEMS= {len(edges)}"] + [" ".join(map(str, e)) for e in edges]
    open(argv[2], "w").write("\n".join(out) + "\n")


if __name__ == "__main__":
    main(sys.argv)
