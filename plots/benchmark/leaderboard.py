"""The leaderboard (issue 16): ranks, critical-difference diagrams, metric-vs-epsilon panels, wins/ties/losses
against the best non-private forest, and fit times, from the results of configs/benchmark/*.yaml.

usage: python3 -m plots.benchmark.leaderboard [--publish DIR [--readme README.md]] RESULTS_DIR [RESULTS_DIR ...]

--publish copies the light outputs (the report, headline figure, ranks, summary, W/T/L, fit times,
completeness) to DIR, e.g. results/reference/benchmark/leaderboard (tracked), and --readme rewrites the
README's block between <!-- leaderboard:begin --> and <!-- leaderboard:end --> from that copy.

Each RESULTS_DIR holds a results.csv from `dpforest run` (and, optionally, cells/*.error files of failed
cells). Outputs go to <parent of the first RESULTS_DIR>/leaderboard/ (e.g. results/benchmark/leaderboard/):
leaderboard.md, headline.png/.svg, cd-<task>-<scope>-eps<e>.png/.svg, panels-<task>.png/.svg,
wtl.md/.csv (per dataset: wtl-datasets.csv), fit-time.md/.csv/.png, ranks.csv, completeness.csv,
incomplete.md and
summary.csv (mean, sd, n per task, dataset, label and epsilon).

Groups come from the label's last bracket: "[DP]" or "[DP, ...]" are private and ranked; "[published]" are
published mechanisms that are not DP (shown dashed and marked, never ranked); "[non-private]" are the reference
forests. Ranks (1 = best; accuracy higher-better, mse lower-better; ties averaged) are taken over the
per-dataset means, per epsilon, on complete blocks only: an algorithm enters a ranking only if every dataset
of the scope has all its expected (repetition, fold) results; a dataset on which no DP algorithm is complete
is left out of the scope instead (and named in the report). Expected = within each RESULTS_DIR, every
(label, dataset, epsilon) seen in its rows or its failed cells, times the (repetition, fold) pairs seen there.
Scopes: "all" (every dataset of the task) and, for classification, "binary" (the datasets whose rows report an
AUC, i.e. two classes; binary-only algorithms enter here)."""
import csv
import glob
import math
import os
import re
import statistics
import sys
from collections import defaultdict

from plots.common import metric, plt, replace_marked_block

ALPHA = 0.05
# q_alpha at alpha = 0.05 for the Nemenyi test (Demšar 2006, Table 5a), used only if scipy lacks
# studentized_range (scipy < 1.7).
Q05 = {2: 1.960, 3: 2.343, 4: 2.569, 5: 2.728, 6: 2.850, 7: 2.949, 8: 3.031, 9: 3.102, 10: 3.164}
SIZE_CLASSES = [("small (n_train < 1k)", 0, 1000), ("medium (1k-10k)", 1000, 10000),
                ("large (>= 10k)", 10000, math.inf)]


# ----------------------------------------------------------------------------------------------------------
# Pure functions (tested by test_leaderboard.py)

def group_of(label):
    """'dp', 'published', 'non-private' or 'other', from the label's trailing [...]."""
    m = re.search(r"\[([^\]]*)\]\s*$", label)
    tag = m.group(1).strip().lower() if m else ""
    if tag == "dp" or tag.startswith("dp,"):
        return "dp"
    if tag.startswith("published"):
        return "published"
    if tag.startswith("non-private"):
        return "non-private"
    return "other"


def short_name(label):
    """The label without its group bracket; a delta is kept: "Lumberjack [DP, delta 1e-6]" -> "Lumberjack (δ=1e-6)"."""
    m = re.search(r"\s*\[([^\]]*)\]\s*$", label)
    if not m:
        return label
    base = label[: m.start()]
    d = re.search(r"delta\s*=?\s*([0-9.eE+-]+)", m.group(1))
    return f"{base} (δ={d.group(1)})" if d else base


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


def fmt_eps(e):
    return "non-private" if e is None else f"{e:g}"


# ----------------------------------------------------------------------------------------------------------
# Reading

class Data:
    def __init__(self):
        self.values = defaultdict(dict)   # (task, dataset, label, eps) -> {(rep, fold): metric}
        self.expected = defaultdict(set)  # same key -> expected (rep, fold) pairs
        self.fit = defaultdict(list)      # label -> [(fit_seconds, n_train)]
        self.n_train = {}                 # dataset -> n_train (max over folds)
        self.binary = set()               # datasets whose rows report an AUC
        self.task_of = {}                 # dataset -> task
        self.failures = {}                # (dataset, label, eps) -> reason
        self.status = defaultdict(set)    # label -> privacy_status values
        self.duplicates = 0
        self.rows = 0
        self.dirs = []


def parse_eps(s):
    s = (s or "").strip()
    return None if s in ("", "nan") else float(s)


