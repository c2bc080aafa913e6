"""Predicted vs measured CPU time of a finished run (the cost model of experiments/cost/cost_model.hpp).

Usage: python3 -m experiments.tools.cost_check [--by-algorithm] CELLS.tsv RESULTS.csv [CELLS.tsv RESULTS.csv ...]

CELLS.tsv is `dpforest run CONFIG --dry-run --cells-tsv CELLS.tsv` (estimated seconds per task of each
cell), RESULTS.csv the run's results table (`cpu_seconds` per task). Only cells with rows count on both
sides (failed or skipped cells are left out and counted). Prints one line per pair: tasks, predicted
CPU s, measured CPU s, predicted / measured; with --by-algorithm the same per algorithm."""
import argparse
import csv
import sys
from collections import defaultdict


def check(cells_tsv, results_csv, by_algorithm):
    est, alg = {}, {}
    with open(cells_tsv, newline="") as f:
        for r in csv.DictReader(f, delimiter="\t"):
            est[r["cell_id"]] = float(r["est_task_seconds"])
            alg[r["cell_id"]] = r["algorithm"]
    pred, meas, tasks = defaultdict(float), defaultdict(float), defaultdict(int)
    name = None
    with open(results_csv, newline="") as f:
        for r in csv.DictReader(f):
            c = r["cell_id"]
            if c not in est:
                sys.exit(f"{results_csv}: cell {c} not in {cells_tsv}: not the same config")
            if not r.get("cpu_seconds"):
                sys.exit(f"{results_csv}: no cpu_seconds (cell {c}): written by a dpforest without it")
            name = name or f"{r['paper']}/{r['experiment']}"
            for k in ("*", alg[c]):
                pred[k] += est[c]
                meas[k] += float(r["cpu_seconds"])
                tasks[k] += 1
    ran = {r for r in est}
    for k in ["*"] + (sorted(a for a in pred if a != "*") if by_algorithm else []):
        label = name if k == "*" else f"  {k}"
        ratio = pred[k] / meas[k] if meas[k] > 0 else float("inf")
        print(f"{label:36s} {tasks[k]:7d} tasks  predicted {pred[k]:9.1f} CPU-s  measured {meas[k]:9.1f} CPU-s  "
              f"predicted/measured {ratio:6.2f}")
    return len(ran)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m experiments.tools.cost_check", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--by-algorithm", action="store_true", help="also one line per algorithm")
    ap.add_argument("pairs", nargs="+", metavar="CELLS.tsv RESULTS.csv", help="pairs of a cells table and its results")
    a = ap.parse_args(argv)
    if len(a.pairs) % 2:
        ap.error("expected pairs CELLS.tsv RESULTS.csv")
    for i in range(0, len(a.pairs), 2):
        check(a.pairs[i], a.pairs[i + 1], a.by_algorithm)


if __name__ == "__main__":
    main()
