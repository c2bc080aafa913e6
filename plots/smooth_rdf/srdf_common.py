"""Shared helpers for the smooth-rdf (Fletcher & Islam 2017) figures and tables.

Everything reads only RESULT_DIR/results.csv (through plots/common.py)."""
import math
import os
from collections import defaultdict

from plots import common

NAMES = {
    "synth-a": "SynthA", "synth-b": "SynthB", "synth-c": "SynthC", "synth-d": "SynthD", "synth-e": "SynthE",
    "synth-f": "SynthF", "synth-g": "SynthG", "wall-robot:4": "WallSensor", "pendigits": "PenWritten",
    "magic-gamma": "GammaTele", "adult:train": "Adult", "mushroom:drop-missing": "Mushroom", "clave": "Claves",
    "nursery": "Nursery",
}
ORDER = list(NAMES)


def name(ds):
    return NAMES.get(ds, ds)


def datasets_in(rows):
    present = {r["dataset"] for r in rows}
    return [d for d in ORDER if d in present] + sorted(present - set(ORDER))


def wilcoxon_signed_rank(x, y):
    """Two-sided Wilcoxon signed-rank p-value of paired samples (smooth-rdf.md §5.2): zero differences
    dropped, average ranks for ties, normal approximation with tie correction and no continuity
    correction (scipy.stats.wilcoxon's approximation, as core/eval/stats.hpp implements it in C++)."""
    d = [a - b for a, b in zip(x, y) if a != b]
    n = len(d)
    if n == 0:
        return 1.0
    order = sorted(range(n), key=lambda i: abs(d[i]))
    ranks = [0.0] * n
    i = 0
    tie_term = 0.0
    while i < n:
        j = i
        while j + 1 < n and abs(d[order[j + 1]]) == abs(d[order[i]]):
            j += 1
        avg = (i + j) / 2.0 + 1.0
        for k in range(i, j + 1):
            ranks[order[k]] = avg
        t = j - i + 1
        tie_term += t ** 3 - t
        i = j + 1
    t_plus = sum(r for r, v in zip(ranks, d) if v > 0)
    mean = n * (n + 1) / 4.0
    var = n * (n + 1) * (2 * n + 1) / 24.0 - tie_term / 48.0
    if var <= 0:
        return 1.0
    z = (t_plus - mean) / math.sqrt(var)
    return math.erfc(abs(z) / math.sqrt(2.0))


def paired(rows, metric_name, label_a, label_b, dataset, extra=None):
    """Values of two labels on one dataset paired by (repetition, fold)."""
    a, b = {}, {}
    for r in rows:
        if r["dataset"] != dataset or (extra and any(r.get(k) != v for k, v in extra.items())):
            continue
        key = (r["repetition"], r["fold"])
        if r["label"] == label_a:
            a[key] = common.metric(r, metric_name)
        elif r["label"] == label_b:
            b[key] = common.metric(r, metric_name)
    keys = sorted(set(a) & set(b))
    return [a[k] for k in keys], [b[k] for k in keys]


def wilcoxon_table(rows, result_dir, stem, metric_name, ours, peers):
    """Markdown table: per dataset, mean of Ours and each peer, and the Wilcoxon p-value Ours vs peer."""
    lines = [f"| dataset | {ours} | " + " | ".join(f"{p} | p ({ours} vs {p})" for p in peers) + " |",
             "|---|---|" + "---|---|" * len(peers)]
    for ds in datasets_in(rows):
        cells = [name(ds)]
        o_all = [common.metric(r, metric_name) for r in rows if r["dataset"] == ds and r["label"] == ours]
        m, s, _ = common.summarize(o_all)
        cells.append(common.fmt_pm(m, s, 3))
        for p in peers:
            x, y = paired(rows, metric_name, ours, p, ds)
            pm, ps, n = common.summarize(y)
            cells.append(common.fmt_pm(pm, ps, 3) if n else "—")
            cells.append(f"{wilcoxon_signed_rank(x, y):.2g}" if n else "—")
        lines.append("| " + " | ".join(cells) + " |")
    text = "\n".join(lines) + "\n"
    with open(os.path.join(result_dir, stem + ".md"), "w") as f:
        f.write(text)
    print(text)
    return text


def bars_by_dataset(result_dir, metric_name, labels, stem, title, ylabel, outlined=None, scale=1.0):
    """Grouped bars (mean ± std over the folds) per dataset; `outlined` is drawn as an empty bar
    (the paper's Breiman RF)."""
    rows = common.load_rows(result_dir)
    dss = datasets_in(rows)
    groups = defaultdict(list)
    for r in rows:
        groups[(r["label"], r["dataset"])].append(common.metric(r, metric_name) * scale)
    present = [l for l in labels if any(k[0] == l for k in groups)]
    width = 0.8 / max(1, len(present))
    fig, ax = common.plt.subplots(figsize=(max(8, 0.9 * len(dss) * max(1, len(present)) / 2 + 4), 4.5))
    for i, label in enumerate(present):
        ms, ss = [], []
        for ds in dss:
            m, s, _ = common.summarize(groups.get((label, ds), []))
            ms.append(m)
            ss.append(s)
        xs = [k + (i - (len(present) - 1) / 2) * width for k in range(len(dss))]
        if label == outlined:
            ax.bar(xs, ms, width, fill=False, edgecolor="black", label=label)
        else:
            ax.bar(xs, ms, width, yerr=ss, capsize=2, label=label)
    ax.set_xticks(range(len(dss)))
    ax.set_xticklabels([name(d) for d in dss], rotation=30, ha="right")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(fontsize=8)
    common.save(fig, result_dir, stem)
    return rows


def lines_vs_x(result_dir, metric_name, x_column, stem, title, ylabel, panel_column=None, logx=True, scale=1.0):
    """One line per dataset (mean ± std) against x; one panel per value of panel_column."""
    rows = common.load_rows(result_dir)
    panels = sorted({r.get(panel_column, "") for r in rows}, key=lambda v: float(v) if v else 0) if panel_column else [""]
    fig, axes = common.plt.subplots(1, len(panels), figsize=(6 * len(panels), 4.5), squeeze=False)
    for ax, pv in zip(axes[0], panels):
        sub = [r for r in rows if not panel_column or r.get(panel_column) == pv]
        for ds in datasets_in(sub):
            for label in sorted({r["label"] for r in sub if r["dataset"] == ds}):
                g = defaultdict(list)
                for r in sub:
                    if r["dataset"] == ds and r["label"] == label:
                        g[float(r[x_column])].append(common.metric(r, metric_name) * scale)
                xs = sorted(g)
                st = [common.summarize(g[x]) for x in xs]
                lab = name(ds) if len({r["label"] for r in sub}) == 1 else f"{name(ds)} {label}"
                ax.errorbar(xs, [s[0] for s in st], yerr=[s[1] for s in st], marker="o", capsize=2, label=lab)
        if logx:
            ax.set_xscale("log")
        ax.set_xlabel(x_column)
        ax.set_ylabel(ylabel)
        ax.grid(True, alpha=0.3)
        ax.set_title(f"{title}" + (f" ({panel_column} = {pv})" if panel_column else ""))
        ax.legend(fontsize=7)
    common.save(fig, result_dir, stem)
    return rows
