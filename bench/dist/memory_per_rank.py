#!/usr/bin/python3
"""Peak memory per rank of a miniapp run on 1 and on 2 ranks, read as resident
set size (RSS) and as proportional set size (PSS) from /proc every 20 ms.

RSS counts every page a process maps, so each rank counts the shared
libraries' pages in full although the ranks of a node share them. PSS divides
each shared page among the processes that map it: the ranks' PSS add up to
what the run occupies; both readings are given.

  /usr/bin/python3 bench/dist/memory_per_rank.py [--by-mapping] --json OUT.json -- PROGRAM [ARGS...]

The program runs alone (1 rank, no mpiexec) and under `mpiexec -n 2`, in turn,
--reps times each (Open MPI: --oversubscribe, and root allowed when run as root).

--by-mapping also reads /proc/PID/smaps at each sample and splits each
process's PSS at its peak by what is mapped: the heap, VTK's libraries, Open MPI's (with PMIx,
hwloc, libevent, UCX), the other libraries, the program itself, anonymous
mappings. It then gives the floor of the 2-rank PSS: what a rank would hold if
its heap were exactly half of one rank's and nothing else changed. (Reading
smaps costs more than smaps_rollup: the samples come further apart.)
"""
import argparse
import json
import os
import re
import subprocess
import tempfile
import time


def descendants(pid):
    """PIDs below pid (children, grandchildren...), from /proc/*/stat."""
    children = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        children.setdefault(ppid, []).append(int(d))
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        for c in children.get(p, []):
            out.append(c)
            todo.append(c)
    return out


def rollup(pid):
    """(rss_kib, pss_kib, command name, hwm_kib) of a process, or None once it
    is gone. hwm is the kernel's own peak RSS so far (VmHWM): exact, where the
    sampled RSS can miss a peak between two samples."""
    try:
        with open(f"/proc/{pid}/comm") as f:
            comm = f.read().strip()
        with open(f"/proc/{pid}/smaps_rollup") as f:
            text = f.read()
        with open(f"/proc/{pid}/status") as f:
            status = f.read()
    except OSError:
        return None
    rss, pss = re.search(r"^Rss:\s+(\d+)", text, re.M), re.search(r"^Pss:\s+(\d+)", text, re.M)
    if not rss or not pss:  # a process that has exited and not been reaped yet
        return None
    hwm = re.search(r"^VmHWM:\s+(\d+)", status, re.M)
    return int(rss.group(1)), int(pss.group(1)), comm, int(hwm.group(1)) if hwm else 0


def mapping_kind(path):
    """The category of a mapping in /proc/PID/smaps, by its path."""
    if path in ("[heap]", "[stack]", "[anon]"):
        return path.strip("[]")
    if "libvtk" in path:
        return "vtk"
    if "/bin/" in path and ".so" not in path:
        return "program"
    mpi = ("libmpi", "open-pal", "open-rte", "openmpi", "pmix", "hwloc", "libevent", "ucx", "libuc", "fabric")
    if any(m in path for m in mpi):
        return "mpi"
    if ".so" in path:
        return "other libraries"
    return "other"


def by_mapping(pid):
    """PSS (KiB) of a process by mapping_kind, or None once it is gone."""
    kinds, kind = {}, "other"
    try:
        with open(f"/proc/{pid}/smaps") as f:
            for line in f:
                if re.match(r"^[0-9a-f]+-[0-9a-f]+ ", line):
                    fields = line.split()
                    kind = mapping_kind(fields[5] if len(fields) > 5 else "[anon]")
                elif line.startswith("Pss:"):
                    kinds[kind] = kinds.get(kind, 0) + int(line.split()[1])
    except OSError:
        return None
    return kinds


