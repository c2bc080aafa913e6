"""smooth-rdf benchmark: fit time of the Fletcher & Islam forest (100 trees, Table-4 depth, disjoint data,
eps = 1) on SynthA-G-sized data next to scikit-learn's ExtraTreesClassifier with the same number of trees
and depth (max_features = 1: one random feature and one random threshold per node, the nearest peer).

The target: a 100-tree forest on 30,000 records fits in under 0.2 s on one core. Our trees are
data-independent and each sees n/100 rows (disjoint data), the peer's trees see every row, so the ratio
also shows what the disjoint design buys. Also the all-data variant (every tree on every row, eps/100).
"""
from sklearn.ensemble import ExtraTreesClassifier

# (dataset, depth from Table 4, repeats)
DATASETS = [("synth-a", 5, 5), ("synth-f", 8, 5), ("synth-g", 15, 3)]
TREES = 100


def run(ctx):
    rows = []
    for dataset, depth, repeats in DATASETS:
        peer = {"n_estimators": TREES, "max_depth": depth, "max_features": 1, "bootstrap": False}
        rows.append(ctx.compare("smooth-rdf", dataset, "smooth-rdf", {"epsilon": 1, "n_trees": TREES},
                                ExtraTreesClassifier, peer, repeats))
        rows.append(ctx.compare("smooth-rdf", dataset, "smooth-rdf", {"epsilon": 1, "n_trees": TREES, "tree_data": "all"},
                                ExtraTreesClassifier, peer, repeats))
    return rows
