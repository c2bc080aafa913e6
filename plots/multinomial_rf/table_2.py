"""multinomial-rf Table 2: mean accuracy (%) per method and dataset over 10 x 10-fold CV, the average-rank
row, and the Wilcoxon signed-rank test MRF vs Breiman RF per dataset (paired over the 100 folds, alpha 0.05,
scipy.stats.wilcoxon's defaults reimplemented exactly: zeros dropped, midranks, two-sided, exact null
distribution for <= 50 pairs without ties or zeros, else the normal approximation with tie correction and no
continuity correction). Marks as the paper: the winner's cell gets "•" when MRF is significantly better,
"∘" when RF is. Reads only results.csv (and the printed numbers from configs/multinomial-rf/published.yaml for
the side-by-side table). Writes table-2.md and table-2.csv next to results.csv.

usage: python3 -m plots.multinomial_rf.table_2 [RESULT_DIR] [--mrf-label "MRF (B=10)"]
Without --mrf-label it writes both tables: table-2.md (MRF = B1 = B2 = 5) and, when the B = 10 series has
rows, table-2-b10.md."""
import csv
import math
import os
from collections import defaultdict

from plots import ROOT, common
from plots.common import load_rows, metric

METHODS = ["Denil14", "BRF", "CompRF-C", "MRF", "CompRF-I", "Breiman"]
EXTRA = ["MRF (B=10)"]


def wilcoxon(x, y):
    """(statistic, two-sided p) as scipy.stats.wilcoxon(x, y) with its defaults (scipy >= 1.9)."""
    d = [a - b for a, b in zip(x, y)]
    nz = [v for v in d if v != 0]
    had_zeros = len(nz) < len(d)
    n = len(nz)
    if n == 0:
        return math.nan, math.nan
    order = sorted(range(n), key=lambda i: abs(nz[i]))
    w_plus = w_minus = 0.0
    tie = 0.0
    i = 0
    while i < n:
        j = i
        while j < n and abs(nz[order[j]]) == abs(nz[order[i]]):
            j += 1
        mid = 0.5 * (i + 1 + j)
        for k in range(i, j):
            if nz[order[k]] > 0:
                w_plus += mid
            else:
                w_minus += mid
        t = j - i
        tie += t ** 3 - t
        i = j
    stat = min(w_plus, w_minus)
    if n <= 50 and tie == 0 and not had_zeros:
        # Exact null distribution of W+ by counting subsets of {1..n} with each rank sum.
        maxs = n * (n + 1) // 2
        count = [0] * (maxs + 1)
        count[0] = 1
        for r in range(1, n + 1):
            for s in range(maxs, r - 1, -1):
                count[s] += count[s - r]
        lower = sum(count[: int(stat) + 1]) / 2.0 ** n
        return stat, min(1.0, 2 * lower)
    mean = n * (n + 1) / 4
    var = n * (n + 1) * (2 * n + 1) / 24 - tie / 48
    z = (stat - mean) / math.sqrt(var)
    return stat, min(1.0, math.erfc(abs(z) / math.sqrt(2)))


def published():
    """{(dataset, label): value in %} from configs/multinomial-rf/published.yaml."""
    out = {}
    path = os.path.join(ROOT, "configs", "multinomial-rf", "published.yaml")
    try:
        import yaml
        with open(path) as f:
            for n in yaml.safe_load(f)["numbers"]:
                pm = n["paper_method"]
                out[(str(pm["dataset"]), pm["label"])] = 100 * float(n["value"])
    except (ImportError, OSError):
        pass
    return out


def ranks(values):
    """Ranks (1 = best = highest), ties averaged."""
    order = sorted(range(len(values)), key=lambda i: -values[i])
    r = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j < len(order) and values[order[j]] == values[order[i]]:
            j += 1
        for k in range(i, j):
            r[order[k]] = 0.5 * (i + 1 + j)
        i = j
    return r


def main(argv=None):
    ap = common.entry_parser(__doc__, "multinomial-rf", "table-2")
    ap.add_argument("--mrf-label", help='the MRF series to rank as MRF, e.g. "MRF (B=10)" (default: both tables)')
    a = ap.parse_args(argv)
    rows = load_rows(a.result_dir)
    if a.mrf_label:
        render(rows, a.result_dir, a.mrf_label)
        return
    render(rows, a.result_dir, "MRF")
    if any(r["label"] == EXTRA[0] for r in rows):
        render(rows, a.result_dir, EXTRA[0])