def read_dirs(dirs):
    data = Data()
    for d in dirs:
        path = os.path.join(d, "results.csv")
        errors = sorted(glob.glob(os.path.join(d, "cells", "*.error")))
        if not os.path.exists(path):
            sys.exit(f"{path}: no results table; run the benchmark first (dpforest run configs/benchmark/...)")
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
        if not rows and not errors:
            sys.exit(f"{path}: the results table is empty")
        data.dirs.append((d, len(rows), len(errors)))
        pairs = {(int(r["repetition"]), int(r["fold"])) for r in rows}
        combos = defaultdict(set)  # task -> {(label, dataset, eps)} seen in this directory
        for r in rows:
            data.rows += 1
            task, ds, lab, eps = r["task"], r["dataset"], r["label"], parse_eps(r.get("epsilon"))
            name = "mse" if task == "regression" else "accuracy"
            key = (task, ds, lab, eps)
            pair = (int(r["repetition"]), int(r["fold"]))
            if pair in data.values[key]:
                data.duplicates += 1
                continue
            data.values[key][pair] = metric(r, name)
            data.task_of[ds] = task
            combos[task].add((lab, ds, eps))
            data.status[lab].add(r.get("privacy_status", ""))
            try:
                nt = int(float(r.get("n_train") or "nan"))
                data.n_train[ds] = max(nt, data.n_train.get(ds, 0))
            except ValueError:
                nt = None
            fs = r.get("fit_seconds", "")
            if fs not in ("", "nan"):
                data.fit[lab].append((float(fs), nt))
            if task == "classification" and r.get("auc", "") not in ("", "nan"):
                data.binary.add(ds)
        # A failed cell's task is its dataset's; for a dataset with no rows anywhere, the directory's task.
        tally = defaultdict(int)
        for r in rows:
            tally[r["task"]] += 1
        dir_task = max(tally, key=tally.get) if tally else (
            "regression" if "regression" in os.path.basename(d) else "classification")
        for e in errors:
            with open(e) as f:
                lines = f.read().splitlines()
            parts = lines[0].split("|") if lines else []
            if len(parts) < 7:
                print(f"warning: {e}: unreadable failed-cell header, not counted", file=sys.stderr)
                continue
            lab, ds = parts[2], parts[4]
            m = re.search(r"(?:^|;)epsilon=([^;]*)", parts[6])
            eps = parse_eps(m.group(1)) if m else None
            task = data.task_of.get(ds, dir_task)
            reason = lines[1].strip() if len(lines) > 1 else "(no reason given)"
            data.failures[(ds, lab, eps)] = reason
            combos[task].add((lab, ds, eps))
        # The expected grid of this directory: labels x datasets x epsilons x pairs, per task.
        for task, cs in combos.items():
            labs = {c[0] for c in cs}
            dss = {c[1] for c in cs}
            eps_priv = {c[2] for c in cs if c[2] is not None}
            for lab in labs:
                lab_eps = {c[2] for c in cs if c[0] == lab}
                eps_set = {None} if lab_eps == {None} else eps_priv
                for ds in dss:
                    for eps in eps_set:
                        data.expected[(task, ds, lab, eps)] |= pairs
    return data


# ----------------------------------------------------------------------------------------------------------
# Analyses

def tasks(data):
    return sorted({k[0] for k in data.expected})


def datasets_of(data, task):
    ds = {k[1] for k in data.expected if k[0] == task}
    return sorted(ds, key=lambda d: (data.n_train.get(d, 0), d))


def labels_of(data, task, group=None):
    labs = sorted({k[2] for k in data.expected if k[0] == task})
    return [lab for lab in labs if group is None or group_of(lab) == group]


def epsilons_of(data, task):
    return sorted({k[3] for k in data.expected if k[0] == task and k[3] is not None})


def mean_of(vals):
    v = [x for x in vals.values() if not math.isnan(x)] if vals else []
    return statistics.mean(v) if v else math.nan


def scopes(data, task):
    ds = datasets_of(data, task)
    out = [("all", ds)]
    if task == "classification":
        b = [d for d in ds if d in data.binary]
        if b and len(b) < len(ds):
            out.append(("binary", b))
    return out


def rankings(data):
    """[{task, scope, eps, datasets, labels, mean_rank, friedman, cd, excluded}] per task, scope and epsilon."""
    res = []
    for task in tasks(data):
        higher = task != "regression"
        for scope, all_dss in scopes(data, task):
            for eps in epsilons_of(data, task):
                dss = all_dss
                labs = labels_of(data, task, "dp")
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
                         "dropped": dropped}
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


# ----------------------------------------------------------------------------------------------------------
# Figures

def savefig(fig, outdir, stem):
    paths = []
    for ext in ("png", "svg"):
        p = os.path.join(outdir, f"{stem}.{ext}")
        fig.savefig(p, dpi=150, bbox_inches="tight")
        paths.append(p)
    plt.close(fig)
    print("wrote " + ", ".join(paths))
    return stem + ".png"


