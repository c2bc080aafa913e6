#!/usr/bin/env python3
"""Three differentially private forests from dpforest against scikit-learn's RandomForestClassifier.

The data is a registry dataset (fetched by `make datasets`, or the offline mirror) with its PUBLIC
schema: the feature domains given to the private forests come from the dataset registry, never from
the data. Each private forest is fitted at several epsilons with its defaults, which are its
epsilon-DP variant; accuracy is the mean over REPEATS random 70/30 splits (the same splits for every
method).

    /usr/bin/python3 -m venv --system-site-packages .venv && .venv/bin/pip install --no-build-isolation ./python
    .venv/bin/python python/examples/compare_forests.py [DATASET]     # from any directory
"""
import sys
import time

import numpy as np
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import train_test_split

import dpforest

DATASET = sys.argv[1] if len(sys.argv) > 1 else "magic-gamma"
EPSILONS = [0.5, 1.0, 2.0, 5.0]
REPEATS = 3

data = dpforest.load_dataset(DATASET)
X, y = data["X"], data["y"].astype(int)
classes = list(range(len(data["classes"])))
public = dict(bounds=data["bounds"], classes=classes)  # the registry's public domains and class list
print(f"{DATASET}: {X.shape[0]} rows, {X.shape[1]} features, classes {data['classes']}")

# name -> estimator factory at a given epsilon (the defaults are the epsilon-DP variants)
PRIVATE = {
    "DiPriMe": lambda eps: dpforest.DiPriMeClassifier(epsilon=eps, n_trees=10, max_depth=6, **public),
    "Smooth-RDF": lambda eps: dpforest.SmoothRDFClassifier(epsilon=eps, domains="public", n_trees=10, **public),
    "DP-ERT": lambda eps: dpforest.DPERTClassifier(epsilon=eps, n_trees=10, max_depth=6, **public),
}

splits = [train_test_split(X, y, test_size=0.3, random_state=r, stratify=y) for r in range(REPEATS)]


def mean_accuracy(make):
    acc, status, spent, seconds = [], None, [], 0.0
    for r, (Xtr, Xte, ytr, yte) in enumerate(splits):
        est = make().set_params(random_state=r)
        t0 = time.perf_counter()
        est.fit(Xtr, ytr)
        seconds += time.perf_counter() - t0
        acc.append(est.score(Xte, yte))
        status = getattr(est, "privacy_status_", "non-private")
        spent.append(getattr(est, "epsilon_spent_", 0.0))
    return np.mean(acc), np.std(acc), status, max(spent), seconds / REPEATS


rf = mean_accuracy(lambda: RandomForestClassifier(n_estimators=100))
print(f"\n{'method':<22}{'epsilon':>8}{'accuracy':>16}{'eps spent':>11}{'fit s':>8}  privacy status")
print(f"{'sklearn RandomForest':<22}{'-':>8}{rf[0]:>10.4f} ±{rf[1]:.3f}{'-':>11}{rf[4]:>8.2f}  non-private")
for name, make in PRIVATE.items():
    for eps in EPSILONS:
        m, s, status, spent, sec = mean_accuracy(lambda: make(eps))
        print(f"{name:<22}{eps:>8g}{m:>10.4f} ±{s:.3f}{spent:>11.3f}{sec:>8.2f}  {status}")
majority = max(np.mean(y == c) for c in classes)
print(f"\nmajority class: {majority:.4f}")
