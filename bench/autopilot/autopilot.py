#!/usr/bin/python3
"""The solver autopilot against each of its candidates run alone (docs/autopilot.md).

Per case: every candidate runs alone as the system's solver; then the
autopilot over the same candidates starts from the worst of them (the one
with the most linear time alone) and runs the same steps. Runs alternate
(candidate 1, 2, ..., autopilot, candidate 1, ...) because this VM is shared
and noisy; each figure is the median over --reps. Recorded per run: exit
status, steps, the system's linear time (set-up + solve of the solver in
charge, from summary.json's totals) plus, for the autopilot, the probes'
seconds, the switches, and the figures of merit. Reported per case:
  ratio     autopilot linear time (probes included) / the best candidate's alone
  overhead  probe seconds / the autopilot's linear time
  beats     whether the autopilot beat every candidate alone

  /usr/bin/python3 bench/autopilot/autopilot.py --bin build/bin --reps 3 \\
      --json bench/results/host-autopilot.json
  /usr/bin/python3 bench/autopilot/autopilot.py --quick     # smoke run, a few steps a case
"""
import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

FLOW = "fgmres(restart=30,rtol=1e-1,maxit=60)"  # the NACA 0012 case file's: the paper's system
FLOW_MF = "fgmres(restart=30,rtol=1e-1,maxit=10)"  # tb-comp2d's default: a matrix-free step's preconditioner
# tb-incomp's pressure starts at the old pressure and stops at rtol ||b|| (docs/incompressible.md).
CG = "cg(rtol=1e-9,maxit=2000,relative_to=b)"
# tb-ib's candidates stop as its default solvers do: at rtol ||b|| (docs/immersed.md).
BICG = "bicgstab(rtol=1e-8,maxit=3000,relative_to=b)"
DIA = "bicgstab_dia(rtol=1e-8,maxit=3000,relative_to=b)"
# Seed 001's ordering for its asynchronous ILU (Table 3); the case file orders by RCM.
NACA_ORDER = ["--set", "mesh.ordering=line-1wd"]
# (label, program, arguments, system, candidates, every)
CASES = [
    ("tb-incomp default (100 steps), pressure", "tb-incomp", [], "pressure",
     [CG + "+jacobi", CG + "+fgbilu", CG + "+bilu0"], 40),
    # The default case is the inviscid cylinder with its CFL ramp, matrix-free: each step takes several
    # solves of the paper's system as the outer iteration's preconditioner.
    ("tb-comp2d default (matrix-free, to steady state), flow", "tb-comp2d", [], "flow",
     [FLOW_MF + "+bilu0", FLOW_MF + "+async_bilu(build_sweeps=1,apply_sweeps=3)", FLOW_MF + "+multicolor"], 4),
    # The same with the autopilot's default schedule (every=20), as a user who names only the candidates runs it.
    ("tb-comp2d default (matrix-free, to steady state), flow, every=20", "tb-comp2d", [], "flow",
     [FLOW_MF + "+bilu0", FLOW_MF + "+async_bilu(build_sweeps=1,apply_sweeps=3)", FLOW_MF + "+multicolor"], 20),
    # The shipped NACA 0012 case with its CFL ramp: block Jacobi fails alone but wins stretches of the run.
    # In the paper's ordering for the asynchronous ILU (NACA_ORDER).
    ("tb-comp2d naca0012_laminar CFL ramp (100 steps), flow", "tb-comp2d",
     ["inputs/compressible/naca0012_laminar.toml", "--steps", "100"] + NACA_ORDER, "flow",
     [FLOW + "+bilu0", FLOW + "+block_jacobi", FLOW + "+multicolor"], 20),
    ("tb-ib default (30 steps), pressure", "tb-ib", ["--steps", "30"], "pressure",
     [DIA, BICG + "+bilu0", BICG + "+jacobi"], 15),
    # The whole default run (to steady state, about 380 steps): the start-up round weighs what it does for a user.
    ("tb-ib default (to steady state), pressure", "tb-ib", [], "pressure",
     [DIA, BICG + "+bilu0", BICG + "+jacobi"], 40),
]
# --gpu: host against GPU candidates, on a machine with a GPU.
CUDA = "backend=cuda"
FLOW_GPU = "fgmres(restart=30,rtol=1e-1,maxit=60,%s)" % CUDA
FLOW_MF_GPU = "fgmres(restart=30,rtol=1e-1,maxit=10,%s)" % CUDA
CG_GPU = "cg(rtol=1e-9,maxit=2000,relative_to=b,%s)" % CUDA
BICG_GPU = "bicgstab(rtol=1e-8,maxit=3000,relative_to=b,%s)" % CUDA
GPU_CASES = [
    ("gpu: tb-incomp default (100 steps), pressure", "tb-incomp", [], "pressure",
     [CG + "+bilu0", CG_GPU + "+block_jacobi", CG_GPU + "+jacobi"], 40),
    ("gpu: tb-incomp cavity3d_re1000 (20 steps), pressure", "tb-incomp",
     ["inputs/incompressible/cavity3d_re1000.toml", "--steps", "20"], "pressure",
     [CG + "+bilu0", CG_GPU + "+block_jacobi", CG_GPU + "+jacobi"], 10),
    ("gpu: tb-comp2d default (matrix-free, to steady state), flow", "tb-comp2d", [], "flow",
     [FLOW_MF + "+bilu0", FLOW_MF_GPU + "+async_bilu(build_sweeps=1,apply_sweeps=3)", FLOW_MF_GPU + "+multicolor"], 4),
    ("gpu: tb-comp2d naca0012_laminar CFL ramp (100 steps), flow", "tb-comp2d",
     ["inputs/compressible/naca0012_laminar.toml", "--steps", "100"] + NACA_ORDER, "flow",
     [FLOW + "+bilu0", FLOW_GPU + "+async_bilu(build_sweeps=1,apply_sweeps=3)", FLOW_GPU + "+multicolor"], 20),
    # The host's candidate is tb-ib's default (BiLU(0)).
    ("gpu: tb-ib default (30 steps), pressure", "tb-ib", ["--steps", "30"], "pressure",
     [BICG + "+bilu0", "bicgstab_dia(rtol=1e-8,maxit=3000,relative_to=b,%s)" % CUDA,
      BICG_GPU + "+block_jacobi"], 15),
]
QUICK_STEPS = "4"


