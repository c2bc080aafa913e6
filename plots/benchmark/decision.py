"""Decision support from the leaderboard's results (docs/leaderboard.md "Decision tables"):
  * tracks.csv / the "Tracks" section: each DP forest's mean rank at its paper settings and under the
    private selection (each track ranked on its own), and the oracle's accuracy beside them (never ranked);
  * accuracy.csv: mean accuracy (and AUC on binary sets) or MSE per epsilon, and the gap to the non-private
    Breiman RF on the same datasets;
  * regimes.csv / "Which forest for my data": per n·epsilon bin (n = training rows) and per bin of the
    dataset's features, categorical share and classes (from the rows' n_features, n_categorical,
    n_classes), the DP forest with the best mean rank over the (dataset, epsilon) blocks of the regime, and
    those a paired Wilcoxon signed-rank test over the blocks (alpha 0.05) does not find significantly worse;
  * growth.csv: each algorithm's fit time against n, with the exponent b of a least-squares fit
    fit_seconds ~ a n^b over every fold it ran.
Every number comes from the results tables; nothing is typed in."""
import csv
import math
import os
from collections import defaultdict

from plots.benchmark.data import datasets_of, epsilons_of, fmt_eps, group_of, labels_of, mean_of, scopes, short_name, tasks, track_of
from plots.benchmark.stats import ALPHA, block_complete, rank_row, rankings

REFERENCE = "Breiman RF [non-private]"
NEPS_BINS = [("n·ε < 100", 0, 1e2), ("100 ≤ n·ε < 1,000", 1e2, 1e3), ("1,000 ≤ n·ε < 10,000", 1e3, 1e4),
             ("n·ε ≥ 10,000", 1e4, math.inf)]
# The dataset-shape regimes: (dimension, bins of (name, lo, hi)) on a value of the dataset's shape
# (features, categorical features, classes), read from the rows' n_features / n_categorical / n_classes.
SHAPE_REGIMES = [
    ("features", lambda s: s[0], [("d ≤ 10", 0, 10.5), ("11 ≤ d ≤ 30", 10.5, 30.5), ("d > 30", 30.5, math.inf)]),
    ("categorical share", lambda s: s[1] / s[0] if s[0] else 0.0,
     [("numeric only", 0, 1e-9), ("mixed", 1e-9, 1 - 1e-9), ("categorical only", 1 - 1e-9, math.inf)]),
    ("classes", lambda s: s[2], [("2 classes", 0, 2.5), ("3-5 classes", 2.5, 5.5), ("6+ classes", 5.5, math.inf)]),
]
MIN_BLOCKS = 6  # the signed-rank test needs at least 6 pairs to reach p < 0.05 two-sided


def _complete_mean(data, task, ds, lab, eps):
    key = (task, ds, lab, eps)
    vals = data.values.get(key)
    return mean_of(vals) if block_complete(vals, data.expected.get(key, set())) else math.nan


def track_movement(data):
    """Rows {task, scope, epsilon, algorithm, paper_rank, selection_rank, paper_k, selection_k, paper_mean,
    selection_mean, oracle_mean} for every algorithm ranked in at least one DP track."""
    by = {}
    for track in ("paper", "private-selection"):
        for e in rankings(data, track):
            for lab, r in zip(e["labels"], e["mean_rank"]):
                by.setdefault((e["task"], e["scope"], e["eps"], short_name(lab)), {})[track] = (r, len(e["labels"]), e["datasets"])
    rows = []
    for (task, scope, eps, name), tr in sorted(by.items()):
        dss = (tr.get("paper") or tr.get("private-selection"))[2]
        means = {}
        for lab in labels_of(data, task):
            if short_name(lab) != name or track_of(lab) is None:
                continue
            vs = [_complete_mean(data, task, d, lab, eps) for d in dss]
            means[track_of(lab)] = math.nan if any(math.isnan(v) for v in vs) or not vs else sum(vs) / len(vs)
        rows.append({"task": task, "scope": scope, "epsilon": fmt_eps(eps), "algorithm": name,
                     "paper_rank": tr.get("paper", (math.nan,))[0], "paper_k": tr.get("paper", (0, 0))[1],
                     "selection_rank": tr.get("private-selection", (math.nan,))[0],
                     "selection_k": tr.get("private-selection", (0, 0))[1],
                     "paper_mean": means.get("paper", math.nan), "selection_mean": means.get("private-selection", math.nan),
                     "oracle_mean": means.get("oracle", math.nan)})
    return rows


