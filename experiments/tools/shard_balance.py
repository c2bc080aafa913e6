"""Load balance of a sharded run, estimated and measured.

Usage: python3 -m experiments.tools.shard_balance PLAN.tsv RESULTS.csv

PLAN.tsv is `dpforest slurm CONFIG --tasks N --dry-run --show-plan` (the TSV part); RESULTS.csv the
results table of a run of the same config (any protocol: cell ids do not depend on it). Each unit's
measured cost is its task count times the mean cpu_seconds of its cell's rows (fit_seconds +
predict_seconds, wall time, for tables written before cpu_seconds existed), so RESULTS.csv may hold
fewer repetitions than the plan. Prints, per rule (cost plan, cell
index mod N), the slowest shard over the mean shard, estimated and measured."""
import argparse
import csv
from collections import defaultdict


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m experiments.tools.shard_balance", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("plan", metavar="PLAN.tsv", help="`dpforest slurm CONFIG --tasks N --dry-run --show-plan`")
    ap.add_argument("results", metavar="RESULTS.csv", help="the results table of a run of the same config")
    a = ap.parse_args(argv)
    plan_path, results_path = a.plan, a.results
    per_task = defaultdict(list)
    with open(results_path, newline="") as f:
        for r in csv.DictReader(f):
            if r.get("cpu_seconds"):
                per_task[r["cell_id"]].append(float(r["cpu_seconds"]))
            else:
                per_task[r["cell_id"]].append(float(r["fit_seconds"] or 0) + float(r["predict_seconds"] or 0))
    mean = {c: sum(v) / len(v) for c, v in per_task.items()}
    est, real = defaultdict(lambda: defaultdict(float)), defaultdict(lambda: defaultdict(float))
    missing = set()
    with open(plan_path) as f:
        lines = [l.rstrip("\n").split("\t") for l in f if l.startswith(("cost\t", "index\t"))]
    for rule, _, unit, cell, first, end, cost, shard in lines:
        est[rule][int(shard)] += float(cost)
        if cell not in mean:
            missing.add(cell)
            continue
        real[rule][int(shard)] += mean[cell] * (int(end) - int(first))
    for rule in ("index", "cost"):
        shards = sorted(est[rule])
        e = [est[rule][s] for s in shards]
        m = [real[rule][s] for s in shards]
        print(f"{rule:5s}: estimated slowest/mean {max(e) / (sum(e) / len(e)):.3f}; measured slowest/mean "
              f"{max(m) / (sum(m) / len(m)):.3f} (shards, measured CPU-s: "
              + ", ".join(f"{x:.0f}" for x in m) + ")")
    if missing:
        print(f"({len(missing)} cells without results, counted as 0 s: e.g. a dataset that is not available)")


if __name__ == "__main__":
    main()