def run(cmd, program, mappings=False):
    """Peak RSS and PSS (MiB) of each process whose name starts like the program's."""
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peaks, split = {}, {}
    name = os.path.basename(program)[:15]
    while proc.poll() is None:
        for pid in [proc.pid] + descendants(proc.pid):
            r = rollup(pid)
            if r is None or not (r[2].startswith(name[:15]) or r[2] == "exe"):
                continue
            old = peaks.get(pid, (0, 0, 0))
            peaks[pid] = (max(old[0], r[0]), max(old[1], r[1]), max(old[2], r[3]))
            if mappings:
                kinds = by_mapping(pid)
                if kinds and sum(kinds.values()) > sum(split.get(pid, {}).values()):
                    split[pid] = kinds
        time.sleep(0.02)
    ranks = sorted(peaks.values(), reverse=True)
    out = {"exit": proc.returncode, "processes": len(ranks),
           "peak_rss_mib": [r[0] / 1024 for r in ranks], "peak_pss_mib": [r[1] / 1024 for r in ranks],
           "peak_rss_hwm_mib": [r[2] / 1024 for r in ranks]}
    if mappings:  # each process's split at its own peak, the largest first
        out["peak_pss_by_mapping_mib"] = [{k: v / 1024 for k, v in sorted(kinds.items())}
                                          for kinds in sorted(split.values(), key=lambda d: -sum(d.values()))]
    return out


def floor_of_two(one, two):
    """The larger rank's peak PSS at 2 ranks with its heap replaced by half of
    one rank's heap, over one rank's peak PSS (both from the smaps split)."""
    a, b = one["peak_pss_by_mapping_mib"][0], two["peak_pss_by_mapping_mib"][0]
    return (sum(b.values()) - b.get("heap", 0) + a.get("heap", 0) / 2) / sum(a.values())


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reps", type=int, default=2)
    ap.add_argument("--json")
    ap.add_argument("--by-mapping", action="store_true", help="split each process's peak PSS by mapping (smaps)")
    ap.add_argument("command", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = [c for c in a.command if c != "--"]
    env = dict(os.environ, OMP_NUM_THREADS="1", OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    os.environ.update(env)
    results = {"command": cmd, "loadavg_before": open("/proc/loadavg").read().split()[:3], "one": [], "two": []}
    with tempfile.TemporaryDirectory(prefix="tb-memory-") as work:
        for rep in range(a.reps):
            out1, out2 = os.path.join(work, f"one{rep}"), os.path.join(work, f"two{rep}")
            results["one"].append(run(cmd + ["--out", out1], cmd[0], a.by_mapping))
            results["two"].append(run(["mpiexec", "--oversubscribe", "-n", "2"] + cmd + ["--out", out2], cmd[0],
                                      a.by_mapping))
            one, two = results["one"][-1], results["two"][-1]
            print("rep %d: one rank RSS %.1f PSS %.1f MiB | two ranks (larger) RSS %.1f PSS %.1f MiB | ratios RSS %.2f "
                  "PSS %.2f" % (rep + 1, one["peak_rss_mib"][0], one["peak_pss_mib"][0], two["peak_rss_mib"][0],
                                two["peak_pss_mib"][0], two["peak_rss_mib"][0] / one["peak_rss_mib"][0],
                                two["peak_pss_mib"][0] / one["peak_pss_mib"][0]), flush=True)
            print("  kernel's peak RSS (VmHWM): one rank %.1f MiB, larger of two %.1f MiB, ratio %.2f"
                  % (max(one["peak_rss_hwm_mib"]), max(two["peak_rss_hwm_mib"]),
                     max(two["peak_rss_hwm_mib"]) / max(one["peak_rss_hwm_mib"])), flush=True)
            if a.by_mapping:
                for label, r in (("one rank", one), ("larger of two", two)):
                    kinds = r["peak_pss_by_mapping_mib"][0]
                    print("  %s, PSS at its smaps peak %.1f MiB: %s" % (
                        label, sum(kinds.values()),
                        ", ".join("%s %.2f" % kv for kv in sorted(kinds.items(), key=lambda kv: -kv[1]))))
                results.setdefault("floor_pss_ratio", []).append(floor_of_two(one, two))
                print("  2-rank PSS ratio with the heap exactly halved (the floor): %.2f"
                      % results["floor_pss_ratio"][-1], flush=True)
    results["loadavg_after"] = open("/proc/loadavg").read().split()[:3]
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
