#!/usr/bin/python3
"""Every name in the docs' paper-to-code tables exists in the source tree.

A paper-to-code table is a Markdown table in docs/*.md or solvers/*/README.md
whose first header cell is "paper" or "seed ..." (the tables under "Where the
paper is in the code"). Each backticked span in its rows is checked when it is
a name the source can be searched for:

  - a file or folder (`fgbilu.hpp`, `mesh/structured`, `fluxes.hpp/.cpp`,
    `cartesian_grid.{hpp,cpp}`, `scalar_pattern.*`): some file or folder of the
    tree ends with that path;
  - an identifier (`Stencil7Matrix`, `gj_*_element` with * a wildcard): a whole
    word of a source file;
  - a qualified identifier (`omp::factor_planes`, `ImmersedFlow::step`): the
    text itself in a source file, or the last name as a word inside the braces
    of a declaration of the scope (namespace, class, struct, enum).

Spans that are formulas, parameters or commands (anything else) are skipped.
Exit status 1 names doc, line and identifier for each one not found.

Usage: check_doc_tables.py <source root>
"""
import os
import re
import sys

SOURCE_EXT = (".hpp", ".cpp", ".cu", ".cuh", ".h", ".py", ".cmake", ".sh", ".toml", ".txt", ".in")
FILE_EXT = re.compile(r"\.(hpp|cpp|cu|cuh|h|py|md|toml|txt|sh|cmake|json|msh|su2|in|\*|\{[a-z,]+\})$")
IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_*]*$")
QUALIFIED = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(::[A-Za-z_~][A-Za-z0-9_*]*)+$")
SKIP_DIRS = {".git", "build", "__pycache__"}


def tree_files(root):
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d not in SKIP_DIRS and not d.startswith("build")]
        for f in files:
            yield os.path.relpath(os.path.join(folder, f), root)


def paper_tables(path):
    """(line number, row text) of every body row of the paper-to-code tables."""
    rows = []
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        starts_table = lines[i].startswith("|") and (i == 0 or not lines[i - 1].startswith("|"))
        if starts_table and i + 1 < len(lines) and re.match(r"^\|[-| :]+\|$", lines[i + 1]):
            first = lines[i].strip("|").split("|")[0].strip().lower()
            j = i + 2
            while j < len(lines) and lines[j].startswith("|"):
                if first == "paper" or first.startswith("seed"):
                    rows.append((j + 1, lines[j]))
                j += 1
            i = j
        else:
            i += 1
    return rows


def expand_paths(span):
    """`a.hpp/.cpp` and `a.{hpp,cpp}` name two files."""
    m = re.match(r"^(.*)\.\{([a-z,]+)\}$", span)
    if m:
        return [m.group(1) + "." + e for e in m.group(2).split(",")]
    m = re.match(r"^(.*)\.([a-z]+)/\.([a-z]+)$", span)
    if m:
        return [m.group(1) + "." + m.group(2), m.group(1) + "." + m.group(3)]
    return [span]


class SourceTree:
    def __init__(self, root):
        self.paths = list(tree_files(root))
        folders = set()
        for p in self.paths:
            parts = p.split(os.sep)
            for k in range(1, len(parts)):
                folders.add("/".join(parts[:k]))
        self.folders = folders
        self.folder_names = {f.split("/")[-1] for f in folders}
        self.text = {}
        for p in self.paths:
            if p == os.path.relpath(__file__, root):
                continue  # the examples above are no evidence
            if p.endswith(SOURCE_EXT) or os.path.basename(p) == "CMakeLists.txt":
                try:
                    self.text[p] = open(os.path.join(root, p), encoding="utf-8", errors="replace").read()
                except OSError:
                    pass
        self.words = set()
        for t in self.text.values():
            self.words.update(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", t))

    def has_path(self, path):
        path = path.rstrip("/")
        pattern = re.compile("(^|/)" + re.escape(path).replace(r"\*", "[^/]*") + "$")
        return any(pattern.search(p.replace(os.sep, "/")) for p in self.paths) or any(
            pattern.search(f) for f in self.folders)

    def has_word(self, word):
        if "*" not in word:
            return word in self.words
        pattern = re.compile("^" + re.escape(word).replace(r"\*", "[A-Za-z0-9_]*") + "$")
        return any(pattern.match(w) for w in self.words)

    def has_qualified(self, name):
        literal = re.compile(r"\b" + re.escape(name) + r"\b")
        if "*" not in name and any(literal.search(t) for t in self.text.values()):
            return True
        *scopes, last = name.split("::")
        word = re.compile(r"\b" + re.escape(last).replace(r"\*", "[A-Za-z0-9_]*") + r"\b")
        scope = re.compile(r"\b(namespace|class|struct|enum class|enum)\s+([A-Za-z0-9_]+::)*" + re.escape(scopes[-1]) +
                           r"\s*(final\s*)?(:[^;{]*)?\{")
        for t in self.text.values():
            for m in scope.finditer(t):
                if word.search(block_after(t, m.end() - 1)):
                    return True
        return False


def block_after(text, open_brace):
    """The text between the brace at open_brace and its match (comments not skipped)."""
    depth = 0
    for k in range(open_brace, len(text)):
        if text[k] == "{":
            depth += 1
        elif text[k] == "}":
            depth -= 1
            if depth == 0:
                return text[open_brace:k]
    return text[open_brace:]


def check(root):
    tree = SourceTree(root)
    docs = sorted(os.path.join("docs", f) for f in os.listdir(os.path.join(root, "docs")) if f.endswith(".md"))
    solvers = os.path.join(root, "solvers")
    docs += sorted(
        os.path.join("solvers", d, "README.md") for d in os.listdir(solvers)
        if os.path.isfile(os.path.join(solvers, d, "README.md")))
    missing, checked, tables = [], 0, 0
    for doc in docs:
        rows = paper_tables(os.path.join(root, doc))
        tables += bool(rows)
        for line, row in rows:
            for span in re.findall(r"`([^`]+)`", row):
                span = span.strip().rstrip("()")
                if FILE_EXT.search(span) or ("/" in span and " " not in span and span.split("/")[0] in tree.folder_names):
                    names, found = expand_paths(span), tree.has_path
                elif QUALIFIED.match(span):
                    names, found = [span], tree.has_qualified
                elif IDENT.match(span) and len(span) > 1:
                    names, found = [span], tree.has_word
                else:
                    continue
                for name in names:
                    checked += 1
                    if not found(name):
                        missing.append(f"{doc}:{line}: `{name}` is not in the source tree")
    for m in missing:
        print(m)
    print(f"{checked} names in the paper-to-code tables of {tables} documents checked, {len(missing)} not found")
    if tables == 0:
        print("no paper-to-code table found: the test would check nothing")
        return 1
    return 1 if missing else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(check(sys.argv[1]))