def cd_diagram(entry, outdir):
    """Demšar-style diagram: the mean-rank axis on top, each algorithm a line to its name, bold bars joining
    the algorithms whose ranks differ by less than the critical difference."""
    labs, mr, cd = entry["labels"], entry["mean_rank"], entry["cd"]
    k = len(labs)
    order = sorted(range(k), key=lambda i: mr[i])
    names = [short_name(labs[i]) for i in order]
    rks = [mr[i] for i in order]
    cliques = cd_cliques(rks, cd) if not math.isnan(cd) else []
    half = (k + 1) // 2
    step = 0.32
    height = 1.2 + step * (half + 1) + 0.15 * len(cliques)
    fig, ax = plt.subplots(figsize=(10, height))
    lo, hi = 1, max(k, 2)
    ax.set_xlim(lo - 0.25 * (hi - lo) - 0.3, hi + 0.25 * (hi - lo) + 0.3)
    ax.set_ylim(-(step * (half + 1) + 0.15 * len(cliques) + 0.2), 0.9)
    ax.axis("off")
    ax.plot([lo, hi], [0, 0], color="black", lw=1)
    for t in range(lo, hi + 1):
        ax.plot([t, t], [0, 0.07], color="black", lw=1)
        ax.text(t, 0.12, str(t), ha="center", va="bottom", fontsize=9)
    for t in range(lo, hi):
        ax.plot([t + 0.5, t + 0.5], [0, 0.035], color="black", lw=0.7)
    if not math.isnan(cd):
        ax.plot([lo, lo + cd], [0.6, 0.6], color="black", lw=1.5)
        for x in (lo, lo + cd):
            ax.plot([x, x], [0.55, 0.65], color="black", lw=1)
        ax.text(lo + cd / 2, 0.68, f"CD = {cd:.2f}", ha="center", va="bottom", fontsize=9)
    base = -0.15 * len(cliques) - 0.25
    for idx, (name, r) in enumerate(zip(names, rks)):
        if idx < half:
            y = base - step * idx
            xe, ha = lo - 0.2 * (hi - lo) - 0.1, "right"
        else:
            y = base - step * (k - 1 - idx)
            xe, ha = hi + 0.2 * (hi - lo) + 0.1, "left"
        ax.plot([r, r, xe], [0, y, y], color="0.3", lw=0.9)
        ax.text(xe + (-0.05 if ha == "right" else 0.05), y, f"{name} ({r:.2f})", ha=ha, va="center", fontsize=9)
    for c, (i, j) in enumerate(cliques):
        y = -0.12 - 0.15 * c
        ax.plot([rks[i] - 0.03, rks[j] + 0.03], [y, y], color="black", lw=3.5, solid_capstyle="round")
    fr = entry["friedman"]
    sub = (f"Friedman χ²={fr[0]:.2f} (p {p_is(fr[1])}), Iman-Davenport F={fr[2]:.2f} (p {p_is(fr[3])})"
           if fr else "too few datasets for the Friedman test")
    ax.set_title(f"{entry['task']}, {entry['scope']} datasets (N={len(entry['datasets'])}), ε = {entry['eps']:g}: "
                 f"mean rank, 1 = best\n{sub}; Nemenyi α={ALPHA}", fontsize=10)
    return savefig(fig, outdir, f"cd-{entry['task']}-{entry['scope']}-eps{entry['eps']:g}")


STYLE_MARKERS = "os^vD<>pPX*h"


def label_styles(labels):
    """One style per label, the same in every figure: the ten tab10 colours first, then the light tab20 ones,
    each with its own marker; published labels dashed with an x."""
    tab10, tab20 = plt.get_cmap("tab10"), plt.get_cmap("tab20")
    colors = [tab10(i) for i in range(10)] + [tab20(2 * i + 1) for i in range(10)]
    # A DP algorithm and its published variant share a colour (the published one is dashed).
    bases = sorted({short_name(lab) for lab in labels if group_of(lab) != "non-private"})
    out = {}
    for lab in sorted(labels):
        g = group_of(lab)
        i = bases.index(short_name(lab)) if short_name(lab) in bases else 0
        st = {"color": colors[i % 20], "marker": STYLE_MARKERS[i % len(STYLE_MARKERS)], "markersize": 4,
              "lw": 1.2}
        if g == "published":
            st.update(ls="--", marker="x", lw=1.0)
        out[lab] = st
    return out