def run_once(binary, args, system, spec, out_dir):
    t0 = time.perf_counter()
    p = subprocess.run([binary] + args + ["--out", out_dir, "--set", "run.progress=false",
                                          "--set", "solver." + system + "=" + spec],
                       capture_output=True, text=True)
    rec = {"exit": p.returncode, "wall_s": time.perf_counter() - t0}
    if p.returncode != 0:
        rec["stderr"] = p.stderr[-400:]
    try:
        s = json.load(open(os.path.join(out_dir, "summary.json")))
    except (OSError, ValueError):
        return rec
    t = s["totals"].get("driver/" + system, {})
    rec.update({"steps": s["steps"], "converged": s.get("converged"),
                "solves": t.get("solves"), "iterations": t.get("iterations"), "failures": t.get("failures"),
                "linear_s": t.get("setup_seconds", 0.0) + t.get("solve_seconds", 0.0),
                "figures_of_merit": s.get("figures_of_merit", {})})
    ap = s.get("autopilot", {}).get(system)
    if ap:
        rec["probe_s"] = ap["probe_seconds"]
        rec["linear_s"] += ap["probe_seconds"]
        rec["switches"] = ap["switches"]
        rec["refused"] = ap["refused"]
        rec["fallbacks"] = ap["fallbacks"]
        rec["probes"] = len(ap["probes"])
        # Each probe (step, candidate, cost, iterations, cut, ...): what the decisions came from.
        rec["probe_log"] = ap["probes"]
    return rec


def autopilot_spec(candidates, every, start):
    return "autopilot(candidates=[%s], every=%d, start=%d)" % ("; ".join(candidates), every, start)


