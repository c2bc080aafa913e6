"""The leaderboard's statistics: ranks per dataset (ties averaged), the Friedman test with the
Iman-Davenport F, Nemenyi's critical difference and its cliques (Demšar 2006), the wins/ties/losses of a
Wilcoxon signed-rank test against the best non-private forest, completeness of the blocks, and fit times.
Tested against worked examples by plots/benchmark/test_leaderboard.py."""
import math
import statistics
from collections import defaultdict

from plots.benchmark.data import datasets_of, epsilons_of, fmt_eps, group_of, labels_of, mean_of, scopes, tasks

ALPHA = 0.05
# q_alpha at alpha = 0.05 for the Nemenyi test (Demšar 2006, Table 5a), used only if scipy lacks
# studentized_range (scipy < 1.7).
Q05 = {2: 1.960, 3: 2.343, 4: 2.569, 5: 2.728, 6: 2.850, 7: 2.949, 8: 3.031, 9: 3.102, 10: 3.164}

SIZE_CLASSES = [("small (n_train < 1k)", 0, 1000), ("medium (1k-10k)", 1000, 10000),
                ("large (>= 10k)", 10000, math.inf)]


# ----------------------------------------------------------------------------------------------------------
# Pure functions

def rank_row(values, higher_is_better=True):
    """Ranks of one dataset's values, 1 = best, ties get the average of the ranks they span."""
    sign = -1.0 if higher_is_better else 1.0
    order = sorted(range(len(values)), key=lambda i: sign * values[i])
    r = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j < len(order) and values[order[j]] == values[order[i]]:
            j += 1
        for t in range(i, j):
            r[order[t]] = 0.5 * (i + 1 + j)
        i = j
    return r


def mean_ranks(matrix, higher_is_better=True):
    """matrix: one row per dataset, one column per algorithm (complete). Returns (mean ranks, rank rows)."""
    rows = [rank_row(v, higher_is_better) for v in matrix]
    k = len(matrix[0])
    return [sum(r[j] for r in rows) / len(rows) for j in range(k)], rows


def friedman_from_mean_ranks(mean_rank, n):
    """Friedman's chi-square and Iman-Davenport F from the mean ranks of k algorithms on n datasets (Demšar
    2006, eqs. in §3.2.2; no tie correction). Returns (chi2, p_chi2, ff, p_ff)."""
    from scipy import stats
    k = len(mean_rank)
    chi2 = 12.0 * n / (k * (k + 1)) * (sum(r * r for r in mean_rank) - k * (k + 1) ** 2 / 4.0)
    return _friedman_tail(chi2, k, n, stats)


def _friedman_tail(chi2, k, n, stats):
    p_chi2 = float(stats.chi2.sf(chi2, k - 1))
    denom = n * (k - 1) - chi2
    if denom <= 0:  # every dataset ranks the algorithms identically: F is infinite
        return chi2, p_chi2, math.inf, 0.0
    ff = (n - 1) * chi2 / denom
    return chi2, p_chi2, ff, float(stats.f.sf(ff, k - 1, (k - 1) * (n - 1)))


def friedman(rank_rows):
    """Friedman test from the per-dataset rank rows, with the usual correction for tied ranks (the statistic
    scipy.stats.friedmanchisquare computes); Iman-Davenport F from that chi-square. (chi2, p, ff, p_ff)."""
    from scipy import stats
    n, k = len(rank_rows), len(rank_rows[0])
    sums = [sum(r[j] for r in rank_rows) for j in range(k)]
    chi2 = 12.0 / (n * k * (k + 1)) * sum(s * s for s in sums) - 3.0 * n * (k + 1)
    ties = 0.0
    for r in rank_rows:
        counts = defaultdict(int)
        for v in r:
            counts[v] += 1
        ties += sum(t ** 3 - t for t in counts.values())
    c = 1.0 - ties / (n * k * (k * k - 1))
    chi2 = chi2 / c if c > 0 else 0.0
    return _friedman_tail(chi2, k, n, stats)


