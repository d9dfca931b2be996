#!/usr/bin/python3
"""Fails when a program loads one of the named libraries at start-up.

    check_not_linked.py PROGRAM NAME...

cuBLAS and cuSPARSE (with libcublasLt and libnvJitLink) cost every process that
loads them about 180 MiB resident and 0.1 s, and only the multicolour solver's
library baseline uses them, which opens them itself (docs/multicolor.md);
libpetsc brings about a hundred libraries (26 MiB, 0.07 s) for the `petsc`
solver alone, which opens it itself (docs/petsc.md): a miniapp must not link
them. Reads ldd's list of the libraries the dynamic loader maps.
"""
import subprocess
import sys

program, names = sys.argv[1], sys.argv[2:]
listing = subprocess.run(["ldd", program], capture_output=True, text=True, check=True).stdout
found = [line.split()[0] for line in listing.splitlines() if any(n in line for n in names)]
if found:
    print(f"check_not_linked: {program} loads {', '.join(found)} at start-up")
    sys.exit(1)
print(f"check_not_linked: {program} loads none of {', '.join(names)}")
