#!/usr/bin/python3
"""dpforest's diffprivlib-rf against IBM diffprivlib's RandomForestClassifier on identical folds and rows.

Both sides get the same training rows in the same order, the same public bounds (the dataset
registry's domains, i.e. the data file's range) and the same class list; each fold is scored on the
same test rows. Folds: scikit-learn's StratifiedKFold(10, shuffle=True, random_state=repetition),
whose training indices come out ascending, i.e. in the data file's row order, as dpforest's runner
passes them. Seeds differ between the two sides (the libraries draw differently), so the comparison
is of means over folds, with standard errors.

  --order file      training rows in the file's order (what dpforest's runner does)
  --order shuffled  training rows permuted at random per fold (the same permutation for both sides)

diffprivlib is not a dependency of dpforest: put a checkout (v0.6.x) or an installed copy on
PYTHONPATH, with Debian's python3-sklearn and numpy, and build dpforest's Python module:

    PYTHONPATH=build/python:/path/to/differential-privacy-library OMP_NUM_THREADS=1 \\
        /usr/bin/python3 -m experiments.tools.compare_diffprivlib --dataset magic-gamma --trees 10,100 \\
        --epsilon 0.1,0.3,1,3,10 --repetitions 10 --order file --out /tmp/cmp.csv

--probe float32 fits the port twice per fold with the same seed, once on X and once on X rounded to
float32 (what diffprivlib's forest does to X before fitting and predicting), and reports how many
test predictions change; --probe ties reports the fraction of test rows whose vote is tied in each
library (both send a tie to the first class).
"""
import argparse
import csv
import sys
import warnings

import numpy as np
from sklearn.model_selection import StratifiedKFold

import dpforest


def load(dataset):
    data = dpforest.load_dataset(dataset)
    X, y = data["X"], data["y"].astype(int)
    lo, hi = np.asarray(data["lo"], dtype=float), np.asarray(data["hi"], dtype=float)
    return X, y, lo, hi, list(range(len(data["classes"])))


def folds(X, y, repetitions, order):
    for rep in range(repetitions):
        for f, (tr, te) in enumerate(StratifiedKFold(10, shuffle=True, random_state=rep).split(X, y)):
            if order == "shuffled":
                tr = np.random.RandomState(100_000 + 10 * rep + f).permutation(tr)
            yield 10 * rep + f, tr, te


def library(trees, eps, lo, hi, classes, seed):
    from diffprivlib.accountant import BudgetAccountant
    from diffprivlib.models import RandomForestClassifier
    return RandomForestClassifier(n_estimators=trees, epsilon=eps, bounds=(lo, hi), classes=classes, max_depth=5,
                                  random_state=seed, accountant=BudgetAccountant())


def port(trees, eps, lo, hi, classes, seed):
    return dpforest.DiffprivlibRFClassifier(n_trees=trees, epsilon=eps, max_depth=5, bounds=list(zip(lo, hi)),
                                            classes=classes, random_state=seed, n_jobs=1)


def compare(args, X, y, lo, hi, classes, writer):
    for trees in args.trees:
        for eps in args.epsilon:
            acc = {"library": [], "port": []}
            for seed, tr, te in folds(X, y, args.repetitions, args.order):
                for side, make in (("library", library), ("port", port)):
                    model = make(trees, eps, lo, hi, classes, seed).fit(X[tr], y[tr])
                    acc[side].append(float(np.mean(model.predict(X[te]) == y[te])))
            row = {"dataset": args.dataset, "order": args.order, "trees": trees, "epsilon": eps, "folds": len(acc["port"])}
            for side, a in acc.items():
                row[f"{side}_mean"] = round(float(np.mean(a)), 4)
                row[f"{side}_se"] = round(float(np.std(a, ddof=1) / np.sqrt(len(a))), 4)
            diff = row["port_mean"] - row["library_mean"]
            tol = max(0.02, 3 * float(np.hypot(row["port_se"], row["library_se"])))
            row.update(diff=round(diff, 4), tolerance=round(tol, 4), agree=abs(diff) <= tol)
            writer.writerow(row)
            print(row, flush=True)


def probe_float32(args, X, y, lo, hi, classes):
    # float32 rounding can step past a domain end; the library clips to its bounds too
    X32 = np.clip(X.astype(np.float32).astype(np.float64), lo, hi)
    for trees in args.trees:
        for eps in args.epsilon:
            changed = total = 0
            acc64, acc32 = [], []
            for seed, tr, te in folds(X, y, args.repetitions, args.order):
                p64 = port(trees, eps, lo, hi, classes, seed).fit(X[tr], y[tr]).predict(X[te])
                p32 = port(trees, eps, lo, hi, classes, seed).fit(X32[tr], y[tr]).predict(X32[te])
                changed += int(np.sum(p64 != p32))
                total += len(te)
                acc64.append(np.mean(p64 == y[te]))
                acc32.append(np.mean(p32 == y[te]))
            print(f"float32 probe trees={trees} eps={eps}: {changed} of {total} test predictions change; "
                  f"accuracy {np.mean(acc64):.4f} (float64 X) vs {np.mean(acc32):.4f} (float32 X)", flush=True)


def probe_ties(args, X, y, lo, hi, classes):
    for trees in args.trees:
        for eps in args.epsilon:
            tied = {"library": 0, "port": 0}
            total = 0
            for seed, tr, te in folds(X, y, args.repetitions, args.order):
                for side, make in (("library", library), ("port", port)):
                    proba = make(trees, eps, lo, hi, classes, seed).fit(X[tr], y[tr]).predict_proba(X[te])
                    top = np.sort(proba, axis=1)
                    tied[side] += int(np.sum(np.isclose(top[:, -1], top[:, -2])))
                total += len(te)
            print(f"ties trees={trees} eps={eps}: library {tied['library'] / total:.4f}, port {tied['port'] / total:.4f} "
                  f"of {total} test rows", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dataset", default="magic-gamma")
    ap.add_argument("--trees", type=lambda s: [int(v) for v in s.split(",")], default=[10, 100])
    ap.add_argument("--epsilon", type=lambda s: [float(v) for v in s.split(",")], default=[0.1, 0.3, 1, 3, 10])
    ap.add_argument("--repetitions", type=int, default=10)
    ap.add_argument("--order", choices=["file", "shuffled"], default="file")
    ap.add_argument("--probe", choices=["none", "float32", "ties"], default="none")
    ap.add_argument("--out", help="CSV of the comparison (default: standard output only)")
    args = ap.parse_args()
    warnings.filterwarnings("ignore", module="diffprivlib")
    X, y, lo, hi, classes = load(args.dataset)
    if args.probe == "float32":
        return probe_float32(args, X, y, lo, hi, classes)
    if args.probe == "ties":
        return probe_ties(args, X, y, lo, hi, classes)
    fields = ["dataset", "order", "trees", "epsilon", "folds", "library_mean", "library_se", "port_mean", "port_se",
              "diff", "tolerance", "agree"]
    out = open(args.out, "w", newline="") if args.out else sys.stdout
    writer = csv.DictWriter(out, fieldnames=fields)
    writer.writeheader()
    compare(args, X, y, lo, hi, classes, writer)


if __name__ == "__main__":
    main()
