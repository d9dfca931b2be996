#!/usr/bin/python3
"""The index of bench/results and the README's table of results, generated
from the result files themselves.

Every result file is JSON with an "about" object:

  "about": {
    "what":     "what was measured (one sentence)",
    "command":  "the command that wrote the file",
    "machine":  "host" | "host16" | "gpu",
    "device":   "the processor or GPU, as the run reported it",
    "commit":   "the build's commit",
    "date":     "YYYY-MM-DD",
    "headline": "text with {name} or {name:.3g} placeholders",
    "figures":  {"name": "EXPRESSION", ...},
    "front_page": [{"row": "label in the README table", "measured": "text with
                    placeholders (default: the headline)", "reference": "...", "order": 10}]
  }

"front_page" (optional; one object or a list) puts rows into the README's table.

An EXPRESSION is a sequence of terms separated by the operators + - * /
(a space either side), evaluated from left to right. A term is a number or
[REDUCER:]POINTER, where POINTER is a JSON pointer into the file whose
segments may be `*` (every element or member) or a pattern such as `*_faces`
(the members whose names match), and REDUCER one of min, max,
median, sum, count, first. A pointer that matches several values needs a
reducer. So the headline's figures are read from the data they summarise.

Machine classes: host, the 2-core development VM; host16, the 16-core host
CPU of the GPU machines; gpu, an NVIDIA H100 or H200 of those machines.

  make_index.py            write bench/results/README.md and the README's table
  make_index.py --check    exit 1 if either is stale, a file lacks its "about",
                           a document or a source file (its comments, its commands)
                           cites a results file that does not exist,
                           or the folder exceeds MAX_FILES / MAX_BYTES
"""
import fnmatch
import json
import os
import re
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
INDEX = os.path.join(HERE, "README.md")
FRONT_PAGE = os.path.join(ROOT, "README.md")
BEGIN = "<!-- results table: bench/results/make_index.py writes the rows below -->"
END = "<!-- end of the results table -->"
MAX_FILES = 80
MAX_BYTES = 2 * 1024 * 1024
MACHINES = {
    "host": "The development VM (2 cores)",
    "host16": "The 16-core host CPU of the GPU machines",
    "gpu": "An NVIDIA H100 or H200",
}
FIELDS = ("what", "command", "machine", "device", "commit", "date", "headline", "figures")
REDUCERS = {
    "min": min,
    "max": max,
    "median": statistics.median,
    "sum": sum,
    "count": len,
    "first": lambda v: v[0],
}
CITED = re.compile(r"bench/results/([A-Za-z0-9_.{},-]+[A-Za-z0-9}])")


class Bad(Exception):
    pass


def lookup(data, pointer):
    """Every value the pointer reaches; `*` fans out over lists and objects."""
    if not pointer.startswith("/"):
        raise Bad(f"pointer {pointer!r} does not start with /")
    found = [data]
    for raw in pointer.split("/")[1:]:
        key = raw.replace("~1", "/").replace("~0", "~")
        nxt = []
        for node in found:
            if key == "*":
                nxt.extend(node.values() if isinstance(node, dict) else node if isinstance(node, list) else [])
            elif "*" in key and isinstance(node, dict):
                nxt.extend(v for k, v in node.items() if fnmatch.fnmatchcase(k, key))
            elif isinstance(node, dict) and key in node:
                nxt.append(node[key])
            elif isinstance(node, list) and key.isdigit() and int(key) < len(node):
                nxt.append(node[int(key)])
        found = nxt
    if not found:
        raise Bad(f"pointer {pointer} reaches nothing")
    return found


def number(value):
    """A table cell kept as text ("489") counts as the number it spells."""
    if isinstance(value, str):
        try:
            return float(value.replace(",", ""))
        except ValueError:
            return value
    return value


def term(data, text):
    try:
        return float(text)
    except ValueError:
        pass
    reducer, _, pointer = text.partition(":")
    if not pointer:
        reducer, pointer = "", text
    values = [number(v) for v in lookup(data, pointer)]
    if reducer:
        if reducer not in REDUCERS:
            raise Bad(f"unknown reducer {reducer!r} in {text!r}")
        if reducer != "count":
            values = [v for v in values if isinstance(v, (int, float))]  # nulls: a run without that figure
            if not values:
                raise Bad(f"{text} reaches no number")
        values = [REDUCERS[reducer](values)]
    if len(values) != 1:
        raise Bad(f"{text} reaches {len(values)} values: name a reducer")
    return values[0]


def evaluate(data, expression):
    parts = re.split(r" ([-+*/]) ", expression)
    value = term(data, parts[0])
    for op, rhs in zip(parts[1::2], parts[2::2]):
        other = term(data, rhs)
        if op == "+":
            value += other
        elif op == "-":
            value -= other
        elif op == "*":
            value *= other
        elif op == "/":
            value /= other
        else:
            raise Bad(f"unknown operator {op!r} in {expression!r}")
    return value


def fill(template, figures):
    try:
        return template.format(**figures)
    except (KeyError, ValueError, IndexError) as e:
        raise Bad(f"{template!r}: {e}")


def front_page(about):
    rows = about.get("front_page", [])
    return [rows] if isinstance(rows, dict) else rows


