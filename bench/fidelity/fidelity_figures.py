#!/usr/bin/python3
"""The validation figures of the miniapps against their published references,
for one build, as JSON. A run of one set that has an "about" (ABOUT: sphere)
writes a results file for bench/results (make_index.py); the others a plain
record.

  /usr/bin/python3 bench/fidelity/fidelity_figures.py --bin build/bin --sets sphere \\
      --json bench/results/host-ib-sphere-fidelity.json

Sets (--sets, comma-separated; `all` for every one):
  defaults        each miniapp's built-in case and the case files the figures
                  come from: tb-ib's sphere (Cd, its split, the recirculation
                  length L/D), tb-comp2d's cylinder and
                  laminar NACA 0012, tb-incomp's Re 100 cavity on 129 x 129
                  (each step's divergence after the projection: median, largest)
  sphere          tb-ib's default and sphere_re100_fine.toml: Cd and L/D
  sphere-fine     inputs/immersed/sphere_re100_fine.toml (about 10 minutes on
                  two ranks of the 2-core VM)
  naca-stencils   the laminar NACA 0012 on stretched hybrid meshes (first cell
                  5e-5 chords) made here with Gmsh from inputs/meshes/naca0012.geo,
                  with and without a refined near wake, for both gradient stencils
  cylinder-lift   the inviscid cylinder's lift: unstructured Gmsh meshes split
                  0-3 times (tb-comp2d's default and the case file), and
                  scripts/ogrid_cylinder.py's triangle O-grids 32-128 with the
                  diagonals mirrored, one way (next to the wall, everywhere) or
                  random, tb-comp2d's settings on the one-way 64 x 32 grid, and
                  scripts/nested_cylinder.py's nested triangle sequence (levels
                  0-3; the default, the case file, the residual down 1e-12)
  naca-sequence   mesh sequence of the NACA 0012 (every size halved a level, a
                  refined near wake) for both gradient stencils, the two coarser
                  levels also with constant viscosity and Rieper's fix; and the
                  set naca-stencils
  sphere-sequence the sphere at D/h 10, 12.7 and 20 in sphere_re100_fine.toml's
                  box (D/h 16 is that case itself, in the set "sphere")

Each case runs with OMP_NUM_THREADS=1 (two ranks for the fine sphere) inside
/work/bin/build-slot when that exists. Meshes and outputs go to --work
(default out/fidelity). Needs Python's standard library, gmsh for the meshes.
"""
import argparse
import csv
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
SLOT = "/work/bin/build-slot"

# NACA 0012 meshes: naca0012.geo parameters. The hybrid mesh of the kind the
# stencils are compared on: quadrilateral layers from 5e-5 chords, triangles out.
NACA_HYBRID = {"h_wall": 5e-5, "bl_ratio": 1.2}
NACA_WAKE = dict(NACA_HYBRID, h_wake=0.01)
# The sequence: every length halved a level, the growth ratio square-rooted.
NACA_LEVELS = [
    {"n_side": 61, "h_wall": 1e-4, "bl_ratio": 1.2, "h_near": 0.03, "h_wake": 0.02, "h_far": 8},
    {"n_side": 121, "h_wall": 5e-5, "bl_ratio": 1.2 ** 0.5, "h_near": 0.015, "h_wake": 0.01, "h_far": 4},
    {"n_side": 241, "h_wall": 2.5e-5, "bl_ratio": 1.2 ** 0.25, "h_near": 0.0075, "h_wake": 0.005, "h_far": 2},
]
# Sphere sequence: core widths D/h 10, 12.7 and 20, each with dt = 0.48 h; the
# box, its growth and the solvers as sphere_re100_fine.toml, whose own width
# (0.0625, D/h 16, the set "sphere") is the third level.
SPHERE_LEVELS = [0.1, 0.0786, 0.05]


