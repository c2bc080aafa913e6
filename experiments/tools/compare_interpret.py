#!/usr/bin/python3
"""dpforest's dp-ebm against InterpretML's DPExplainableBoostingClassifier on identical folds and rows.

Both sides get the same training rows in the same order, the same explicit feature types (numeric
features 'continuous', categorical ones 'nominal' as their codes 0..k-1, which the library orders
numerically, as dpforest does), the same public bounds (the dataset registry's domains, passed as the
library's privacy_bounds), epsilon and delta, and are scored on the same test rows. Folds: scikit-learn's
StratifiedKFold(5, shuffle=True, random_state=repetition). The two sides draw their noise differently,
so the comparison is of means over folds, with standard errors.

The port runs twice per fold: as the library behaves (strict=false, the published variant) and strict.

InterpretML is not a dependency of dpforest and none of its code is in this repository. It needs its
native libebm built from the same source checkout (dp-ebm.md §12 says how it was built here) and two
import shims that touch no algorithmic code, applied below: scipy 1.10 lacks scipy.sparse.sparray, and
scikit-learn 1.2 lacks the >= 1.6 __sklearn_tags__ API, so interpret is made to use its built-in
scikit-learn stubs. With Debian's python3-numpy/scipy/sklearn/joblib and dpforest's module built:

    PYTHONPATH=build/python:/path/to/interpret/python/interpret-core OMP_NUM_THREADS=1 \\
        /usr/bin/python3 -m experiments.tools.compare_interpret --dataset adult \\
        --epsilon 0.5,1,4 --repetitions 1 --out /tmp/cmp.csv
"""
import argparse
import csv
import sys
import time
import warnings

import numpy as np
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import StratifiedKFold

import dpforest


def import_interpret():
    """interpret's DP classifier under the two shims of the module docstring."""
    import scipy.sparse
    if not hasattr(scipy.sparse, "sparray"):
        scipy.sparse.sparray = type("sparray", (), {})
    saved = {k: sys.modules.get(k) for k in ("sklearn.base", "sklearn.exceptions")}
    for k in saved:
        sys.modules[k] = None  # `from sklearn.base import ...` raises ImportError: interpret uses its stubs
    try:
        from interpret.privacy import DPExplainableBoostingClassifier
    finally:
        for k, v in saved.items():
            if v is None:
                del sys.modules[k]
            else:
                sys.modules[k] = v
    return DPExplainableBoostingClassifier


def load(dataset):
    data = dpforest.load_dataset(dataset)
    kinds = data["kinds"]
    return data["X"], data["y"].astype(int), kinds, data["lo"], data["hi"], data["categories"]


def library(cls, eps, delta, kinds, lo, hi, seed):
    types_ = ["continuous" if k == "numeric" else "nominal" for k in kinds]
    bounds = {f: (lo[f], hi[f]) for f, k in enumerate(kinds) if k == "numeric"}
    return cls(epsilon=eps, delta=delta, feature_types=types_, privacy_bounds=bounds, random_state=seed, n_jobs=1)


def port(eps, delta, strict, kinds, lo, hi, categories, seed):
    bounds = {f: (lo[f], hi[f]) for f, k in enumerate(kinds) if k == "numeric"}
    cats = {f: list(range(len(c))) for f, c in enumerate(categories) if kinds[f] != "numeric"}
    return dpforest.DPEBMClassifier(epsilon=eps, delta=delta, strict=strict, bounds=bounds, categories=cats or None,
                                    classes=[0, 1], random_state=seed)


def score(model, X, y):
    proba = model.predict_proba(X)[:, 1]
    return float(np.mean(model.predict(X) == y)), float(roc_auc_score(y, proba))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dataset", default="adult")
    ap.add_argument("--epsilon", default="0.5,1,4")
    ap.add_argument("--delta", type=float, default=1e-6)
    ap.add_argument("--repetitions", type=int, default=1)
    ap.add_argument("--out", required=True)
    a = ap.parse_args(argv)
    DPEBM = import_interpret()
    X, y, kinds, lo, hi, categories = load(a.dataset)
    rows = []
    for rep in range(a.repetitions):
        for f, (tr, te) in enumerate(StratifiedKFold(5, shuffle=True, random_state=rep).split(X, y)):
            for eps in [float(e) for e in a.epsilon.split(",")]:
                seed = 1000 * rep + f + 1
                sides = {"library": lambda: library(DPEBM, eps, a.delta, kinds, lo, hi, seed)}
                for strict in (False, True):
                    sides["port-strict" if strict else "port"] = (
                        lambda s=strict: port(eps, a.delta, s, kinds, lo, hi, categories, seed))
                for side, make in sides.items():
                    m = make()
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        t0 = time.process_time()
                        m.fit(X[tr], y[tr])
                        cpu = time.process_time() - t0
                    acc, auc = score(m, X[te], y[te])
                    rows.append({"dataset": a.dataset, "fold": 5 * rep + f, "epsilon": eps, "side": side,
                                 "accuracy": acc, "auc": auc, "fit_cpu_seconds": cpu})
                    print(rows[-1], flush=True)
    with open(a.out, "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    summarize(rows)


def summarize(rows):
    keys = sorted({(r["epsilon"], r["side"]) for r in rows})
    print("epsilon side n accuracy(se) auc(se) cpu_s")
    for eps, side in keys:
        sel = [r for r in rows if r["epsilon"] == eps and r["side"] == side]
        acc = np.array([r["accuracy"] for r in sel])
        auc = np.array([r["auc"] for r in sel])
        cpu = np.mean([r["fit_cpu_seconds"] for r in sel])
        se = lambda v: v.std(ddof=1) / np.sqrt(len(v)) if len(v) > 1 else float("nan")
        print(f"{eps:g} {side} {len(sel)} {acc.mean():.4f}({se(acc):.4f}) {auc.mean():.4f}({se(auc):.4f}) {cpu:.2f}")


if __name__ == "__main__":
    main()