def median(runs, key):
    vals = [r[key] for r in runs if r.get(key) is not None]
    return statistics.median(vals) if vals else None


def linear_figures(runs, best_linear):
    """Median linear and probe seconds of autopilot runs, their ratio to the best candidate alone and the probing share."""
    linear, probe = median(runs, "linear_s"), median(runs, "probe_s")
    return (linear, probe, linear / best_linear if linear and best_linear else None,
            probe / linear if linear else None)


def bench_case(case, bin_dir, reps, quick, work, variant=None):
    label, program, args, system, candidates, every = case
    args = list(args)
    if quick:
        args = [a for a in args] + ["--steps", QUICK_STEPS]
    binary = os.path.join(bin_dir, program)
    alone = {c: [] for c in candidates}
    for rep in range(reps):  # the candidates alone first: the worst one starts the autopilot
        for k, c in enumerate(candidates):
            alone[c].append(run_once(binary, args, system, c, os.path.join(work, "c%d-%d" % (k, rep))))
    med = {c: median(alone[c], "linear_s") for c in candidates}
    # A run that stops unconverged at its step limit exits 1 (comp2d must converge): what counts is no failed solve.
    ok = {c: all(r.get("failures") == 0 for r in alone[c]) for c in candidates}
    # The worst: the most linear seconds per step (a candidate that fails stops the run early, so its
    # total is small; per step it is not).
    per_step = {c: median([dict(r, per_step=r["linear_s"] / max(1, r.get("steps") or 1)) for r in alone[c]
                           if r.get("linear_s") is not None], "per_step") for c in candidates}
    worst = max(candidates, key=lambda c: per_step[c] if per_step[c] is not None else float("inf"))
    start = candidates.index(worst) + 1
    spec = autopilot_spec(candidates, every, start)
    auto, other = [], []
    other_spec = spec[:-1] + ", " + variant + ")" if variant else None
    for rep in range(reps):  # alternated with one more run of each candidate (and of the variant)
        auto.append(run_once(binary, args, system, spec, os.path.join(work, "ap-%d" % rep)))
        if other_spec:
            other.append(run_once(binary, args, system, other_spec, os.path.join(work, "apv-%d" % rep)))
        for k, c in enumerate(candidates):
            alone[c].append(run_once(binary, args, system, c, os.path.join(work, "c%d-r%d" % (k, rep))))
    med = {c: median(alone[c], "linear_s") for c in candidates}
    good = [c for c in candidates if ok[c] and med[c] is not None]
    best = min(good, key=lambda c: med[c]) if good else None
    ap_linear, ap_probe, ap_ratio, ap_overhead = linear_figures(auto, med[best] if best else None)
    figures = {"autopilot": auto[0].get("figures_of_merit", {}),
               "best_alone": alone[best][0].get("figures_of_merit", {}) if best else {}}
    result = {
        "label": label, "system": system, "autopilot": spec, "candidates": candidates,
        "alone_linear_s": med, "alone_ok": ok, "alone_steps": {c: alone[c][0].get("steps") for c in candidates},
        "best_alone": best, "worst_alone": worst, "alone_linear_s_per_step": per_step,
        "autopilot_linear_s": ap_linear, "autopilot_probe_s": ap_probe,
        "autopilot_steps": auto[0].get("steps"), "autopilot_exit": [r["exit"] for r in auto],
        "autopilot_failures": [r.get("failures") for r in auto],
        "switches": auto[0].get("switches"), "refused": auto[0].get("refused"),
        "ratio_to_best": ap_ratio,
        "probe_overhead": ap_overhead,
        "beats_every_candidate": bool(ap_linear is not None and all(
            med[c] is None or not ok[c] or ap_linear < med[c] for c in candidates)),
        "figures_of_merit": figures,
        "runs": {"alone": alone, "autopilot": auto},
    }
    if other_spec:
        v_linear, v_probe, v_ratio, v_overhead = linear_figures(other, med[best] if best else None)
        result["variant"] = {
            "autopilot": other_spec, "linear_s": v_linear, "probe_s": v_probe,
            "steps": [r.get("steps") for r in other], "exit": [r["exit"] for r in other],
            "failures": [r.get("failures") for r in other], "switches": other[0].get("switches"),
            "ratio_to_best": v_ratio, "probe_overhead": v_overhead,
            "figures_of_merit": other[0].get("figures_of_merit", {}), "runs": other}
    return result