def accuracy_table(data):
    """Rows {task, scope, epsilon, label, track, n_datasets, mean, auc, gap} over the datasets of the scope on
    which the label is complete; gap = label - reference (for MSE, reference - label, so that a negative gap
    always means worse than the non-private forest), NaN unless the reference is complete on all of them."""
    rows = []
    for task in tasks(data):
        higher = task != "regression"
        for scope, dss in scopes(data, task):
            for eps in epsilons_of(data, task):
                for lab in labels_of(data, task):
                    if track_of(lab) is None:
                        continue
                    vals, refs, aucs = [], [], []
                    for d in dss:
                        v = _complete_mean(data, task, d, lab, eps)
                        if math.isnan(v):
                            continue
                        vals.append(v)
                        refs.append(_complete_mean(data, task, d, REFERENCE, None))
                        a = data.auc.get((task, d, lab, eps))
                        if a:
                            aucs.append(sum(a) / len(a))
                    if not vals:
                        continue
                    # the gap needs the reference on every dataset the mean is over (else it is left out)
                    m, ref = sum(vals) / len(vals), (math.nan if any(math.isnan(r) for r in refs) else sum(refs) / len(refs))
                    rows.append({"task": task, "scope": scope, "epsilon": fmt_eps(eps), "label": lab,
                                 "track": track_of(lab), "n_datasets": len(vals), "mean": m,
                                 "auc": sum(aucs) / len(aucs) if aucs else math.nan,
                                 "gap": (m - ref) if higher else (ref - m)})
    return rows


def _wilcoxon_p(a, b):
    from scipy import stats
    diff = [x - y for x, y in zip(a, b)]
    if len(diff) < MIN_BLOCKS or all(d == 0 for d in diff):
        return math.nan
    return float(stats.wilcoxon(a, b).pvalue)


def _regime_row(data, task, labs, name, blocks, higher):
    """Best mean rank over the blocks and those not significantly worse, or None (fewer than 2 complete)."""
    ok = [lab for lab in labs if blocks and all(not math.isnan(_complete_mean(data, task, d, lab, e)) for d, e in blocks)]
    if len(ok) < 2:
        return None
    matrix = [[_complete_mean(data, task, d, lab, e) for lab in ok] for d, e in blocks]
    ranks = [rank_row(row, higher) for row in matrix]
    mr = [sum(r[j] for r in ranks) / len(ranks) for j in range(len(ok))]
    order = sorted(range(len(ok)), key=lambda j: mr[j])
    b = order[0]
    tied = []
    for j in order[1:]:
        p = _wilcoxon_p([row[b] for row in matrix], [row[j] for row in matrix])
        if math.isnan(p) or p >= ALPHA:
            tied.append((short_name(ok[j]), mr[j], p))
    return {"task": task, "regime": name, "blocks": len(blocks), "k": len(ok), "best": short_name(ok[b]),
            "best_rank": mr[b], "tied": tied}


def regimes(data, track="paper"):
    """Rows {task, dimension, regime, blocks, best, best_rank, tied (list of (name, rank, p)), k}: per n·ε bin,
    then per bin of each dataset-shape dimension (where the rows carry the shape)."""
    out = []
    for task in tasks(data):
        higher = task != "regression"
        labs = labels_of(data, task, "dp", track)
        dss, epss = datasets_of(data, task), epsilons_of(data, task)
        for name, lo, hi in NEPS_BINS:
            r = _regime_row(data, task, labs, name, [(d, e) for d in dss for e in epss
                                                     if lo <= data.n_train.get(d, 0) * e < hi], higher)
            if r:
                out.append(dict(r, dimension="n·ε", track=track))
        for dim, value, bins in SHAPE_REGIMES:
            if dim == "classes" and task == "regression":
                continue
            for name, lo, hi in bins:
                sel = [d for d in dss if d in data.shape and lo <= value(data.shape[d]) < hi]
                r = _regime_row(data, task, labs, name, [(d, e) for d in sel for e in epss], higher)
                if r:
                    out.append(dict(r, dimension=dim, track=track))
    return out


def growth(data):
    """Rows {label, fits, exponent, n_min, n_max}: least squares of log fit_seconds on log n_train."""
    rows = []
    for lab, pts in sorted(data.fit.items()):
        xy = [(math.log(n), math.log(t)) for t, n in pts if n and t > 0]
        xs = {x for x, _ in xy}
        if len(xs) < 2:
            continue
        mx = sum(x for x, _ in xy) / len(xy)
        my = sum(y for _, y in xy) / len(xy)
        sxx = sum((x - mx) ** 2 for x, _ in xy)
        b = sum((x - mx) * (y - my) for x, y in xy) / sxx
        rows.append({"label": lab, "group": group_of(lab), "fits": len(xy), "exponent": b,
                     "n_min": round(math.exp(min(xs))), "n_max": round(math.exp(max(xs)))})
    return rows