def render(rows, result_dir, mrf_label):
    """Writes table-2.md/.csv (MRF = the B = 5 series) or table-2-b10.md/.csv (MRF = "MRF (B=10)")."""
    acc = defaultdict(dict)  # (dataset, label) -> {(rep, fold): accuracy}
    datasets = []
    for r in rows:
        if r["dataset"] not in datasets:
            datasets.append(r["dataset"])
        acc[(r["dataset"], r["label"])][(int(r["repetition"]), int(r["fold"]))] = metric(r, "accuracy")
    labels = [m for m in METHODS + EXTRA if any((d, m) in acc for d in datasets)]
    mean = {k: 100 * sum(v.values()) / len(v) for k, v in acc.items()}
    pub = published()

    # Wilcoxon MRF vs Breiman on the paired folds.
    marks, tests = {}, {}
    for d in datasets:
        a, b = acc.get((d, mrf_label)), acc.get((d, "Breiman"))
        if not a or not b:
            continue
        keys = sorted(set(a) & set(b))
        stat, p = wilcoxon([a[k] for k in keys], [b[k] for k in keys])
        tests[d] = (stat, p, len(keys))
        if p < 0.05:
            marks[d] = (mrf_label, "•") if mean[(d, mrf_label)] > mean[(d, "Breiman")] else ("Breiman", "∘")

    # Average ranks over the datasets where every ranked method has a result (MRF as mrf_label).
    ranked = [m if m != "MRF" else mrf_label for m in METHODS if any((d, m) in acc for d in datasets)]
    full = [d for d in datasets if all((d, m) in mean for m in ranked)]
    avg = defaultdict(float)
    for d in full:
        for m, rk in zip(ranked, ranks([round(mean[(d, m)], 2) for m in ranked])):
            avg[m] += rk / len(full)

    md = [f"# Table 2 (ours): mean accuracy (%) over {max(len(v) for v in acc.values())} folds; "
          f"Wilcoxon {mrf_label} vs Breiman at 0.05 (• MRF better, ∘ RF better)", ""]
    md.append("| dataset | " + " | ".join(labels) + " | p (MRF vs RF) |")
    md.append("|---" * (len(labels) + 2) + "|")
    table_csv = []
    for d in datasets:
        cells = []
        for m in labels:
            if (d, m) not in mean:
                cells.append("—")
                continue
            mark = marks.get(d, (None, ""))[1] if marks.get(d, (None,))[0] == m else ""
            p = pub.get((d, m if m != "MRF (B=10)" else "MRF"))
            cells.append(f"{mean[(d, m)]:.2f}{mark}" + (f" ({p:.2f})" if p is not None else ""))
            table_csv.append({"dataset": d, "method": m, "accuracy_pct": f"{mean[(d, m)]:.4f}",
                              "n_folds": len(acc[(d, m)]), "published_pct": "" if p is None else f"{p:.2f}",
                              "mark": mark})
        t = tests.get(d)
        md.append(f"| {d} | " + " | ".join(cells) + f" | {t[1]:.3g} |" if t else f"| {d} | " + " | ".join(cells) + " | — |")
    # The rank row fills the column of the MRF series that was ranked; the other MRF column gets "—".
    md.append(f"| average rank ({len(full)} datasets, {mrf_label} ranked as MRF) | " +
              " | ".join(f"{avg[m]:.2f}" if m in avg else "—" for m in labels) + " | |")
    md += ["", "Published values in parentheses where the method of the cell is certain (multinomial-rf.md §3.3). "
           "Paper's average ranks (22 datasets, 6 methods): Denil14 5.1, BRF 4.1, CompRF-C 4.8, MRF 1.5, CompRF-I 3.7, "
           "Breiman 1.8.",
           f"MRF significantly better than RF on {sum(1 for v in marks.values() if v[1] == '•')} datasets, RF better "
           f"on {sum(1 for v in marks.values() if v[1] == '∘')}, of {len(tests)} tested (paper: MRF beats RF on 12 of "
           "22, significantly on 10)."]
    suffix = "" if mrf_label == "MRF" else "-b10"
    with open(os.path.join(result_dir, f"table-2{suffix}.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    with open(os.path.join(result_dir, f"table-2{suffix}.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=["dataset", "method", "accuracy_pct", "n_folds", "published_pct", "mark"])
        w.writeheader()
        w.writerows(table_csv)
    print("\n".join(md))


if __name__ == "__main__":
    main()
