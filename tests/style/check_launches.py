#!/usr/bin/env python3
"""Every kernel launch is checked and counted (solvers/core/device_launches.hpp).

cuda_error::check_launch (solvers/core/cuda/error_check.cuh) reports a launch's
error and counts the launch, so the count is exact only if each `<<<...>>>`
launch in the project's .cu and .cuh files is followed by one check of its own.
The check fails on a launch that reaches the next launch, a `return` or
`throw`, or the end of its function before a check. A check is a call of
check_launch or of a function of the same file that calls check_launch before
it launches anything (a room's `check(name)`, a reduction's `finish`).
Usage: check_launches.py REPO_ROOT
"""
import pathlib
import re
import sys

FOLDERS = ("solvers", "physics", "mesh", "miniapps", "bench", "tests", "python", "fuzz")
LAUNCH = re.compile(r"<<<")
SCOPE = re.compile(r"\b(namespace|struct|class|union|enum)\b[^;{}()]*$")
NAME = re.compile(r"(~?[A-Za-z_]\w*)\s*(?:<[^;{}()]*>)?\s*\(")
NOT_NAMES = {"__launch_bounds__", "template", "decltype", "noexcept", "requires", "alignas", "sizeof", "if", "for",
             "while", "switch", "return"}


def strip_comments(text):
    """Comments and string literals blanked, offsets and lines kept."""
    text = re.sub(r'"(?:\\.|[^"\\\n])*"', lambda m: '"' + " " * (len(m.group(0)) - 2) + '"', text)
    text = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)
    return re.sub(r"//[^\n]*", lambda m: " " * len(m.group(0)), text)


def functions(text):
    """(name, body start, body end) of every function body: the outermost
    braces that are not a namespace, class, struct, union or enum."""
    out = []
    stack = []  # (is_scope, open offset, header, inside a function body)
    last_stop = 0  # just after the last ';', '{' or '}'
    for i, c in enumerate(text):
        if c == "{":
            header = text[last_stop:i]
            is_scope = bool(SCOPE.search(header.strip())) or header.strip().endswith('extern ""')
            enclosing_code = any(not entry[0] for entry in stack)
            stack.append((is_scope, i, header, enclosing_code))
            last_stop = i + 1
        elif c == "}":
            if stack:
                is_scope, start, header, enclosing_code = stack.pop()
                if not is_scope and not enclosing_code:
                    names = [n for n in NAME.findall(header) if n not in NOT_NAMES]
                    out.append((names[0] if names else "", start, i))
            last_stop = i + 1
        elif c == ";":
            last_stop = i + 1
    return out


def check_text(text, rel, findings):
    text = strip_comments(text)
    bodies = functions(text)
    launches = [m.start() for m in LAUNCH.finditer(text)]
    # Functions that check before they launch count as a check where called.
    checkers = set()
    for name, b, e in bodies:
        body = text[b:e]
        first_check = body.find("check_launch(")
        first_launch = body.find("<<<")
        if name and first_check >= 0 and (first_launch < 0 or first_check < first_launch):
            checkers.add(name)
    names = "|".join(re.escape(n) for n in sorted(checkers | {"check_launch"}))
    check_call = re.compile(r"\b(" + names + r")\s*(?:<[^;{}()]*>)?\s*\(")
    for k, at in enumerate(launches):
        line = text.count("\n", 0, at) + 1
        body = next(((b, e) for _, b, e in bodies if b < at < e), None)
        if body is None:
            findings.append(f"{rel}:{line}: a launch outside a function body")
            continue
        end = body[1]
        if k + 1 < len(launches) and launches[k + 1] < end:
            end = launches[k + 1]
        statement_end = text.find(";", at)
        span = text[statement_end + 1:end]
        m = check_call.search(span)
        stop = re.search(r"\b(return|throw)\b", span)
        if not m or (stop and stop.start() < m.start()):
            findings.append(f"{rel}:{line}: a kernel launch not followed by its own cuda_error::check_launch")


def self_test():
    """The check finds each kind of unchecked launch in a small made-up file."""
    bad = """
namespace tb::x {
namespace {
void check(const char* name) { cuda_error::check_launch(name); }
}
void twice() {
  k<<<1, 1>>>();
  k<<<1, 1>>>();  // "<<<" in a comment is not a launch
  cuda_error::check_launch("two launches, one check");
}
void early(bool c) {
  if (c) {
    k<<<1, 1>>>();
    return;
  }
  cuda_error::check_launch("after the return");
}
void never() { k<<<1, 1>>>(); }
struct S {
  void good() const {
    k<<<1, 1>>>();
    check("k");
  }
  void lambda() const {
    with([&]<int N>() { k<N><<<1, 1>>>(); });
    cuda_error::check_launch("after the lambda: fine");
  }
};
}
"""
    findings = []
    check_text(bad, "bad.cu", findings)
    lines = sorted(int(f.split(":")[1]) for f in findings)
    if lines != [7, 13, 18]:
        print("check_launches.py self-test: expected findings at lines 7, 13, 18, got:", *findings, sep="\n  ")
        return False
    return True


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    if not self_test():
        return 1
    findings = []
    count = 0
    for folder in FOLDERS:
        for path in sorted((root / folder).rglob("*")):
            if path.suffix in (".cu", ".cuh") and path.is_file():
                text = path.read_text(encoding="utf-8", errors="replace")
                count += len(LAUNCH.findall(strip_comments(text)))
                check_text(text, path.relative_to(root), findings)
    for f in findings:
        print(f)
    if findings:
        print(f"{len(findings)} finding(s): each launch is counted by its check (solvers/core/device_launches.hpp)")
        return 1
    print(f"{count} kernel launches, each followed by its own check_launch")
    return 0


if __name__ == "__main__":
    sys.exit(main())