def panels(data, task, outdir, styles):
    dss = datasets_of(data, task)
    eps = epsilons_of(data, task)
    if not dss or not eps:
        return None
    labs = labels_of(data, task, "dp") + labels_of(data, task, "published")
    refs = labels_of(data, task, "non-private")
    ncol = min(4, len(dss))
    nrow = math.ceil(len(dss) / ncol)
    fig, axes = plt.subplots(nrow, ncol, figsize=(3.6 * ncol, 2.9 * nrow), squeeze=False)
    name = "MSE" if task == "regression" else "accuracy"
    handles = {}
    for ax, ds in zip(axes.flat, dss):
        for lab in labs:
            xs, ms, es = [], [], []
            for e in eps:
                v = [x for x in data.values.get((task, ds, lab, e), {}).values() if not math.isnan(x)]
                if v:
                    xs.append(e)
                    ms.append(statistics.mean(v))
                    es.append(statistics.stdev(v) / math.sqrt(len(v)) if len(v) > 1 else 0.0)
            if xs:
                h = ax.errorbar(xs, ms, yerr=es, capsize=2, label=short_name(lab) + (
                    " [published, not DP]" if group_of(lab) == "published" else ""), **styles[lab])
                handles.setdefault(h.get_label(), h)
        for i, r in enumerate(refs):
            v = [x for x in data.values.get((task, ds, r, None), {}).values() if not math.isnan(x)]
            if v:
                h = ax.axhline(statistics.mean(v), color="black", lw=1.1, ls=[":", "-."][i % 2],
                               label=short_name(r) + " [non-private]")
                handles.setdefault(h.get_label(), h)
        ax.set_xscale("log")
        ax.set_xticks(eps)
        ax.set_xticklabels([f"{e:g}" for e in eps], fontsize=7)
        ax.minorticks_off()
        ax.tick_params(labelsize=7)
        ax.grid(True, alpha=0.3)
        ax.set_title(f"{ds} (n_train {data.n_train.get(ds, '?')})", fontsize=8)
    for ax in list(axes.flat)[len(dss):]:
        ax.axis("off")
    for ax in axes[:, 0]:
        ax.set_ylabel(name, fontsize=8)
    for c in range(ncol):  # the lowest panel of each column carries the x label
        last = max(r for r in range(nrow) if r * ncol + c < len(dss))
        axes[last, c].set_xlabel("ε", fontsize=8)
    fig.suptitle(f"{task}: {name} against ε, mean over folds ± standard error; dashed × = published, not DP; "
                 f"black = non-private", fontsize=10)
    rank = {"published": 1, "non-private": 2}  # legend: DP (short names), then published, then non-private
    names = sorted(handles, key=lambda h: (rank.get(group_of(h), 0), h))
    fig.tight_layout(rect=(0, (0.17 * math.ceil(len(names) / 4) + 0.15) / (2.9 * nrow), 1, 1))
    fig.legend([handles[h] for h in names], names, loc="lower center", ncol=4, fontsize=8, frameon=False)
    return savefig(fig, outdir, f"panels-{task}")


def headline_figure(ranks, outdir, styles):
    groups = defaultdict(list)
    for e in ranks:
        if e["mean_rank"]:
            groups[(e["task"], e["scope"])].append(e)
    if not groups:
        return None
    keys = sorted(groups)
    handles = {}
    nlab = len({lab for es in groups.values() for e in es for lab in e["labels"]})
    fig, axes = plt.subplots(1, len(keys), figsize=(6.5 * len(keys), 4.8 + 0.2 * math.ceil(nlab / 6)),
                             squeeze=False)
    for ax, key in zip(axes[0], keys):
        entries = sorted(groups[key], key=lambda e: e["eps"])
        labs = sorted({lab for e in entries for lab in e["labels"]})
        for j, lab in enumerate(labs):
            xs, ys, cds = [], [], []
            for e in entries:
                if lab in e["labels"]:
                    xs.append(e["eps"] * (1 + 0.025 * (j - len(labs) / 2)))  # spread the bars apart
                    ys.append(e["mean_rank"][e["labels"].index(lab)])
                    cds.append(0 if math.isnan(e["cd"]) else e["cd"] / 2)
            st = dict(styles[lab])
            ax.errorbar(xs, ys, yerr=cds, capsize=2, label=short_name(lab), **st)
        eps = [e["eps"] for e in entries]
        ax.set_xscale("log")
        ax.set_xticks(eps)
        ax.set_xticklabels([f"{x:g}" for x in eps])
        ax.minorticks_off()
        ax.invert_yaxis()
        ax.set_xlabel("ε")
        ax.set_ylabel("mean rank (1 = best)")
        n = max(len(e["datasets"]) for e in entries)
        ax.set_title(f"{key[0]}, {key[1]} datasets (N={n})", fontsize=10)
        ax.grid(True, alpha=0.3)
        for h, lab in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(lab, h)
    fig.suptitle("DP forests: mean rank over datasets per ε; bars ± CD/2 (Nemenyi, α=0.05): "
                 "non-overlapping bars differ significantly", fontsize=10)
    ncol = 6 if len(keys) > 1 else 3
    rows = math.ceil(len(handles) / ncol)
    fig.tight_layout(rect=(0, (0.2 * rows + 0.1) / fig.get_figheight(), 1, 1))
    fig.legend(list(handles.values()), list(handles.keys()), loc="lower center", ncol=ncol, fontsize=8,
               frameon=False)
    return savefig(fig, outdir, "headline")


