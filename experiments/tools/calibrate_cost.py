#!/usr/bin/env python3
"""Fit the cost model (experiments/cost/cost_model.hpp) on measured per-task CPU times; `make calibrate`.

Usage: python3 -m experiments.tools.calibrate_cost --out experiments/cost/cost_table.inc CELLS.tsv RESULTS.csv [CELLS.tsv RESULTS.csv ...]

CELLS.tsv is `dpforest run CONFIG --dry-run --cells-tsv CELLS.tsv` (each cell's shape as the C++ model
sees it: task kind, training rows, features, trees, depth); RESULTS.csv the results table of a run of
the same config (one row per task, with `cpu_seconds`). Every task is one observation of

    log(cpu_seconds) = a[alg, task] + t log(trees) + r log(train_rows) + d log(depth) + f log(features)
                       + c log(classes)

Fitted in two stages, by least squares in log space: (1) one intercept per (algorithm, task kind) with
exponents shared by all; (2) per (algorithm, task kind) exponents shrunk towards the shared ones with
a ridge penalty lam * |b - b_shared|^2. lam is chosen by leave-one-dataset-out cross-validation (each
dataset's tasks predicted from a fit on the others) among a few values, lam = inf being the shared
exponents; so per-algorithm exponents are used only if they predict unseen datasets better. Prints
the cross-validation table and writes the C++ table with a header naming the runs."""
import argparse
import csv
import datetime
import math
import os
import sys
from collections import defaultdict

import numpy as np

FLOOR = 1e-5  # cpu_seconds below timer resolution
LAMS = [0.0, 3.0, 30.0, 300.0, math.inf]
NAMES = ["trees", "rows", "depth", "features", "classes"]
NX = len(NAMES)


def load(cells_tsv, results_csv):
    shapes = {}
    with open(cells_tsv, newline="") as f:
        for r in csv.DictReader(f, delimiter="\t"):
            shapes[r["cell_id"]] = r
    obs, meta = [], defaultdict(set)
    with open(results_csv, newline="") as f:
        for r in csv.DictReader(f):
            if "cpu_seconds" not in r or r["cpu_seconds"] == "":
                sys.exit(f"{results_csv}: row without cpu_seconds (cell {r.get('cell_id')}): rerun with a "
                         "dpforest that records it")
            s = shapes.get(r["cell_id"])
            if s is None:
                sys.exit(f"{results_csv}: cell {r['cell_id']} is not in {cells_tsv}: not the same config")
            x = [math.log(float(s[k])) for k in ("trees", "train_rows", "depth", "features", "classes")]
            # cost_key: the cost table's row (cost_model.hpp), e.g. rgv/published apart from strict rgv.
            obs.append({"key": (s.get("cost_key") or s["algorithm"], s["task"]), "dataset": s["dataset"], "x": x,
                        "y": math.log(max(float(r["cpu_seconds"]), FLOOR))})
            for k in ("git_commit", "host", "threads"):
                meta[k].add(r.get(k, ""))
            meta["started_at"].add(r.get("started_at", ""))
    return obs, meta


def fit(obs, lam):
    """Returns ({key: (a, b[NX])}, b_shared)."""
    keys = sorted({o["key"] for o in obs})
    idx = {k: i for i, k in enumerate(keys)}
    n, K = len(obs), len(keys)
    X = np.zeros((n, K + NX))
    y = np.array([o["y"] for o in obs])
    for i, o in enumerate(obs):
        X[i, idx[o["key"]]] = 1
        X[i, K:] = o["x"]
    sol = np.linalg.lstsq(X, y, rcond=None)[0]
    shared = sol[K:]
    out = {}
    for k in keys:
        rows = [o for o in obs if o["key"] == k]
        if lam == math.inf:
            out[k] = (sol[idx[k]], shared.copy())
            continue
        # min |y - a - x b|^2 + lam |b - shared|^2: augmented least squares (a unpenalised).
        A = np.array([[1.0] + o["x"] for o in rows])
        yy = np.array([o["y"] for o in rows])
        if lam > 0:
            P = np.hstack([np.zeros((NX, 1)), math.sqrt(lam) * np.eye(NX)])
            A = np.vstack([A, P])
            yy = np.concatenate([yy, math.sqrt(lam) * shared])
        s = np.linalg.lstsq(A, yy, rcond=None)[0]
        out[k] = (s[0], s[1:])
    return out, shared


def predict(model, shared, o):
    a, b = model.get(o["key"], (None, None))
    if a is None:
        return None
    return a + float(np.dot(b, o["x"]))


def cross_validate(obs, lam):
    """RMS log error and median |ratio| error over leave-one-dataset-out predictions."""
    errs = []
    for d in sorted({o["dataset"] for o in obs}):
        train = [o for o in obs if o["dataset"] != d]
        model, shared = fit(train, lam)
        for o in obs:
            if o["dataset"] == d:
                p = predict(model, shared, o)
                if p is not None:
                    errs.append(p - o["y"])
    e = np.array(errs)
    return math.sqrt(float(np.mean(e ** 2))), float(np.median(np.abs(e))), len(e)