def run(cmd, env_extra=None, cwd=ROOT):
    env = dict(os.environ, OMP_NUM_THREADS="1", OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    env.update(env_extra or {})
    full = ([SLOT] if os.path.exists(SLOT) else []) + cmd
    t0 = time.time()
    p = subprocess.run(full, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return p.returncode, time.time() - t0, p.stdout


def gmsh(out, geo, params, refine=0):
    if os.path.exists(out):
        return out
    os.makedirs(os.path.dirname(out), exist_ok=True)
    sets = []
    for k, v in params.items():
        sets += ["-setnumber", k, repr(v)]
    if refine == 0:
        subprocess.run(["gmsh", "-2", "-v", "0", geo] + sets + ["-format", "su2", "-o", out], check=True)
    else:
        wrapper = out + ".geo"
        with open(wrapper, "w") as f:
            for k, v in params.items():
                f.write(f"{k} = {v};\n")
            f.write(f'Include "{geo}";\nMesh 2;\n')
            f.write("RefineMesh;\n" * refine)
        subprocess.run(["gmsh", "-v", "0", wrapper, "-0", "-format", "su2", "-o", out], check=True)
    return out


def summary(folder):
    with open(os.path.join(folder, "summary.json")) as f:
        return json.load(f)


def last_fields(folder):
    fields = os.path.join(folder, "fields")
    names = sorted(n for n in os.listdir(fields) if n.startswith("flow_") and n.endswith((".vts", ".pvts")))
    pvts = [n for n in names if n.endswith(".pvts")]
    return os.path.join(fields, (pvts or names)[-1])


def case(results, name, app, args, work, bin_dir, ranks=1, extra=None):
    out = os.path.join(work, "runs", name)
    shutil.rmtree(out, ignore_errors=True)
    exe = os.path.join(bin_dir, app)
    cmd = ([shutil.which("mpiexec") or "mpiexec", "-n", str(ranks)] if ranks > 1 else []) + [exe] + args + [
        "--out", out, "--set", "run.progress=false"]
    rc, wall, log = run(cmd)
    entry = {"command": " ".join(cmd), "exit": rc, "elapsed_s": round(wall, 2)}
    if os.path.exists(os.path.join(out, "summary.json")):
        s = summary(out)
        entry["steps"] = s.get("steps")
        entry["wall_seconds"] = s.get("wall_seconds")
        entry["figures"] = s.get("figures_of_merit", {})
        if extra:
            entry.update(extra(out))
    else:
        entry["log_tail"] = log[-2000:]
    results[name] = entry
    f = entry.get("figures", {})
    shown = " ".join(f"{k}={v:.6g}" for k, v in f.items() if isinstance(v, float) and k in (
        "cd", "cl", "cd_pressure", "cd_viscous", "separation_x", "entropy_error", "max_divergence",
        "recirculation_length"))
    print(f"{name}: exit {rc}, {entry.get('steps')} steps, {wall:.1f} s {shown} "
          f"{' '.join(f'{k}={v}' for k, v in entry.items() if k in ('recirculation_length', 'divergence'))}",
          flush=True)


def incomp_extra(out):
    with open(os.path.join(out, "steps.csv")) as f:
        rows = list(csv.DictReader(f))
    div = [float(r["res:divergence"]) for r in rows]
    med = statistics.median(div)
    return {"divergence": {"median": med, "max": max(div), "max_over_median": max(div) / med,
                           "argmax_step": div.index(max(div)) + 1,
                           "pressure_iterations": sum(int(r["pressure:iterations"]) for r in rows),
                           "projection_corrections": sum(float(r.get("res:projection_corrections", 0)) for r in rows)}}


def set_defaults(results, work, b):
    case(results, "tb-ib default", "tb-ib", [], work, b)
    case(results, "tb-comp2d default", "tb-comp2d", [], work, b)
    case(results, "tb-comp2d cylinder_inviscid.toml", "tb-comp2d", ["inputs/compressible/cylinder_inviscid.toml"], work, b)
    case(results, "tb-comp2d naca0012_laminar.toml", "tb-comp2d", ["inputs/compressible/naca0012_laminar.toml"], work, b)
    case(results, "tb-incomp default", "tb-incomp", [], work, b, extra=incomp_extra)
    case(results, "tb-incomp cavity2d_re100.toml", "tb-incomp", ["inputs/incompressible/cavity2d_re100.toml"], work, b,
         extra=incomp_extra)


def set_sphere_fine(results, work, b):
    case(results, "tb-ib sphere_re100_fine.toml, 2 ranks", "tb-ib",
         ["inputs/immersed/sphere_re100_fine.toml", "--set", "run.output_every=0"], work, b, ranks=2)


def set_sphere(results, work, b):
    case(results, "tb-ib default", "tb-ib", [], work, b)
    set_sphere_fine(results, work, b)


# The "about" of a results file (bench/results/make_index.py) for the sets that
# have one: (what, headline, figures, front_page rows).
JP = "Johnson & Patel 1999"
ABOUT = {
    "sphere": (
        "tb-ib's sphere at Re 100 against Johnson & Patel 1999 (Cd 1.087, L/D 0.88): the built-in default "
        "(D/h = 10) on one thread and sphere_re100_fine.toml (D/h = 16) on two ranks",
        "default Cd {cd:.4f} ({cd_pc:+.1f} %), L/D {ld:.3f} ({ld_pc:+.1f} %) in {s:.0f} steps; "
        "fine Cd {fcd:.4f} ({fcd_pc:+.1f} %), L/D {fld:.3f} ({fld_pc:+.1f} %)",
        {"cd": "/cases/tb-ib default/figures/cd",
         "cd_pc": "/cases/tb-ib default/figures/cd / 1.087 * 100 - 100",
         "ld": "/cases/tb-ib default/figures/recirculation_length",
         "ld_pc": "/cases/tb-ib default/figures/recirculation_length / 0.88 * 100 - 100",
         "s": "/cases/tb-ib default/steps",
         "w": "/cases/tb-ib default/wall_seconds",
         "fcd": "/cases/tb-ib sphere_re100_fine.toml, 2 ranks/figures/cd",
         "fcd_pc": "/cases/tb-ib sphere_re100_fine.toml, 2 ranks/figures/cd / 1.087 * 100 - 100",
         "fld": "/cases/tb-ib sphere_re100_fine.toml, 2 ranks/figures/recirculation_length",
         "fld_pc": "/cases/tb-ib sphere_re100_fine.toml, 2 ranks/figures/recirculation_length / 0.88 * 100 - 100"},
        [{"row": "tb-ib default: sphere, Re 100, D/h = 10",
          "measured": "Cd {cd:.4f}, L/D {ld:.3f}; steady in {s:.0f} steps, {w:.1f} s",
          "reference": "Cd 1.087, L/D 0.88 (" + JP + ")", "order": 2},
         {"row": "tb-ib fine sphere, Re 100, D/h = 16", "measured": "Cd {fcd:.4f}, L/D {fld:.3f}",
          "reference": "Cd 1.087, L/D 0.88 (" + JP + ")", "order": 3}]),
    "naca-sequence": (
        "tb-comp2d's laminar NACA 0012 (M 0.5, Re 5000) on a sequence of stretched hybrid Gmsh meshes (first cell "
        "1e-4 to 2.5e-5 chords, every length halved a level, a refined near wake) with the default and the face "
        "gradient stencils, and on the hybrid mesh without and with the wake refinement (set naca-stencils)",
        "separation x/c, default against faces: {t0:.3f}/{f0:.3f}, {t1:.3f}/{f1:.3f}, {t2:.3f}/{f2:.3f} on 10k, 41k, "
        "160k cells; Cd {c0:.5f}, {c1:.5f}, {c2:.5f}; without the wake refinement {nt:.3f}/{nf:.3f}",
        {"t0": "/cases/naca0012 sequence L0 triangle_nodes/figures/separation_x",
         "f0": "/cases/naca0012 sequence L0 faces/figures/separation_x",
         "t1": "/cases/naca0012 sequence L1 triangle_nodes/figures/separation_x",
         "f1": "/cases/naca0012 sequence L1 faces/figures/separation_x",
         "t2": "/cases/naca0012 sequence L2 triangle_nodes/figures/separation_x",
         "f2": "/cases/naca0012 sequence L2 faces/figures/separation_x",
         "c0": "/cases/naca0012 sequence L0 triangle_nodes/figures/cd",
         "c1": "/cases/naca0012 sequence L1 triangle_nodes/figures/cd",
         "c2": "/cases/naca0012 sequence L2 triangle_nodes/figures/cd",
         "nt": "/cases/naca0012 hybrid triangle_nodes/figures/separation_x",
         "nf": "/cases/naca0012 hybrid faces/figures/separation_x"},
        []),
    "cylinder-lift": (
        "tb-comp2d's inviscid cylinder (M 0.38): the circulation of the discrete steady flow against the "
        "orientation of the cells next to the wall, on unstructured Gmsh meshes split 0-3 times and on "
        "scripts/ogrid_cylinder.py's triangle O-grids with the diagonals mirrored, one way or random, and on "
        "scripts/nested_cylinder.py's nested triangle sequence (seed 001's code's level 0, split cell by cell)",
        "Cl with the diagonals mirrored {m:.1e} (128 x 64); one way in the first ring only {r32:.2f}, {r64:.2f}, "
        "{r128:.2f} at 32, 64, 128 cells around; Gmsh splits 0-3 {g0:.2f}, {g1:.2f}, {g2:.2f}, {g3:.2f}; the nested "
        "triangle sequence (128-8,192 triangles) {n0:.0e}, {n1:.0e}, {n2:.0e}, {n3:.0e}, Cd {d0:.3f}, {d1:.3f}, "
        "{d2:.4f}, {d3:.4f}",
        {"m": "/cases/cylinder o-grid 128 mirrored/figures/cl",
         "r32": "/cases/cylinder o-grid 32 one-way ring 1/figures/cl",
         "r64": "/cases/cylinder o-grid 64 one-way ring 1/figures/cl",
         "r128": "/cases/cylinder o-grid 128 one-way ring 1/figures/cl",
         "g0": "/cases/cylinder unstructured split 0, default/figures/cl",
         "g1": "/cases/cylinder unstructured split 1, default/figures/cl",
         "g2": "/cases/cylinder unstructured split 2, default/figures/cl",
         "g3": "/cases/cylinder unstructured split 3, default/figures/cl",
         **{f"n{k}": f"/cases/cylinder nested L{k}, default/figures/cl" for k in range(4)},
         **{f"d{k}": f"/cases/cylinder nested L{k}, default/figures/cd" for k in range(4)}},
        []),
}


def set_naca_stencils(results, work, b):
    geo = os.path.join(ROOT, "inputs/meshes/naca0012.geo")
    for label, params in (("hybrid", NACA_HYBRID), ("hybrid, wake 0.01", NACA_WAKE)):
        mesh = gmsh(os.path.join(work, "meshes", "naca_" + label.replace(", ", "_").replace(" ", "") + ".su2"), geo,
                    params)
        for stencil in ("triangle_nodes", "faces"):
            case(results, f"naca0012 {label} {stencil}", "tb-comp2d",
                 ["inputs/compressible/naca0012_laminar.toml", "--set", "mesh.file=" + mesh, "--set",
                  "scheme.gradient_stencil=" + stencil], work, b)


def ogrid(work, n, flags):
    """scripts/ogrid_cylinder.py's triangle O-grid n x n/2 with these flags, made once."""
    path = os.path.join(work, "meshes", f"cylinder_o{n}_" + "_".join(f.strip("-") for f in flags) + ".su2")
    if not os.path.exists(path):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        subprocess.run([os.path.join(ROOT, "scripts/ogrid_cylinder.py"), str(n), str(n // 2), path, "--triangles"] +
                       flags, check=True)
    return path


# The orientation of the triangles next to the wall: scripts/ogrid_cylinder.py's
# diagonals, mirrored (the mesh its own mirror image), one way in the first ring
# only or everywhere, or by a coin.
ORIENTATIONS = [("mirrored", []), ("one-way ring 1", ["--diagonals", "one-way", "--rings", "1"]),
                ("one-way", ["--diagonals", "one-way"])] + [
                    (f"random seed {k}", ["--diagonals", "random", "--seed", str(k)]) for k in (1, 2, 3)]
# tb-comp2d settings tried on the one-way 64 x 32 O-grid.
VARIANTS = [("first order", ["scheme.order=1"]), ("face stencil", ["scheme.gradient_stencil=faces"]),
            ("interior boundary gradients", ["scheme.boundary_gradients=interior"]),
            ("pressure wall flux", ["boundary.wall_flux=pressure"]), ("rusanov", ["scheme.flux=rusanov"]),
            ("venkatakrishnan limiter", ["scheme.limiter=venkatakrishnan"]), ("mach 0.1", ["flow.mach=0.1"]),
            ("rel_tol 1e-10", ["converge.rel_tol=1e-10", "converge.force_tol=0"]),
            ("rel_tol 1e-10, start at CFL 20", ["converge.rel_tol=1e-10", "converge.force_tol=0", "cfl.start=20",
                                                "cfl.second_order=20"]),
            ("rel_tol 1e-10, the paper's system", ["converge.rel_tol=1e-10", "converge.force_tol=0",
                                                   "jacobian.form=first_order", "cfl.growth=1"])]


def set_cylinder_lift(results, work, b):
    geo = os.path.join(ROOT, "inputs/meshes/cylinder.geo")
    for k in range(4):
        path = gmsh(os.path.join(work, "meshes", f"cylinder_t10_split{k}.su2"), geo, {"n_theta": 10, "quads": 0},
                    refine=k)
        case(results, f"cylinder unstructured split {k}, default", "tb-comp2d", ["--set", "mesh.file=" + path], work, b)
        case(results, f"cylinder unstructured split {k}, case file", "tb-comp2d",
             ["inputs/compressible/cylinder_inviscid.toml", "--set", "mesh.file=" + path], work, b)
    for n in (32, 64, 128):
        for label, flags in ORIENTATIONS:
            case(results, f"cylinder o-grid {n} {label}", "tb-comp2d", ["--set", "mesh.file=" + ogrid(work, n, flags)],
                 work, b)
    for k in range(4):  # the nested triangle sequence: mirror images of themselves, split cell by cell
        path = os.path.join(work, "meshes", f"cylinder_nested_L{k}.su2")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        subprocess.run([os.path.join(ROOT, "scripts/nested_cylinder.py"), str(k), path], check=True)
        case(results, f"cylinder nested L{k}, default", "tb-comp2d", ["--set", "mesh.file=" + path], work, b)
        case(results, f"cylinder nested L{k}, case file", "tb-comp2d",
             ["inputs/compressible/cylinder_inviscid.toml", "--set", "mesh.file=" + path], work, b)
        case(results, f"cylinder nested L{k}, rel_tol 1e-12", "tb-comp2d",
             ["--set", "mesh.file=" + path, "--set", "converge.rel_tol=1e-12", "--set", "converge.force_tol=0"], work,
             b)
    one_way = ogrid(work, 64, ["--diagonals", "one-way"])
    for label, keys in VARIANTS:
        case(results, f"cylinder o-grid 64 one-way, {label}", "tb-comp2d",
             ["--set", "mesh.file=" + one_way] + [a for k in keys for a in ("--set", k)], work, b)


def set_naca_sequence(results, work, b):
    geo = os.path.join(ROOT, "inputs/meshes/naca0012.geo")
    for k, params in enumerate(NACA_LEVELS):
        mesh = gmsh(os.path.join(work, "meshes", f"naca_seq{k}.su2"), geo, params)
        for stencil in ("triangle_nodes", "faces"):
            case(results, f"naca0012 sequence L{k} {stencil}", "tb-comp2d",
                 ["inputs/compressible/naca0012_laminar.toml", "--set", "mesh.file=" + mesh, "--set",
                  "scheme.gradient_stencil=" + stencil, "--set", "run.steps=3000"], work, b)
        if k < 2:  # the benchmark's constant viscosity and Rieper's fix (tb-comp2d --help's sample run)
            case(results, f"naca0012 sequence L{k} triangle_nodes, rieper, constant viscosity", "tb-comp2d",
                 ["inputs/compressible/naca0012_laminar.toml", "--set", "mesh.file=" + mesh, "--set", "run.steps=3000",
                  "--set", "scheme.low_mach_fix=rieper", "--set", "flow.viscosity=constant", "--set",
                  "solver.flow=gmres(restart=20,rtol=7e-2,maxit=60)+bilu0"], work, b)
    set_naca_stencils(results, work, b)


def set_sphere_sequence(results, work, b):
    for h in SPHERE_LEVELS:
        dt = round(0.48 * h, 6)
        case(results, f"sphere D/h {1 / h:.3g}", "tb-ib",
             ["inputs/immersed/sphere_re100_fine.toml", "--set", f"grid.core_h={h}", "--set", f"time.dt={dt}",
              "--set", "run.output_every=0", "--set", "run.steps=6000"], work, b, ranks=2)


SETS = {"defaults": set_defaults, "sphere": set_sphere, "sphere-fine": set_sphere_fine, "naca-stencils": set_naca_stencils,
        "cylinder-lift": set_cylinder_lift, "naca-sequence": set_naca_sequence,
        "sphere-sequence": set_sphere_sequence}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default="build/bin")
    ap.add_argument("--sets", default="defaults")
    ap.add_argument("--work", default="out/fidelity")
    ap.add_argument("--json", required=True)
    ap.add_argument("--commit", default="", help="the build's commit (default: git rev-parse HEAD)")
    a = ap.parse_args()
    names = list(SETS) if a.sets == "all" else a.sets.split(",")
    for n in names:
        if n not in SETS:
            sys.exit(f"fidelity_figures: unknown set '{n}' (sets: {', '.join(SETS)})")
    bin_dir, work = os.path.abspath(a.bin), os.path.abspath(a.work)
    commit = a.commit or subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=ROOT, capture_output=True,
                                        text=True).stdout.strip()
    with open("/proc/cpuinfo") as f:
        cpu = next((ln.split(":", 1)[1].strip() for ln in f if ln.startswith("model name")), platform.processor())
    doc = {"benchmark": "fidelity_figures", "machine": {"hostname": platform.node(), "cpu_model": cpu,
                                                        "logical_cpus": os.cpu_count()},
           "commit": commit, "bin": bin_dir, "date_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
           "command": " ".join(sys.argv), "threads": "OMP_NUM_THREADS=1 per process",
           "load_average_1min_before": os.getloadavg()[0], "sets": names, "cases": {}}
    for n in names:
        SETS[n](doc["cases"], work, bin_dir)
    doc["load_average_1min_after"] = os.getloadavg()[0]
    if len(names) == 1 and names[0] in ABOUT:
        what, headline, figures, front_page = ABOUT[names[0]]
        doc = {"about": {"what": what, "command": "/usr/bin/python3 bench/fidelity/fidelity_figures.py " +
                         " ".join(sys.argv[1:]), "machine": "host", "device": cpu, "commit": commit,
                         "date": time.strftime("%Y-%m-%d", time.gmtime()), "headline": headline, "figures": figures,
                         **({"front_page": front_page} if front_page else {})}, **doc}
    os.makedirs(os.path.dirname(os.path.abspath(a.json)), exist_ok=True)
    with open(a.json, "w") as f:
        json.dump(doc, f, indent=1)
    print("fidelity_figures:", a.json)


if __name__ == "__main__":
    main()