def q_alpha(k, alpha=ALPHA):
    """Nemenyi's critical value: the studentized range quantile (k groups, infinite df) / sqrt(2)."""
    try:
        from scipy.stats import studentized_range
        return float(studentized_range.ppf(1 - alpha, k, math.inf)) / math.sqrt(2)
    except ImportError:
        if alpha != 0.05 or k not in Q05:
            raise
        return Q05[k]


def critical_difference(k, n, alpha=ALPHA):
    return q_alpha(k, alpha) * math.sqrt(k * (k + 1) / (6.0 * n))


def cd_cliques(sorted_ranks, cd):
    """Groups of algorithms not significantly different (Nemenyi): maximal runs [i, j] (indices into the
    ascending sorted_ranks, i < j) whose rank span is below cd; runs inside another run are dropped."""
    out = []
    n = len(sorted_ranks)
    for i in range(n):
        j = i
        while j + 1 < n and sorted_ranks[j + 1] - sorted_ranks[i] < cd:
            j += 1
        if j > i and not any(a <= i and j <= b for a, b in out):
            out.append((i, j))
    return out


def paired_outcome(a, b, higher_is_better=True, alpha=ALPHA):
    """Win/tie/loss of a against b over their common keys ({(rep, fold): value} each): 'W' or 'L' when the
    two-sided Wilcoxon signed-rank test is significant at alpha (direction from the mean difference), else
    'T'. Returns (outcome, p, number of pairs)."""
    from scipy import stats
    keys = sorted(set(a) & set(b))
    x = [a[k] for k in keys]
    y = [b[k] for k in keys]
    d = [u - v for u, v in zip(x, y)]
    if not keys or all(v == 0 for v in d):
        return "T", (math.nan if not keys else 1.0), len(keys)
    p = float(stats.wilcoxon(x, y).pvalue)
    if not p < alpha:
        return "T", p, len(keys)
    better = (sum(d) > 0) == higher_is_better
    return ("W" if better else "L"), p, len(keys)


def complete_algorithms(blocks, expected, datasets, labels):
    """Labels whose block is complete on every dataset: blocks[(dataset, label)] = {pair: value},
    expected[(dataset, label)] = set of pairs. Returns (complete labels, {label: datasets it lacks})."""
    ok, lacking = [], {}
    for lab in labels:
        miss = [d for d in datasets if not block_complete(blocks.get((d, lab)), expected.get((d, lab)))]
        if miss:
            lacking[lab] = miss
        else:
            ok.append(lab)
    return ok, lacking


def block_complete(values, expected):
    if not values:
        return False
    present = {k for k, v in values.items() if not math.isnan(v)}
    return bool(expected) and expected <= present if expected else bool(present)


def fmt_p(p):
    return "< 1e-16" if p == 0 else f"{p:.2g}"


def p_is(p):
    """'= 0.0012' or '< 1e-16' (a p-value that underflows to 0)."""
    return "< 1e-16" if p == 0 else f"= {p:.2g}"


# ----------------------------------------------------------------------------------------------------------
# Analyses of the benchmark data

def rankings(data, track="paper"):
    """[{task, scope, eps, datasets, labels, mean_rank, friedman, cd, excluded, track}] per task, scope and
    epsilon, over the DP labels of one tuning track (data.TRACKS): the paper settings and the private
    selection are ranked apart, and the oracle never (it is not DP)."""
    res = []
    for task in tasks(data):
        higher = task != "regression"
        for scope, all_dss in scopes(data, task):
            for eps in epsilons_of(data, task):
                dss = all_dss
                labs = labels_of(data, task, "dp", track)
                if not labs:
                    continue
                blocks = {(d, lab): data.values.get((task, d, lab, eps)) for d in dss for lab in labs}
                expected = {(d, lab): data.expected.get((task, d, lab, eps), set()) for d in dss for lab in labs}
                # A dataset on which no DP algorithm is complete would empty every ranking: it is left out
                # of the scope (and named in the report) instead.
                dropped = [d for d in dss if not any(block_complete(blocks[(d, lab)], expected[(d, lab)])
                                                     for lab in labs)]
                dss = [d for d in dss if d not in dropped]
                ok, lacking = complete_algorithms(blocks, expected, dss, labs)
                entry = {"task": task, "scope": scope, "eps": eps, "datasets": dss, "labels": ok,
                         "excluded": lacking, "mean_rank": [], "friedman": None, "cd": math.nan,
                         "dropped": dropped, "track": track}
                if len(ok) >= 2 and dss:
                    matrix = [[mean_of(blocks[(d, lab)]) for lab in ok] for d in dss]
                    mr, rows = mean_ranks(matrix, higher)
                    entry["mean_rank"] = mr
                    if len(dss) >= 2:
                        entry["friedman"] = friedman(rows)
                        entry["cd"] = critical_difference(len(ok), len(dss))
                res.append(entry)
    return res