def _f(v, nd=3):
    return "—" if v is None or (isinstance(v, float) and math.isnan(v)) else f"{v:.{nd}f}"


def write(outdir, data):
    """Writes tracks.csv, accuracy.csv, regimes.csv, growth.csv and returns the report's markdown lines."""
    mv, acc, gr = track_movement(data), accuracy_table(data), growth(data)
    reg = regimes(data, "paper") + regimes(data, "private-selection")
    for name, rows in (("tracks", mv), ("accuracy", acc), ("growth", gr)):
        if rows:
            with open(os.path.join(outdir, f"{name}.csv"), "w", newline="") as f:
                w = csv.DictWriter(f, fieldnames=list(rows[0]))
                w.writeheader()
                w.writerows(rows)
    with open(os.path.join(outdir, "regimes.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["track", "task", "dimension", "regime", "blocks", "k", "best", "best_mean_rank",
                    "not_significantly_worse"])
        for r in reg:
            w.writerow([r["track"], r["task"], r["dimension"], r["regime"], r["blocks"], r["k"], r["best"], f"{r['best_rank']:.3f}",
                        "; ".join(f"{n} ({x:.2f})" for n, x, _ in r["tied"])])
    md = ["## Decision support", "",
          "### Which forest for my data", "",
          "n = training rows; d = features. In each regime, the best mean rank over its (dataset, ε) blocks, and "
          "every DP forest a "
          f"paired Wilcoxon signed-rank test over the blocks (α = {ALPHA}) does not find significantly worse "
          f"(with fewer than {MIN_BLOCKS} blocks nothing is tested and all are listed).", "",
          "| track | task | by | regime | blocks | k | best (mean rank) | not significantly worse |",
          "|---|---|---|---|---|---|---|---|"]
    for r in reg:
        md.append(f"| {r['track']} | {r['task']} | {r['dimension']} | {r['regime']} | {r['blocks']} | {r['k']} | **{r['best']}** ({r['best_rank']:.2f}) | "
                  + (", ".join(f"{n} ({x:.2f})" for n, x, _ in r["tied"]) or "none") + " |")
    md += ["", "### Tracks: how each forest's rank moves when it is tuned", "",
           "Mean rank among the forests of the same track (paper settings; private selection, ε-DP at the row's "
           "ε); the oracle (non-private nested CV, not DP) is never ranked: its mean metric is shown beside.", "",
           "| task, scope | ε | algorithm | rank, paper (k) | rank, private selection (k) | mean, paper | mean, private "
           "selection | mean, oracle (not DP) |", "|---|---|---|---|---|---|---|---|"]
    for r in mv:
        md.append(f"| {r['task']}, {r['scope']} | {r['epsilon']} | {r['algorithm']} | {_f(r['paper_rank'], 2)} ({r['paper_k']}) | "
                  f"{_f(r['selection_rank'], 2)} ({r['selection_k']}) | {_f(r['paper_mean'])} | {_f(r['selection_mean'])} | "
                  f"{_f(r['oracle_mean'])} |")
    md += ["", "### Accuracy and the gap to the non-private forest", "",
           f"Mean over the scope's datasets where the label is complete; gap = mean − {short_name(REFERENCE)}'s "
           "(for MSE, reference − mean: negative is always worse). AUC on binary datasets only.", "",
           "| task, scope | ε | label | datasets | mean | AUC | gap |", "|---|---|---|---|---|---|---|"]
    for r in acc:
        md.append(f"| {r['task']}, {r['scope']} | {r['epsilon']} | {r['label']} | {r['n_datasets']} | {_f(r['mean'])} | "
                  f"{_f(r['auc'])} | {'—' if math.isnan(r['gap']) else format(r['gap'], '+.3f')} |")
    md += ["", "### Fit time against n", "", "Exponent b of fit_seconds ≈ a·n^b (least squares in log space over "
           "every fold).", "", "| label | fits | b | n range |", "|---|---|---|---|"]
    for r in gr:
        md.append(f"| {r['label']} | {r['fits']} | {r['exponent']:.2f} | {r['n_min']:,}–{r['n_max']:,} |")
    return md + [""]