def write_json(a, reps, load_before, results):
    """Writes the results so far to --json (if given); returns the load average now."""
    with open("/proc/loadavg") as f:
        load_after = f.read().strip()
    if not a.json:
        return load_after
    gpu = ""
    if shutil.which("nvidia-smi"):
        gpu = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"],
                             capture_output=True, text=True).stdout.strip()
    commit = a.commit or subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                                        text=True).stdout.strip()
    out = {"machine": platform.node(), "gpu": gpu, "commit": commit,
           "date_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "cpus": os.cpu_count(),
           "loadavg_before": load_before,
           "loadavg_after": load_after, "reps": reps, "quick": a.quick, "cases": results}
    with open(a.json, "w") as f:
        json.dump(out, f, indent=1)
    return load_after


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default="build/bin")
    ap.add_argument("--reps", type=int, default=2)
    ap.add_argument("--json", help="write the results here")
    ap.add_argument("--quick", action="store_true", help="a few steps per case, one repetition")
    ap.add_argument("--cases", help="only the cases whose label contains this text")
    ap.add_argument("--commit", help="the commit of the tree measured (default: git rev-parse HEAD)")
    ap.add_argument("--gpu", action="store_true", help="the host-versus-GPU candidate lists instead (needs a GPU)")
    ap.add_argument("--variant", help="autopilot parameters to add for a second autopilot run, alternated with the "
                    "first (e.g. progress=on)")
    a = ap.parse_args()
    reps = 1 if a.quick else a.reps
    cases = [c for c in (GPU_CASES if a.gpu else CASES) if not a.cases or a.cases in c[0]]
    with open("/proc/loadavg") as f:
        load_before = f.read().strip()
    results = []
    load_after = load_before
    with tempfile.TemporaryDirectory(prefix="tb-autopilot-bench-") as work:
        for i, case in enumerate(cases):
            r = bench_case(case, a.bin, reps, a.quick, os.path.join(work, str(i)), a.variant)
            results.append(r)
            print("%s\n  alone: %s\n  autopilot (start %s): %.3f s linear, probes %.3f s; ratio to best %.2f, "
                  "overhead %.1f %%, beats all: %s; switches %s" % (
                      r["label"], ", ".join("%s %.3f s%s" % (c, v, "" if r["alone_ok"][c] else " (FAILED)")
                                            for c, v in r["alone_linear_s"].items()),
                      r["worst_alone"], r["autopilot_linear_s"] or float("nan"), r["autopilot_probe_s"] or 0.0,
                      r["ratio_to_best"] or float("nan"), 100 * (r["probe_overhead"] or 0.0),
                      r["beats_every_candidate"], [(s["step"], s["from"], s["to"]) for s in r["switches"] or []]))
            if "variant" in r:
                v = r["variant"]
                print("  variant %s: %.3f s linear, probes %.3f s; ratio to best %.2f, overhead %.1f %%, steps %s" % (
                    a.variant, v["linear_s"] or float("nan"), v["probe_s"] or 0.0, v["ratio_to_best"] or float("nan"),
                    100 * (v["probe_overhead"] or 0.0), v["steps"]))
            sys.stdout.flush()
            # After every case: a run cut short keeps what finished; the last write is the whole run's.
            load_after = write_json(a, reps, load_before, results)
    print("loadavg before: %s, after: %s" % (load_before, load_after))
    failed = [r["label"] for r in results if any(f != 0 for f in r["autopilot_failures"])]
    if failed:
        print("autopilot runs failed: %s" % failed)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
