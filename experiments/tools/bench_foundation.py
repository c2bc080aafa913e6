"""Foundation benchmark: fits/s of our RF, ERT, DiPriMe and DiPriMeExp next to scikit-learn.

On Banknote (1372 x 4) and a 30,000 x 10 synthetic set, with the same trees and depth on both sides:
  rf  vs RandomForestClassifier  (10 trees, max_depth 5 and 10, max_features 4 / 3, min_samples_leaf 5, bootstrap)
  ert vs ExtraTreesClassifier    (same, no bootstrap)
  dipreme (eps 1, 10 trees, depth 5) and dipreme-exp (k 4) vs ExtraTreesClassifier, 10 trees, depth 5,
    max_features = the attributes a node considers (1 for DiPriMe, k for DiPriMeExp), the nearest peer:
    random thresholds, no impurity sweep. DiPriMe partitions the rows (each tree fits on n/10 of them);
    the peer's trees see every row.
"""
from sklearn.ensemble import ExtraTreesClassifier, RandomForestClassifier

SYNTHETIC = "synthetic:classification:n=30000,d=10,seed=1"
# (dataset, max_features of RF/ERT, repeats): repeats chosen so that `make bench` stays near 1-2 minutes.
DATASETS = [("banknote", 4, 10), (SYNTHETIC, 3, 3)]
TREES = 10


def run(ctx):
    rows = []
    for dataset, max_features, repeats in DATASETS:
        for depth in (5, 10):
            common = {"n_trees": TREES, "max_depth": depth, "max_features": max_features, "min_samples_leaf": 5}
            peer = {"n_estimators": TREES, "max_depth": depth, "max_features": max_features, "min_samples_leaf": 5}
            rows.append(ctx.compare("foundation", dataset, "rf", common, RandomForestClassifier,
                                    dict(peer, bootstrap=True), repeats))
            rows.append(ctx.compare("foundation", dataset, "ert", common, ExtraTreesClassifier,
                                    dict(peer, bootstrap=False), repeats))
        et = {"n_estimators": TREES, "max_depth": 5, "min_samples_leaf": 1, "bootstrap": False}
        rows.append(ctx.compare("foundation", dataset, "dipreme", {"epsilon": 1, "n_trees": TREES, "max_depth": 5},
                                ExtraTreesClassifier, dict(et, max_features=1), repeats))
        rows.append(ctx.compare("foundation", dataset, "dipreme-exp",
                                {"epsilon": 1, "n_trees": TREES, "max_depth": 5, "k": 4},
                                ExtraTreesClassifier, dict(et, max_features=4), repeats))
    return rows
