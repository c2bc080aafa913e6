#!/usr/bin/env python3
"""The run's ETA against what happened, from its progress lines (the stderr of `dpforest run`).

Usage: eta_check.py RUN.err [FRACTION ...]      (default fractions 0.1 0.25 0.5)

Each progress line says: done/total tasks, the share of the estimated cost done, elapsed seconds and
the ETA (estimated cost left x wall seconds per unit of estimated cost so far). The former rule's ETA,
elapsed x tasks left / tasks done, follows from the same line. The truth is the last line's elapsed
time minus the line's. For the first line at or past each fraction of the tasks, prints both ETAs and
their ratio to the truth."""
import re
import sys

LINE = re.compile(r"\[([^\]]+)\] (\d+)/(\d+) tasks \((\d+)%, (\d+)% of estimated cost\), elapsed (\d+) s, ETA (\d+) s")


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    text = open(sys.argv[1], errors="replace").read()
    fractions = [float(f) for f in sys.argv[2:]] or [0.1, 0.25, 0.5]
    rows = [(int(m[2]), int(m[3]), int(m[5]), float(m[6]), float(m[7])) for m in LINE.finditer(text)]
    if not rows or rows[-1][0] != rows[-1][1]:
        sys.exit(f"{sys.argv[1]}: no finished run's progress lines")
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
