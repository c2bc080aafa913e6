"""The README and docs/ promise only what exists: every `make <target>` they show is a Makefile target
(or matches a pattern rule), every `dpforest <command>` is a command `dpforest --help` lists, every
relative link points at a file, and docs/algorithms.md is the registry's current listing.

usage (from the repository root): python3 -m tests.docs.test_docs BUILD/dpforest
"""
import glob
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


def pages():
    return [os.path.join(ROOT, "README.md")] + sorted(glob.glob(os.path.join(ROOT, "docs", "*.md")))


def make_targets():
    """Explicit targets and pattern rules of the Makefile (a pattern as a regex)."""
    names, patterns = set(), []
    with open(os.path.join(ROOT, "Makefile"), encoding="utf-8") as f:
        for line in f:
            m = re.match(r"^([A-Za-z0-9_.%-]+(?:\s+[A-Za-z0-9_.%-]+)*)\s*:(?!=)", line)
            if not m or line.startswith("\t"):
                continue
            for t in m.group(1).split():
                if "%" in t:
                    patterns.append(re.compile("^" + re.escape(t).replace("%", ".+") + "$"))
                elif not t.startswith("."):
                    names.add(t)
    return names, patterns


def code(text):
    """The text of code spans and fenced blocks: where a page shows a command."""
    fenced = re.findall(r"```[^\n]*\n(.*?)```", text, re.S)
    rest = re.sub(r"```.*?```", "", text, flags=re.S)
    return "\n".join(fenced + re.findall(r"`([^`\n]+)`", rest))


def shown(pattern, text):
    return set(re.findall(pattern, text))


def placeholder_free(target):
    """reproduce-figure-N, reproduce-<id>: a placeholder stands for any value."""
    return re.sub(r"<[^>]+>|(?<=-)[A-Z]+\b", "1", target)


def dpforest_commands(dpforest):
    out = subprocess.run([dpforest, "--help"], capture_output=True, text=True).stdout
    block = out.split("commands:", 1)[1] if "commands:" in out else ""
    return {m.group(1) for m in re.finditer(r"^\s{2}([a-z][a-z-]*)", block, re.M)}


def main():
    dpforest = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else os.path.join(ROOT, "build", "dpforest")
    names, patterns = make_targets()
    commands = dpforest_commands(dpforest)
    check(len(commands) >= 10 and "run" in commands, f"dpforest --help lists its commands ({len(commands)})")
    # The detector itself: a made-up target and command are caught.
    check("no-such-target" not in names and not any(p.match("no-such-target") for p in patterns),
          "an unknown make target is not accepted")
    for page in pages():
        rel = os.path.relpath(page, ROOT)
        with open(page, encoding="utf-8") as f:
            text = f.read()
        snippets = code(text)
        for t in sorted(shown(r"(?m)(?:^|[;&|(]\s*)\s*(?:\$ )?make ([a-z][A-Za-z0-9_<>-]*)", snippets)):
            t = placeholder_free(t)
            if t in names or any(p.match(t) for p in patterns):
                continue
            check(False, f"{rel}: `make {t}` is not a Makefile target")
        for c in sorted(shown(r"(?<![\w.-])dpforest ([a-z][a-z-]+)", snippets)):
            if c not in commands:
                check(False, f"{rel}: `dpforest {c}` is not a dpforest command")
        for link in sorted(shown(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text)):
            if re.match(r"^[a-z]+://", link):
                continue
            target = os.path.normpath(os.path.join(os.path.dirname(page), link))
            if not os.path.exists(target):
                check(False, f"{rel}: link {link} points at nothing")
    check(all(t in names for t in ("test", "bench")), "make test and make bench exist")
    rc = subprocess.run([sys.executable, "-m", "experiments.tools.algorithms_doc", "--dpforest", dpforest,
                         "--out", os.path.join(ROOT, "docs", "algorithms.md"), "--check"], cwd=ROOT).returncode
    check(rc == 0, "docs/algorithms.md is the registry's current listing (make docs)")
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        lines = f.read().count("\n")
    check(lines <= 250, f"README.md is {lines} lines (at most 250; the rest belongs in docs/)")
    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
