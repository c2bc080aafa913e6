"""docs/algorithms.md from the registry: every algorithm with its summary, tasks, papers, privacy label,
parameters (type, default, documentation) and reference quirks, as `dpforest list algorithms` prints
them. The audit's last verdicts are left out (they change with every `make audit`; see
results/audit/audit.md).

usage: python3 -m experiments.tools.algorithms_doc [--dpforest build/dpforest] [--out docs/algorithms.md] [--check]
"""
import argparse
import re
import subprocess
import sys

HEADER = """# Algorithms

Generated from the registry (`algorithms/registry.cpp`) by `make docs`
(`python3 -m experiments.tools.algorithms_doc`); ctest `docs` fails when this page is stale.
`dpforest list algorithms` prints the same, plus each algorithm's last audit verdicts
(`results/audit/audit.md`). Privacy labels are explained in [privacy.md](privacy.md).
"""


def parse(text):
    """The blocks of `dpforest list algorithms`: name, summary, the tasks/papers line, the privacy line,
    parameters and quirks."""
    algos, cur = [], None
    for line in text.splitlines():
        m = re.match(r"^  (\S+)\s+(.*)$", line)
        if m and not line.startswith("   "):
            cur = {"name": m.group(1), "summary": m.group(2).strip(), "meta": [], "params": [], "quirks": []}
            algos.append(cur)
            continue
        if cur is None:
            continue
        s = line.strip()
        if s.startswith("tasks:") or s.startswith("privacy:"):
            cur["meta"].append(s)
        elif s.startswith("quirk "):
            name, _, doc = s[len("quirk "):].partition(": ")
            cur["quirks"].append((name, doc))
        elif s.startswith("last audit"):
            continue
        else:
            m = re.match(r"^(\S+)\s+(int|number|bool|string|list)\s+default (.*?)\s{2,}(.*)$", s)
            if m:
                cur["params"].append(m.groups())
            elif cur["params"]:
                p = cur["params"][-1]
                cur["params"][-1] = (p[0], p[1], p[2], p[3] + " " + s)
    return algos


def cell(text):
    return text.replace("|", "\\|")


def render(algos):
    out = [HEADER]
    out.append("| algorithm | summary |\n|---|---|")
    for a in algos:
        out.append(f"| [`{a['name']}`](#{a['name']}) | {cell(a['summary'])} |")
    for a in algos:
        out.append(f"\n## {a['name']}\n\n{a['summary']}\n")
        for m in a["meta"]:
            out.append(f"- {m}")
        out.append("\n| parameter | type | default | meaning |\n|---|---|---|---|")
        for name, typ, default, doc in a["params"]:
            out.append(f"| `{name}` | {typ} | {cell(default)} | {cell(doc)} |")
        if a["quirks"]:
            out.append("\nReference quirks (`reference_quirks: [...]`):\n")
            for name, doc in a["quirks"]:
                out.append(f"- `{name}`: {doc}")
    return "\n".join(out) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dpforest", default="build/dpforest")
    ap.add_argument("--out", default="docs/algorithms.md")
    ap.add_argument("--check", action="store_true", help="exit 1 if --out differs from the registry")
    args = ap.parse_args(argv)
    text = subprocess.run([args.dpforest, "list", "algorithms"], capture_output=True, text=True, check=True).stdout
    page = render(parse(text))
    if args.check:
        try:
            with open(args.out, encoding="utf-8") as f:
                current = f.read()
        except FileNotFoundError:
            current = None
        if current != page:
            print(f"{args.out} is stale: run `make docs`", file=sys.stderr)
            return 1
        return 0
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(page)
    print(f"wrote {args.out} ({len(parse(text))} algorithms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
