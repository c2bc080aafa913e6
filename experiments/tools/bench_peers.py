"""Breiman RF and Extra-Trees against scikit-learn and ranger, in one run, with held-out accuracy.

The reference points: 10^5 and 10^6 x 10 synthetic rows (synthetic:classification, seed 1), one
thread, 100 fully grown trees, sqrt(d) = 3 candidate features per node. Every side fits the first
80 % of the rows of the same exported CSV and is scored on the last 20 % (the rows are i.i.d.).
The 10^6 rows are timed once per side (REPEATS_LARGE), which is minutes each for the peers;
DPF_BENCH_PEERS_MAX (default 1000000) lowers the largest size for a quick run.
  rf   bootstrap, min_samples_leaf 1   vs RandomForestClassifier   vs ranger(replace = TRUE, splitrule gini)
  ert  no bootstrap, one uniform threshold per candidate feature
                                       vs ExtraTreesClassifier     vs ranger(replace = FALSE, sample.fraction = 1,
                                                                              splitrule extratrees, num.random.splits = 1)
ranger's min.node.size = 1 is its classification default (a node of 1 row is not split, like
scikit-learn's min_samples_split = 2). Peers are told the same trees, mtry and sampling; their voting
differs as documented (scikit-learn averages class probabilities, ranger and we take majority or
mean-probability votes), which is why held-out accuracy is printed next to the times.
"""
import os
import shutil

from sklearn.ensemble import ExtraTreesClassifier, RandomForestClassifier

SIZES = [10**5, 10**6]
TEST_FRACTION = 0.2
TREES = 100
MTRY = 3
REPEATS = 3
REPEATS_LARGE = 1  # from 10^6 rows


def run(ctx):
    top = int(os.environ.get("DPF_BENCH_PEERS_MAX", SIZES[-1]))
    rows = []
    for n in SIZES:
        if n <= top:
            rows += run_size(ctx, f"synthetic:classification:n={n},d=10,seed=1",
                             ctx.repeats(REPEATS if n < 10**6 else REPEATS_LARGE))
    return rows


def run_size(ctx, dataset, repeats):
    import numpy as np
    X, y = ctx.load(dataset)
    n_test = round(TEST_FRACTION * len(y))
    Xtr, ytr, Xte, yte = X[:-n_test], y[:-n_test], X[-n_test:], y[-n_test:]
    sides = [
        ("rf", {"n_trees": TREES, "max_features": MTRY, "bootstrap": "true"},
         RandomForestClassifier, {"n_estimators": TREES, "max_features": MTRY, "bootstrap": True},
         f"num.trees = {TREES}, mtry = {MTRY}, replace = TRUE, splitrule = 'gini', min.node.size = 1"),
        ("ert", {"n_trees": TREES, "max_features": MTRY, "bootstrap": "false"},
         ExtraTreesClassifier, {"n_estimators": TREES, "max_features": MTRY, "bootstrap": False},
         f"num.trees = {TREES}, mtry = {MTRY}, replace = FALSE, sample.fraction = 1, splitrule = 'extratrees', "
         "num.random.splits = 1, min.node.size = 1"),
    ]
    rows = []
    for algo, ours_params, est, peer_params, ranger_args in sides:
        try:
            ours = ctx.ours(algo, dataset, ours_params, repeats, test_fraction=TEST_FRACTION)
        except Exception as e:  # noqa: BLE001
            ctx.errors.append((f"peers: {algo}", str(e)))
            continue
        base = {"dataset": dataset, "n_rows": ours["n_rows"], "n_features": ours["n_features"],
                "ours_algorithm": algo, "ours_params": ";".join(f"{k}={v}" for k, v in ours_params.items()),
                "ours_fit_s": f'{ours["fit_seconds"]["median"]:.6g}',
                "ours_fits_per_s": f'{1 / ours["fit_seconds"]["median"]:.6g}', "repeats": repeats,
                "ours_test_accuracy": f'{ours["test_accuracy"]:.4f}',
                "ours_predict_s": f'{ours["predict_seconds"]:.6g}',
                "predict_over_fit": f'{ours["predict_seconds"] / ours["fit_seconds"]["median"]:.3f}'}
        # scikit-learn: fitted on the same first rows, n_jobs = 1.
        try:
            factory = lambda seed: est(n_jobs=1, random_state=seed, **peer_params)  # noqa: E731
            t = ctx.sklearn_fit_time(factory, Xtr, ytr, repeats)
            acc = float(np.mean(t["model"].predict(Xte) == yte))
            rows.append(dict(base, peer=f"sklearn.{est.__name__}",
                             peer_params=";".join(f"{k}={v}" for k, v in dict(peer_params, n_jobs=1).items()),
                             peer_fit_s=f'{t["median"]:.6g}', peer_fits_per_s=f'{1 / t["median"]:.6g}',
                             ratio_peer_over_ours=f'{t["median"] / ours["fit_seconds"]["median"]:.3f}',
                             peer_test_accuracy=f"{acc:.4f}"))
        except Exception as e:  # noqa: BLE001
            ctx.errors.append((f"peers: {algo} vs scikit-learn", str(e)))
        if shutil.which("Rscript") is None:
            ctx.errors.append((f"peers: {algo} vs ranger", "Rscript not found (make bench installs r-cran-ranger)"))
            continue
        try:
            r = ctx.ranger(dataset, ranger_args, repeats, TEST_FRACTION)
            rows.append(dict(base, peer="ranger", peer_params=ranger_args.replace(",", ";") + ";num.threads=1",
                             peer_fit_s=f'{r["median"]:.6g}', peer_fits_per_s=f'{1 / r["median"]:.6g}',
                             ratio_peer_over_ours=f'{r["median"] / ours["fit_seconds"]["median"]:.3f}',
                             peer_test_accuracy=f'{r["test_accuracy"]:.4f}'))
        except Exception as e:  # noqa: BLE001
            ctx.errors.append((f"peers: {algo} vs ranger", str(e)))
    return rows