def completeness(data):
    """Rows (task, dataset, label, eps, present, expected, status, reason) for every expected block."""
    out = []
    for key in sorted(data.expected, key=lambda k: (k[0], k[1], k[2], -1 if k[3] is None else k[3])):
        task, ds, lab, eps = key
        exp = data.expected[key]
        vals = data.values.get(key, {})
        present = sum(1 for p, v in vals.items() if p in exp and not math.isnan(v))
        status = "complete" if present == len(exp) and exp else ("missing" if present == 0 else "partial")
        reason = data.failures.get((ds, lab, eps), "")
        if status != "complete" and not reason:
            reason = "not run (no rows, no failed-cell file)" if not vals else "some folds absent"
        out.append({"task": task, "dataset": ds, "label": lab, "epsilon": fmt_eps(eps), "present_folds": present,
                    "expected_folds": len(exp), "status": status, "reason": reason})
    return out


def wins_ties_losses(data):
    """Per (task, eps, label) of the DP and published labels, the outcome per dataset against the best
    non-private forest of that dataset (best mean over its folds)."""
    per_ds = []
    for task in tasks(data):
        higher = task != "regression"
        refs = labels_of(data, task, "non-private")
        for ds in datasets_of(data, task):
            cands = [(mean_of(data.values.get((task, ds, r, None))), r) for r in refs
                     if data.values.get((task, ds, r, None))]
            cands = [c for c in cands if not math.isnan(c[0])]
            if not cands:
                continue
            best = max(cands)[1] if higher else min(cands)[1]
            ref = {k: v for k, v in data.values[(task, ds, best, None)].items() if not math.isnan(v)}
            for eps in epsilons_of(data, task):
                for lab in labels_of(data, task, "dp") + labels_of(data, task, "published"):
                    vals = data.values.get((task, ds, lab, eps))
                    if not vals:
                        continue
                    clean = {k: v for k, v in vals.items() if not math.isnan(v)}
                    o, p, n = paired_outcome(clean, ref, higher)
                    per_ds.append({"task": task, "epsilon": fmt_eps(eps), "label": lab, "group": group_of(lab),
                                   "dataset": ds, "reference": best, "outcome": o,
                                   "p": "" if math.isnan(p) else f"{p:.4g}", "pairs": n,
                                   "mean": f"{mean_of(clean):.6g}", "reference_mean": f"{mean_of(ref):.6g}"})
    return per_ds


def fit_times(data):
    """Per label (fastest median first): fits, median and total fit seconds, and the median per size class
    of n_train (SIZE_CLASSES); the numbers as the fit-time table prints them."""
    labs = sorted(data.fit, key=lambda lab: statistics.median(t for t, _ in data.fit[lab]))
    rows = []
    for lab in labs:
        ts = [t for t, _ in data.fit[lab]]
        row = {"label": lab, "group": group_of(lab), "fits": len(ts), "median_s": f"{statistics.median(ts):.4g}",
               "total_s": f"{sum(ts):.4g}"}
        for name, a, b in SIZE_CLASSES:
            sub = [t for t, n in data.fit[lab] if n is not None and a <= n < b]
            row[name] = f"{statistics.median(sub):.4g}" if sub else ""
        rows.append(row)
    return rows