def fit_time(data, outdir):
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
    fields = ["label", "group", "fits", "median_s", "total_s"] + [c[0] for c in SIZE_CLASSES]
    with open(os.path.join(outdir, "fit-time.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        w.writerows(rows)
    md = ["| algorithm | group | fits | median s/fit | total s | " + " | ".join(
        f"median s/fit, {c[0]}" for c in SIZE_CLASSES) + " |", "|---" * (5 + len(SIZE_CLASSES)) + "|"]
    for r in rows:
        md.append(f"| {r['label']} | {r['group']} | {r['fits']} | {r['median_s']} | {r['total_s']} | " +
                  " | ".join(r[c[0]] or "—" for c in SIZE_CLASSES) + " |")
    with open(os.path.join(outdir, "fit-time.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    png = None
    if rows:
        fig, ax = plt.subplots(figsize=(8, 0.3 * len(rows) + 1.4))
        colors = {"dp": "tab:blue", "published": "tab:orange", "non-private": "0.4", "other": "tab:gray"}
        y = list(range(len(rows)))
        ax.barh(y, [float(r["median_s"]) for r in rows], color=[colors[r["group"]] for r in rows], alpha=0.8)
        marks = ["|", "x", "+"]
        for (name, _, _), m in zip(SIZE_CLASSES, marks):
            pts = [(float(r[name]), i) for i, r in enumerate(rows) if r[name]]
            if pts:
                ax.scatter([p[0] for p in pts], [p[1] for p in pts], marker=m, color="black", s=30,
                           label=f"median, {name}", zorder=3)
        ax.set_yticks(y)
        ax.set_yticklabels([r["label"] for r in rows], fontsize=8)
        ax.set_xscale("log")
        ax.set_xlabel("fit seconds per fit (bar: median over all fits)")
        ax.grid(True, axis="x", alpha=0.3)
        ax.legend(fontsize=7, loc="lower right")
        ax.set_title("Fit time (blue DP, orange published not DP, grey non-private)", fontsize=10)
        png = savefig(fig, outdir, "fit-time")
    return md, png


# ----------------------------------------------------------------------------------------------------------
# Report

def md_table(header, rows):
    return ["| " + " | ".join(header) + " |", "|---" * len(header) + "|"] + \
           ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]


# ----------------------------------------------------------------------------------------------------------
# The published copy (results/reference/benchmark/leaderboard/, tracked) and README.md's leaderboard block

PUBLISH_FILES = ["leaderboard.md", "headline.png", "ranks.csv", "summary.csv", "wtl.md", "wtl.csv",
                 "wtl-datasets.csv", "fit-time.md", "fit-time.csv", "fit-time.png", "completeness.csv",
                 "incomplete.md", "panels-regression.png"]
# Critical-difference diagrams are published at epsilon 1 only, and the classification panels (1 MB) not
# at all, to keep the tracked copy near 1 MB; the published leaderboard.md says where the rest appear.
PUBLISH_PATTERNS = [r"cd-.*-eps1\.png"]
README_BEGIN, README_END = "<!-- leaderboard:begin -->", "<!-- leaderboard:end -->"


def read_ranks(path):
    """ranks.csv -> {(task, scope): {eps: {"labels": [(label, rank)], "k", "n", "cd", "friedman_p", "id_p"}}}."""
    out = defaultdict(dict)
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            e = out[(r["task"], r["scope"])].setdefault(float(r["epsilon"]), {
                "labels": [], "k": int(r["k"]), "n": int(r["n_datasets"]), "cd": float(r["cd"]),
                "friedman_p": float(r["friedman_p"]), "id_p": float(r["iman_davenport_p"])})
            e["labels"].append((r["label"], float(r["mean_rank"])))
    return out


def readme_block(pub_dir, rel_dir):
    """The README's leaderboard block, from the published ranks.csv and completeness.csv alone: the headline
    figure, then per scope and epsilon the best DP algorithm and every one within the critical difference."""
    ranks = read_ranks(os.path.join(pub_dir, "ranks.csv"))
    with open(os.path.join(pub_dir, "completeness.csv"), newline="") as f:
        comp = list(csv.DictReader(f))
    have = sum(int(r["present_folds"]) for r in comp)
    expected = sum(int(r["expected_folds"]) for r in comp)
    done = sum(1 for r in comp if r["status"] == "complete")
    lines = [README_BEGIN, f"![DP forests: mean rank against epsilon]({rel_dir}/headline.png)", "",
             "| task, datasets | ε | best DP forest (mean rank) | not significantly worse (Nemenyi, within CD) | "
             "k / CD | Friedman p |", "|---|---|---|---|---|---|"]
    for (task, scope), per_eps in sorted(ranks.items()):
        for eps in sorted(per_eps):
            e = per_eps[eps]
            order = sorted(e["labels"], key=lambda x: x[1])
            best = order[0]
            tied = [f"{short_name(lab)} ({r:.2f})" for lab, r in order[1:] if math.isnan(e["cd"]) or r - best[1] < e["cd"]]
            lines.append(f"| {task}, {scope} (N={e['n']}) | {eps:g} | **{short_name(best[0])}** ({best[1]:.2f}) | "
                         f"{', '.join(tied) or 'none'} | {e['k']} / {e['cd']:.2f} | {fmt_p(e['friedman_p'])} |")
    lines += ["", f"From `{rel_dir}/` ({done} of {len(comp)} (dataset, algorithm, ε) blocks complete, {have} of "
              f"{expected} folds); the full report with CD diagrams, panels, W/T/L and fit times is "
              f"[{rel_dir}/leaderboard.md]({rel_dir}/leaderboard.md).", README_END]
    return "\n".join(lines)


def update_readme(readme, block, check_only=False):
    try:
        return replace_marked_block(readme, README_BEGIN, README_END, block, check_only)
    except ValueError as e:
        raise SystemExit(str(e)) from None


def publish(outdir, pub_dir, readme):
    """Copies the leaderboard's light outputs to pub_dir (tracked in git) and rewrites README's block."""
    import shutil
    os.makedirs(pub_dir, exist_ok=True)
    names = [n for n in PUBLISH_FILES if os.path.exists(os.path.join(outdir, n))]
    names += sorted(n for n in os.listdir(outdir) if any(re.fullmatch(p, n) for p in PUBLISH_PATTERNS))
    for name in names:
        if name == "leaderboard.md":
            continue
        shutil.copyfile(os.path.join(outdir, name), os.path.join(pub_dir, name))
    if "leaderboard.md" in names:
        with open(os.path.join(outdir, "leaderboard.md")) as f:
            md = f.read()

        def link(m):
            if m.group(2) in names:
                return m.group(0)
            return (f"*({m.group(1)}: `{m.group(2)}` is not in this published copy; `make reproduce-benchmark` "
                    f"draws it in results/benchmark/leaderboard/)*")
        with open(os.path.join(pub_dir, "leaderboard.md"), "w") as f:
            f.write(re.sub(r"!\[([^\]]*)\]\(([^)]+)\)", link, md))
    total = sum(os.path.getsize(os.path.join(pub_dir, n)) for n in os.listdir(pub_dir))
    print(f"published {len(os.listdir(pub_dir))} files ({total} bytes) to {pub_dir}")
    if readme:
        rel = os.path.relpath(os.path.abspath(pub_dir), os.path.dirname(os.path.abspath(readme)))
        update_readme(readme, readme_block(pub_dir, rel))
        print(f"{readme}: leaderboard block rewritten from {pub_dir}")


def main():
    argv = sys.argv[1:]
    pub_dir, readme = None, None
    for flag in ("--publish", "--readme"):
        if flag in argv:
            i = argv.index(flag)
            if i + 1 >= len(argv):
                sys.exit(f"{flag} needs a value")
            if flag == "--publish":
                pub_dir = argv[i + 1]
            else:
                readme = argv[i + 1]
            del argv[i:i + 2]
    dirs = [a.rstrip("/") for a in argv]
    if not dirs or any(a in ("-h", "--help") for a in dirs):
        sys.exit(__doc__)
    data = read_dirs(dirs)
    if not data.rows:
        sys.exit("no result rows in " + ", ".join(dirs) + " (only failed cells)")
    outdir = os.path.join(os.path.dirname(os.path.abspath(dirs[0])), "leaderboard")
    os.makedirs(outdir, exist_ok=True)

    comp = completeness(data)
    with open(os.path.join(outdir, "completeness.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(comp[0].keys()))
        w.writeheader()
        w.writerows(comp)
    with open(os.path.join(outdir, "summary.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["task", "dataset", "label", "group", "epsilon", "mean", "sd", "n"])
        for key in sorted(data.values, key=lambda k: (k[0], k[1], k[2], -1 if k[3] is None else k[3])):
            v = [x for x in data.values[key].values() if not math.isnan(x)]
            w.writerow([key[0], key[1], key[2], group_of(key[2]), fmt_eps(key[3]),
                        f"{statistics.mean(v):.6g}" if v else "", f"{statistics.stdev(v):.4g}" if len(v) > 1 else "",
                        len(v)])

    ranks = rankings(data)
    with open(os.path.join(outdir, "ranks.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["task", "scope", "epsilon", "label", "mean_rank", "k", "n_datasets", "cd", "friedman_chi2",
                    "friedman_p", "iman_davenport_f", "iman_davenport_p"])
        for e in ranks:
            fr = e["friedman"] or (math.nan,) * 4
            for lab, r in zip(e["labels"], e["mean_rank"]):
                w.writerow([e["task"], e["scope"], f"{e['eps']:g}", lab, f"{r:.4f}", len(e["labels"]),
                            len(e["datasets"]), f"{e['cd']:.4f}", f"{fr[0]:.4f}", f"{fr[1]:.4g}", f"{fr[2]:.4f}",
                            f"{fr[3]:.4g}"])
    cd_pngs = {}
    for e in ranks:
        if len(e["labels"]) >= 2:
            cd_pngs[(e["task"], e["scope"], e["eps"])] = cd_diagram(e, outdir)
    styles = label_styles({k[2] for k in data.expected})
    panel_pngs = {t: panels(data, t, outdir, styles) for t in tasks(data)}
    headline = headline_figure(ranks, outdir, styles)

    per_ds = wins_ties_losses(data)
    with open(os.path.join(outdir, "wtl-datasets.csv"), "w", newline="") as f:
        fields = ["task", "epsilon", "label", "group", "dataset", "reference", "outcome", "p", "pairs", "mean",
                  "reference_mean"]
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        w.writerows(per_ds)
    wtl = defaultdict(lambda: {"W": 0, "T": 0, "L": 0})
    for r in per_ds:
        wtl[(r["task"], r["label"], r["epsilon"])][r["outcome"]] += 1
    wtl_md = []
    with open(os.path.join(outdir, "wtl.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["task", "label", "group", "epsilon", "wins", "ties", "losses", "datasets"])
        for task in tasks(data):
            eps = epsilons_of(data, task)
            labs = [lab for lab in labels_of(data, task, "dp") + labels_of(data, task, "published")
                    if any((task, lab, fmt_eps(e)) in wtl for e in eps)]
            if not labs:
                continue
            trs = []
            for lab in labs:
                cells = []
                for e in eps:
                    c = wtl.get((task, lab, fmt_eps(e)))
                    if c:
                        w.writerow([task, lab, group_of(lab), fmt_eps(e), c["W"], c["T"], c["L"], sum(c.values())])
                        cells.append(f"{c['W']}/{c['T']}/{c['L']}")
                    else:
                        cells.append("—")
                mark = " †" if group_of(lab) == "published" else ""
                trs.append([short_name(lab) + mark] + cells)
            wtl_md += [f"**{task}** (W/T/L over datasets; † published, not DP)", ""]
            wtl_md += md_table(["algorithm"] + [f"ε={e:g}" for e in eps], trs) + [""]
    with open(os.path.join(outdir, "wtl.md"), "w") as f:
        f.write("\n".join(wtl_md) + "\n")
    time_md, time_png = fit_time(data, outdir)

    # ---- leaderboard.md
    md = ["# dpforest leaderboard", "",
          "Generated by `plots/benchmark/leaderboard.py " + " ".join(dirs) + "` from "
          + ", ".join(f"`{d}/results.csv` ({n} rows, {ne} failed-cell files)" for d, n, ne in data.dirs) + ".", ""]
    if headline:
        md += [f"![mean rank against epsilon]({headline})", ""]
    md += ["## Headline", ""]
    for e in ranks:
        if not e["mean_rank"]:
            md.append(f"- {e['task']}, {e['scope']} datasets, ε={e['eps']:g}: fewer than two DP algorithms have "
                      f"complete results on all {len(e['datasets'])} datasets; no ranking.")
            continue
        order = sorted(range(len(e["labels"])), key=lambda i: e["mean_rank"][i])
        best = e["mean_rank"][order[0]]
        top = [i for i in order if math.isnan(e["cd"]) or e["mean_rank"][i] - best < e["cd"]]
        fr = e["friedman"]
        sig = ("" if not fr else (f"; Friedman p {p_is(fr[1])}, Iman-Davenport p {p_is(fr[3])}" +
                                  ("" if fr[3] < ALPHA else " (not significant: no ranking is supported)")))
        md.append(f"- {e['task']}, {e['scope']} datasets (N={len(e['datasets'])}, k={len(e['labels'])}), "
                  f"ε={e['eps']:g}: best **{short_name(e['labels'][order[0]])}** (mean rank {best:.2f}); "
                  f"not significantly worse (within CD = {e['cd']:.2f}): "
                  + ", ".join(f"{short_name(e['labels'][i])} ({e['mean_rank'][i]:.2f})" for i in top[1:])
                  + (" none" if len(top) == 1 else "") + sig)
    n_exp = sum(r["expected_folds"] for r in comp)
    n_have = sum(r["present_folds"] for r in comp)
    incomplete = [r for r in comp if r["status"] != "complete"]
    statuses = {lab: s for lab, s in data.status.items()
                if group_of(lab) == "dp" and not s <= {"epsilon-DP", "(epsilon, delta)-DP"}}
    md += ["", "## Caveats", "",
           f"- Completeness: {len(comp) - len(incomplete)} of {len(comp)} expected (dataset, algorithm, ε) blocks "
           f"are complete; {n_have} of {n_exp} expected folds are present"
           f"{'' if not data.duplicates else f'; {data.duplicates} duplicate rows ignored (first kept)'}. "
           "Expected = per results directory, every label, dataset and ε seen in its rows or failed cells, times "
           "its (repetition, fold) pairs. Rankings use complete blocks only: an algorithm incomplete on any "
           "dataset of a scope is left out of that scope's ranking (listed below).",
           "- Ranks are over per-dataset mean metrics (accuracy higher-better, MSE lower-better), ties averaged. "
           "The Friedman chi-square carries the tie correction (as scipy.stats.friedmanchisquare); the "
           "critical difference is Nemenyi's at α = 0.05 (Demšar 2006), a conservative all-pairs test.",
           "- \"[published]\" mechanisms are not DP: they are plotted dashed and listed in the W/T/L table (†), "
           "never ranked. Lumberjack is (ε, δ)-DP with δ = 1e-6, ranked with the pure-ε algorithms and marked δ.",
           "- W/T/L: each algorithm against the better (by mean) of the non-private forests per dataset, "
           "two-sided Wilcoxon signed-rank over the common (repetition, fold) pairs at p < 0.05; with fewer than "
           "6 pairs no test can reach 0.05, so everything is a tie.",
           "- Binary scope: classification datasets whose rows report an AUC (two classes).",
           "- Fit times are per fit, over every ε and fold the algorithm ran; an algorithm that ran only on some "
           "datasets has a median from those, so compare within the size-class columns."]
    if statuses:
        md.append("- Privacy status check: these [DP] labels have rows whose privacy_status is not a DP label: "
                  + "; ".join(f"{lab}: {sorted(s)}" for lab, s in sorted(statuses.items())))
    others = sorted({k[2] for k in data.values if group_of(k[2]) == "other"})
    if others:
        md.append("- Labels with no recognised group bracket (not ranked, not plotted): " + ", ".join(others))
    md += ["", "## Mean ranks (DP algorithms, complete blocks)", ""]
    for task in tasks(data):
        for scope, dss in scopes(data, task):
            es = [e for e in ranks if e["task"] == task and e["scope"] == scope]
            labs = sorted({lab for e in es for lab in e["labels"]})
            md += [f"**{task}, {scope} datasets** (N = {', '.join(str(len(e['datasets'])) for e in es)} per ε)", ""]
            trs = []
            for lab in sorted(labs, key=lambda lab: sum(e["mean_rank"][e["labels"].index(lab)] if lab in e["labels"]
                                                          else 99 for e in es)):
                trs.append([short_name(lab)] + [f"{e['mean_rank'][e['labels'].index(lab)]:.2f}" if lab in e["labels"]
                                                else "—" for e in es])
            trs.append(["k / CD"] + [f"{len(e['labels'])} / {e['cd']:.2f}" for e in es])
            trs.append(["Friedman p / Iman-Davenport p"] +
                       [f"{fmt_p(e['friedman'][1])} / {fmt_p(e['friedman'][3])}" if e["friedman"] else "—" for e in es])
            md += md_table(["algorithm"] + [f"ε={e['eps']:g}" for e in es], trs) + [""]
            excl = defaultdict(list)
            for e in es:
                for lab, miss in e["excluded"].items():
                    excl[lab].append(f"ε={e['eps']:g}: {len(miss)} of {len(e['datasets'])}")
            drops = [f"ε={e['eps']:g}: " + ", ".join(e["dropped"]) for e in es if e["dropped"]]
            if drops:
                md += ["Datasets left out (no DP algorithm complete on them): " + "; ".join(drops), ""]
            if excl:
                md.append("Left out (incomplete on some datasets; datasets lacking per ε): " +
                          "; ".join(f"{short_name(lab)} ({', '.join(v)})" for lab, v in sorted(excl.items())))
                md.append("")
            imgs = [f"![CD {task} {scope} ε={e['eps']:g}]({cd_pngs[(task, scope, e['eps'])]})" for e in es
                    if (task, scope, e["eps"]) in cd_pngs]
            md += imgs + [""]
    md += ["## Metric against ε", ""] + [f"![{t}]({p})" for t, p in panel_pngs.items() if p] + [""]
    md += ["## Wins/ties/losses against the best non-private forest", "", "(per dataset: `wtl-datasets.csv`)", ""]
    md += wtl_md
    md += ["## Fit time", ""] + time_md + [""] + ([f"![fit time]({time_png})", ""] if time_png else [])
    md += ["## Incomplete blocks", ""]
    detail = ["# Incomplete blocks (every reason)", ""]
    if incomplete:
        # leaderboard.md: one line per algorithm (its commonest reason); incomplete.md: every reason.
        agg = defaultdict(list)
        per_label = defaultdict(list)
        for r in incomplete:
            agg[(r["task"], r["label"], r["reason"])].append(f"{r['dataset']} ε={r['epsilon']} "
                                                             f"({r['present_folds']}/{r['expected_folds']})")
            per_label[(r["task"], r["label"])].append(r)
        detail += md_table(["task", "algorithm", "reason", "blocks (present/expected folds)"],
                           [[t, lab, reason.replace("|", "/"), f"{len(v)}: " + ", ".join(v)]
                            for (t, lab, reason), v in sorted(agg.items())])
        rows_md = []
        for (t, lab), rs in sorted(per_label.items()):
            total = [c for c in comp if (c["task"], c["label"]) == (t, lab)]
            reasons = defaultdict(int)
            for r in rs:
                reasons[r["reason"]] += 1
            top = max(reasons, key=reasons.get)
            top = (top[:140] + "…") if len(top) > 140 else top
            more = f" (+{len(reasons) - 1} other reasons)" if len(reasons) > 1 else ""
            rows_md.append([t, lab, f"{len(rs)} of {len(total)}",
                            f"{sum(c['present_folds'] for c in total)}/{sum(c['expected_folds'] for c in total)}",
                            f"{reasons[max(reasons, key=reasons.get)]}× {top.replace('|', '/')}{more}"])
        md += md_table(["task", "algorithm", "incomplete blocks", "folds present/expected", "commonest reason"],
                       rows_md)
        md += ["", "Every block and reason: `incomplete.md`, `completeness.csv`."]
    else:
        md.append("none: every expected block is complete.")
        detail.append("none")
    md.append("")
    with open(os.path.join(outdir, "incomplete.md"), "w") as f:
        f.write("\n".join(detail) + "\n")
    with open(os.path.join(outdir, "leaderboard.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    print(f"wrote {os.path.join(outdir, 'leaderboard.md')}")
    print(f"completeness: {len(comp) - len(incomplete)}/{len(comp)} blocks complete, {n_have}/{n_exp} folds present")
    for line in md[md.index("## Headline") + 2:]:
        if not line.startswith("- "):
            break
        print(line)
    if pub_dir:
        publish(outdir, pub_dir, readme)


if __name__ == "__main__":
    main()