def load(name):
    path = os.path.join(HERE, name)
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        raise Bad(f"not readable JSON: {e}")
    about = data.get("about") if isinstance(data, dict) else None
    if not isinstance(about, dict):
        raise Bad('no "about" object')
    missing = [k for k in FIELDS if k not in about]
    if missing:
        raise Bad(f"about lacks {', '.join(missing)}")
    if about["machine"] not in MACHINES:
        raise Bad(f"machine {about['machine']!r} is not one of {', '.join(MACHINES)}")
    if not re.fullmatch(r"\d{4}-\d\d-\d\d", about["date"]):
        raise Bad(f"date {about['date']!r} is not YYYY-MM-DD")
    try:
        figures = {name: evaluate(data, expr) for name, expr in about["figures"].items()}
    except (TypeError, ZeroDivisionError) as e:
        raise Bad(f"figures: {e}")
    rows = [dict(row, measured=fill(row.get("measured", about["headline"]), figures)) for row in front_page(about)]
    return about, fill(about["headline"], figures), rows


def result_files():
    return sorted(f for f in os.listdir(HERE) if f.endswith(".json"))


def collect():
    entries, errors = [], []
    for name in result_files():
        try:
            about, text, rows = load(name)
            entries.append((name, about, text, rows))
        except Bad as e:
            errors.append(f"bench/results/{name}: {e}")
    return entries, errors


def index_text(entries):
    lines = [
        "# Benchmark results",
        "",
        "One current file per benchmark and machine class; a later run replaces its",
        "file (git keeps the earlier ones). This page is written by",
        "`bench/results/make_index.py` from each file's `about` object, and a test",
        "(`docs.results_index`) fails when it is stale. How to run each benchmark:",
        "`bench/README.md`.",
        "",
    ]
    for machine, title in MACHINES.items():
        group = [e for e in entries if e[1]["machine"] == machine]
        if not group:
            continue
        lines += [f"## {title} (`{machine}`)", ""]
        for name, about, text, _ in group:
            lines += [
                f"**[`{name}`]({name})**: {about['what']}",
                f"{text}.",
                f"`{about['command']}`; {about['device']}, {about['commit']}, {about['date']}.",
                "",
            ]
    return "\n".join(lines).rstrip() + "\n"


def front_page_rows(entries):
    rows = []
    for name, about, text, front in entries:
        for row in front:
            rows.append((row.get("order", 100), row["row"], row["measured"], row.get("reference", ""), name))
    rows.sort()
    out = ["| result | measured | reference | file |", "|---|---|---|---|"]
    for _, row, text, ref, name in rows:
        out.append(f"| {row} | {text} | {ref} | [`{name}`](bench/results/{name}) |")
    return "\n".join(out)


def with_front_page(readme, rows):
    start, end = readme.find(BEGIN), readme.find(END)
    if start < 0 or end < start:
        raise Bad(f"README.md lacks the markers {BEGIN!r} ... {END!r}")
    return readme[:start + len(BEGIN)] + "\n" + rows + "\n" + readme[end:]


# The files whose text may cite a results file: documents, sources, scripts, case files.
CITING = (".md", ".cpp", ".hpp", ".cu", ".cuh", ".py", ".sh", ".toml", ".cmake", ".txt")


def cited_files():
    """(file, line, name) of every bench/results/NAME a document or a source file names."""
    found = []
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [
            d
            for d in dirs
            if not d.startswith(".") and not d.startswith("build") and d not in ("__pycache__", "corpus")
        ]
        for f in files:
            if not (f.endswith(CITING) or f == "CMakeLists.txt"):
                continue
            path = os.path.join(folder, f)
            rel = os.path.relpath(path, ROOT)
            if rel in (os.path.relpath(__file__, ROOT), os.path.relpath(INDEX, ROOT)):
                continue
            try:
                text = open(path, encoding="utf-8", errors="replace").read()
            except OSError:
                continue
            for number, line in enumerate(text.split("\n"), 1):
                for m in CITED.finditer(line):
                    found.append((rel, number, m.group(1)))
    return found


def expand(name):
    m = re.match(r"^(.*)\{([^}]*)\}(.*)$", name)
    if not m:
        return [name]
    return [m.group(1) + part + m.group(3) for part in m.group(2).split(",")]


def check_citations():
    present = set(os.listdir(HERE))
    errors = []
    for doc, line, name in cited_files():
        for each in expand(name):
            if each not in present and each.rstrip(".") not in present:
                errors.append(f"{doc}:{line}: cites bench/results/{each}, which does not exist")
    return errors


def main(argv):
    check = "--check" in argv
    entries, errors = collect()
    if errors:
        print("\n".join(errors))
        return 1
    index = index_text(entries)
    with open(FRONT_PAGE, encoding="utf-8") as f:
        readme = f.read()
    try:
        new_readme = with_front_page(readme, front_page_rows(entries))
    except Bad as e:
        print(e)
        return 1
    if not check:
        with open(INDEX, "w", encoding="utf-8") as f:
            f.write(index)
        if new_readme != readme:
            with open(FRONT_PAGE, "w", encoding="utf-8") as f:
                f.write(new_readme)
        print(f"wrote bench/results/README.md ({len(entries)} files) and the README's table")
        return 0
    problems = check_citations()
    current = open(INDEX, encoding="utf-8").read() if os.path.exists(INDEX) else ""
    if current != index:
        problems.append("bench/results/README.md is stale: run bench/results/make_index.py")
    if new_readme != readme:
        problems.append("the README's results table is stale: run bench/results/make_index.py")
    names = os.listdir(HERE)
    size = sum(os.path.getsize(os.path.join(HERE, n)) for n in names)
    if len(names) > MAX_FILES:
        problems.append(f"bench/results holds {len(names)} files, more than {MAX_FILES}: replace superseded runs")
    if size > MAX_BYTES:
        problems.append(f"bench/results holds {size / 1048576:.2f} MiB, more than {MAX_BYTES / 1048576:.0f} MiB")
    for p in problems:
        print(p)
    print(f"{len(entries)} result files, {len(names)} files, {size / 1048576:.2f} MiB; {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