def main():
    ap = argparse.ArgumentParser(prog="python3 -m experiments.tools.calibrate_cost", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("pairs", nargs="+", help="CELLS.tsv RESULTS.csv ...")
    a = ap.parse_args()
    if len(a.pairs) % 2:
        sys.exit("give CELLS.tsv RESULTS.csv pairs")
    obs, runs = [], []
    meta_all = defaultdict(set)
    for i in range(0, len(a.pairs), 2):
        o, meta = load(a.pairs[i], a.pairs[i + 1])
        obs += o
        for k, v in meta.items():
            meta_all[k] |= v
        runs.append((a.pairs[i + 1], len(o)))
    cv = {lam: cross_validate(obs, lam) for lam in LAMS}
    print("leave-one-dataset-out cross-validation (log-space errors of CPU seconds):")
    for lam in LAMS:
        rms, med, n = cv[lam]
        print(f"  lam = {lam:>5}: RMS {rms:.3f} (x{math.exp(rms):.2f}), median |error| {med:.3f} "
              f"(x{math.exp(med):.2f}) over {n} tasks")
    # The former rule (trees x rows x log2(rows) x features^0.75, no per-algorithm factor) with its
    # best single scale, for comparison (in-sample, so flattering to it).
    old = np.array([o["x"][0] + o["x"][1] + math.log(math.log2(math.exp(o["x"][1]) + 2)) + 0.75 * o["x"][3]
                    for o in obs])
    yv = np.array([o["y"] for o in obs])
    off = old - yv - float(np.mean(old - yv))
    old_rms = math.sqrt(float(np.mean(off ** 2)))
    print(f"  former rule, one fitted scale (in-sample): RMS {old_rms:.3f} (x{math.exp(old_rms):.2f})")
    best = min(LAMS, key=lambda l: cv[l][0])
    model, shared = fit(obs, best)
    print(f"chosen lam = {best}; shared exponents: " + ", ".join(f"{n} {v:.3f}" for n, v in zip(NAMES, shared)))

    resid = defaultdict(list)
    for o in obs:
        resid[o["key"]].append(predict(model, shared, o) - o["y"])
    median_a = float(np.median([model[k][0] for k in model]))
    commits = ",".join(sorted(c for c in meta_all["git_commit"] if c))
    hosts = ",".join(sorted(h for h in meta_all["host"] if h))
    started = sorted(s for s in meta_all["started_at"] if s)
    lines = [
        "// Generated by `make calibrate` (experiments/tools/calibrate_cost.py); do not edit by hand.",
        "// The cost model of cost_model.hpp: log(cpu s) = log_factor + trees log(n_trees) + rows log(training rows)",
        "//   + depth log(min(max_depth, log2 rows)) + features log(features) + classes log(classes),",
        "//   per (algorithm, task kind).",
        f"// Fitted on {len(obs)} measured tasks (results column cpu_seconds) of:",
    ]
    for path, n in runs:
        lines.append(f"//   {os.path.relpath(path)} ({n} tasks)")
    lines += [
        f"// dpforest commit {commits or 'unknown'}, host {hosts or 'unknown'}, tasks started "
        f"{started[0] if started else '?'} .. {started[-1] if started else '?'}; written "
        f"{datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%dT%H:%M:%SZ')}.",
        "// Leave-one-dataset-out cross-validation, RMS log error per shrinkage lam (inf = shared exponents):",
    ]
    for lam in LAMS:
        rms, med, n = cv[lam]
        lines.append(f"//   lam {lam}: RMS {rms:.3f} (x{math.exp(rms):.2f}), median |error| x{math.exp(med):.2f}, {n} tasks")
    lines.append(f"//   the former rule (trees x rows x log2 rows x features^0.75) with one fitted scale, in-sample: "
                 f"RMS {old_rms:.3f} (x{math.exp(old_rms):.2f})")
    lines.append(f"// Chosen lam = {best}. Per row: in-sample RMS log error, tasks.")
    lines.append("constexpr AlgorithmCost kSharedCost{\"*\", \"*\", %.6f, %.6f, %.6f, %.6f, %.6f, %.6f, %d};"
                 % (median_a, *shared, len(obs)))
    lines.append("constexpr AlgorithmCost kAlgorithmCosts[] = {")
    for k in sorted(model):
        av, b = model[k]
        r = np.array(resid[k])
        lines.append("    {\"%s\", \"%s\", %.6f, %.6f, %.6f, %.6f, %.6f, %.6f, %d},  // RMS %.2f"
                     % (k[0], k[1], av, *b, len(r), math.sqrt(float(np.mean(r ** 2)))))
    lines.append("};")
    with open(a.out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"wrote {a.out}: {len(model)} (algorithm, task) rows from {len(obs)} tasks")


if __name__ == "__main__":
    main()
