"""The run's ETA against what happened, from its progress lines (the stderr of `dpforest run`).

Usage: python3 -m experiments.tools.eta_check RUN.err [FRACTION ...]      (default fractions 0.1 0.25 0.5)

Each progress line says: done/total tasks, the share of the estimated cost done, elapsed seconds and
the ETA (estimated cost left x wall seconds per unit of estimated cost so far). The former rule's ETA,
elapsed x tasks left / tasks done, follows from the same line. The truth is the last line's elapsed
time minus the line's. For the first line at or past each fraction of the tasks, prints both ETAs and
their ratio to the truth."""
import argparse
import re
import sys

LINE = re.compile(r"\[([^\]]+)\] (\d+)/(\d+) tasks \((\d+)%, (\d+)% of estimated cost\), elapsed (\d+) s, ETA (\d+) s")


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m experiments.tools.eta_check", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("run_err", metavar="RUN.err", help="the stderr of `dpforest run` (its progress lines)")
    ap.add_argument("fractions", nargs="*", type=float, metavar="FRACTION", help="default 0.1 0.25 0.5")
    a = ap.parse_args(argv)
    with open(a.run_err, errors="replace") as f:
        text = f.read()
    fractions = a.fractions or [0.1, 0.25, 0.5]
    rows = [(int(m[2]), int(m[3]), int(m[5]), float(m[6]), float(m[7])) for m in LINE.finditer(text)]
    if not rows or rows[-1][0] != rows[-1][1]:
        sys.exit(f"{a.run_err}: no finished run's progress lines")
    name = LINE.search(text)[1]
    end = rows[-1][3]
    print(f"{name}: {rows[-1][1]} tasks, {end:.0f} s wall")
    for f in fractions:
        for done, total, cost_pct, el, eta in rows:
            if done >= f * total and done > 0:
                old = el * (total - done) / done
                truth = end - el
                r = (lambda x: f"{x / truth:.2f}" if truth > 0 else "n/a")
                print(f"  at {done}/{total} tasks ({100 * done / total:.0f}%, {cost_pct}% of estimated cost), "
                      f"elapsed {el:.0f} s: left in fact {truth:.0f} s; ETA {eta:.0f} s (ratio {r(eta)}); "
                      f"former rule {old:.0f} s (ratio {r(old)})")
                break


main()
