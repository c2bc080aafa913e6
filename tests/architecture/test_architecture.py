"""The code keeps the shape design.md asks for:
  1. layers go one way (experiments -> algorithms -> core; datasets -> core): core includes nothing of
     algorithms/, experiments/ or datasets/; algorithms/ includes nothing of experiments/ or datasets/;
  2. inside algorithms/, a family folder includes only algorithms/common/ (and core/); common/ includes
     no family; only the top level (registry.cpp, registry_fit) includes the families;
  3. comments say what and why, not which issue, stop or session;
  4. no function in experiments/ or datasets/ is longer than 80 lines (orchestration in phases).

usage (from the repository root): python3 -m tests.architecture.test_architecture
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def sources(top):
    for dirpath, _, files in os.walk(os.path.join(ROOT, top)):
        for f in sorted(files):
            if f.endswith((".cpp", ".hpp", ".inc")):
                yield os.path.relpath(os.path.join(dirpath, f), ROOT)


def includes(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        return re.findall(r'^\s*#include "([^"]+)"', f.read(), re.M)


def layer_violations():
    forbidden = {"core": ("algorithms/", "experiments/", "datasets/"), "algorithms": ("experiments/", "datasets/"),
                 "datasets": ("algorithms/", "experiments/")}
    out = []
    for top, bad in forbidden.items():
        for path in sources(top):
            out += [f"{path} includes {inc}" for inc in includes(path) if inc.startswith(bad)]
    return out


def folder_of(rel):
    parts = rel.split("/")
    return parts[1] if len(parts) > 2 else None  # algorithms/<folder>/file; None: the top level


def family_violations():
    out = []
    for path in sources("algorithms"):
        src = folder_of(path)
        if src is None:
            continue
        for inc in includes(path):
            if not inc.startswith("algorithms/"):
                continue
            dst = folder_of(inc)
            if dst is None:
                out.append(f"{path} includes the registry's {inc}")
            elif dst != src and dst != "common":
                out.append(f"{path} includes another family's {inc}")
    return out


HISTORY = re.compile(r"//.*\b(issue|stop|session)s? ?(#?[0-9]+|\"[A-Z])", re.I)


def history_comments():
    out = []
    for top in ("core", "algorithms", "experiments", "datasets"):
        for path in sources(top):
            with open(os.path.join(ROOT, path), encoding="utf-8") as f:
                for n, line in enumerate(f, 1):
                    if HISTORY.search(line):
                        out.append(f"{path}:{n}: {line.strip()[:100]}")
    return out


# The same rule for the scripts, configs and build files, whose comments start with '#' and whose
# prose (docstrings, published.yaml explanations) is read by users as well.
SCRIPT_HISTORY = re.compile(r"\b(issue|stop|session)s? ?#?[0-9]+", re.I)


def script_history():
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True).stdout.split()
    out = []
    for path in listed:
        name = os.path.basename(path)
        if not (path.endswith((".py", ".sh", ".yaml", ".yml")) or name in ("Makefile", "CMakeLists.txt", "run")):
            continue
        if path.startswith(("results/", "docs/")) or path == "tests/architecture/test_architecture.py":
            continue
        full = os.path.join(ROOT, path)
        if not os.path.isfile(full):
            continue
        with open(full, encoding="utf-8", errors="replace") as f:
            for n, line in enumerate(f, 1):
                if SCRIPT_HISTORY.search(line):
                    out.append(f"{path}:{n}: {line.strip()[:100]}")
    return out


def strip_comments_and_strings(src):
    out, i, n = [], 0, len(src)
    while i < n:
        if src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
        elif src.startswith("/*", i):
            j = src.find("*/", i + 2)
            j = n if j < 0 else j + 2
        elif src.startswith('R"', i) and re.match(r'R"([^(]*)\(', src[i:]):
            end = ")" + re.match(r'R"([^(]*)\(', src[i:]).group(1) + '"'
            j = src.find(end, i) + len(end)
        elif src[i] in "\"'":
            j = i + 1
            while j < n and src[j] != src[i]:
                j += 2 if src[j] == "\\" else 1
            j += 1
        else:
            out.append(src[i])
            i += 1
            continue
        out.append(re.sub(r"[^\n]", " ", src[i:j]))
        i = j
    return "".join(out)


FUNCTION_HEAD = re.compile(r"(\)|\bconst|\boverride|\bnoexcept|\bmutable|->\s*[\w:<>,\s*&]+)$")
CONTROL = re.compile(r"\b(if|for|while|switch|catch)\s*\(.*\)$")


def function_lengths(source):
    """(first line, lines) of every outermost function body: a brace after a parameter list or a
    qualifier, not after if/for/while/switch/catch."""
    text = strip_comments_and_strings(source)
    stack, out = [], []
    for i, ch in enumerate(text):
        if ch == "{":
            before = text[max(0, i - 300):i].rstrip()
            stack.append((i, bool(FUNCTION_HEAD.search(before)) and not CONTROL.search(before.split("\n")[-1])))
        elif ch == "}" and stack:
            start, is_fn = stack.pop()
            if is_fn and not any(f for _, f in stack):
                out.append((text.count("\n", 0, start) + 1, text.count("\n", start, i) + 1))
    return out


def long_functions(limit, tops=("experiments", "datasets")):
    out = []
    for top in tops:
        for path in sources(top):
            with open(os.path.join(ROOT, path), encoding="utf-8") as f:
                out += [f"{path}:{line}: {n} lines" for line, n in function_lengths(f.read()) if n > limit]
    return out


def main():
    # The detectors themselves (a check that cannot fail is no check).
    check(bool(HISTORY.search('// fixed in issue 18: faster')) and not HISTORY.search("// the stop rule of §3"),
          "the history detector tells narration from prose")
    check(bool(SCRIPT_HISTORY.search("# the leaderboard (issue 16)")) and not SCRIPT_HISTORY.search("# stop rule"),
          "the script history detector tells narration from prose")
    check(folder_of("algorithms/mrf/x.cpp") == "mrf" and folder_of("algorithms/registry.cpp") is None,
          "folder_of reads the family folder")
    sample = "int f(int a) {\n" + "  a++; // }\n" * 90 + "}\nint g() { if (x) { y(\"}\"); } }\n"
    check(function_lengths(sample) == [(1, 92), (93, 1)], "function bodies are measured, braces in comments and strings ignored")
    for name, found in (("layers go one way", layer_violations()),
                        ("no function in experiments/ or datasets/ over 80 lines", long_functions(80)),
                        ("families include only algorithms/common and core", family_violations()),
                        ("no comment narrates history", history_comments()),
                        ("no script, config or build file narrates history", script_history())):
        check(not found, name + ("" if not found else ":\n     " + "\n     ".join(found[:20])))
    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
