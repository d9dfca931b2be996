#!/usr/bin/python3
"""The documentation describes the project as it is (docs/ARCHITECTURE.md,
"Documentation and results"): every Markdown page outside bench/results/ stays
short enough to read and carries no history.

  - README.md at most 200 lines, every other page at most 500;
  - no dates (YYYY-MM-DD) and no commit hashes: when a figure was measured, and on
    which build, is in its results file (bench/results/README.md);
  - no issue numbers and no paths outside the repository (the seeds' folder
    beside a checkout).

Source files (code, scripts, case files, meshes, test data) are held to the
rules that do not depend on prose: no issue numbers, no dates, no paths outside
the repository, since a comment that cites them means nothing to a reader of the
code.

Exit status 1 names page and line for each finding.

Usage: check_docs.py <source root>
"""
import os
import re
import sys

LIMITS = {"README.md": 200}
DEFAULT_LIMIT = 500
SKIP_DIRS = {".git", "__pycache__", "results", "corpus", ".carry"}  # .carry: third-party copies for a GPU machine
RULES = [
    (re.compile(r"\b(19|20)\d\d-[01]\d-[0-3]\d\b"), "a date"),
    (re.compile(r"(?<![\w./-])(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{7,12}(?![\w-])"), "a commit hash"),
    (re.compile(r"\bissues? #?\d+", re.IGNORECASE), "an issue number"),
    (re.compile(r"\.\./shared|/work/shared"), "a path outside the repository"),
]


def pages(root):
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.startswith("build"))
        for f in sorted(files):
            if f.endswith(".md"):
                yield os.path.relpath(os.path.join(folder, f), root)


SOURCE_SUFFIXES = (".cpp", ".hpp", ".h", ".cu", ".cuh", ".py", ".sh", ".toml", ".geo", ".mtx",
                   ".cmake", ".txt", ".in")
SOURCE_RULES = [RULES[0], RULES[2], RULES[3]]
SELF = os.path.abspath(__file__)


def sources(root):
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.startswith("build"))
        for f in sorted(files):
            path = os.path.join(folder, f)
            if f.endswith(SOURCE_SUFFIXES) and os.path.abspath(path) != SELF:
                yield os.path.relpath(path, root)


def check_sources(root):
    findings = []
    for name in sources(root):
        try:
            text = open(os.path.join(root, name), encoding="utf-8").read()
        except (UnicodeDecodeError, OSError):
            continue
        for number, line in enumerate(text.split("\n"), 1):
            for pattern, what in SOURCE_RULES:
                m = pattern.search(line)
                if m:
                    findings.append(f"{name}:{number}: {what} ({m.group(0)!r}) in a source file")
    return findings


def check(root):
    findings, count = [], 0
    for page in pages(root):
        count += 1
        lines = open(os.path.join(root, page), encoding="utf-8").read().split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        limit = LIMITS.get(page, DEFAULT_LIMIT)
        if len(lines) > limit:
            findings.append(f"{page}: {len(lines)} lines, more than {limit}: split it")
        for number, line in enumerate(lines, 1):
            for pattern, what in RULES:
                m = pattern.search(line)
                if m:
                    findings.append(f"{page}:{number}: {what} ({m.group(0)!r}); history belongs in git and bench/results")
    findings += check_sources(root)
    for f in findings:
        print(f)
    print(f"{count} pages checked, {len(findings)} findings")
    return 1 if findings or count == 0 else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(check(sys.argv[1]))
