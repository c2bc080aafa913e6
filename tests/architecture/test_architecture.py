"""The code keeps the shape design.md asks for:
  1. layers go one way (experiments -> algorithms -> core; datasets -> core): core includes nothing of
     algorithms/, experiments/ or datasets/; algorithms/ includes nothing of experiments/ or datasets/;
  2. inside algorithms/, a family folder includes only algorithms/common/ (and core/); common/ includes
     no family; only the top level (registry.cpp, registry_fit) includes the families;
  3. comments say what and why, not which issue, stop or session.

usage (from the repository root): python3 -m tests.architecture.test_architecture
"""
import os
import re
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


def main():
    # The detectors themselves (a check that cannot fail is no check).
    check(bool(HISTORY.search('// fixed in issue 18: faster')) and not HISTORY.search("// the stop rule of §3"),
          "the history detector tells narration from prose")
    check(folder_of("algorithms/mrf/x.cpp") == "mrf" and folder_of("algorithms/registry.cpp") is None,
          "folder_of reads the family folder")
    for name, found in (("layers go one way", layer_violations()),
                        ("families include only algorithms/common and core", family_violations()),
                        ("no comment narrates history", history_comments())):
        check(not found, name + ("" if not found else ":\n     " + "\n     ".join(found[:20])))
    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
