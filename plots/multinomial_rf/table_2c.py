"""multinomial-rf Table 2 side run (configs/multinomial-rf/table-2c.yaml): Denil14's mean accuracy (%) per
dataset for each search-range sample size m_s (0 = no range), beside the printed Denil14 value of Table 2,
with the m_s whose mean lies closest to it. Reads only results.csv and published.yaml; writes table-2c.md and
table-2c.csv next to results.csv.

usage: python3 -m plots.multinomial_rf.table_2c [RESULT_DIR]"""
from collections import defaultdict

from plots import common
from plots.common import load_rows, metric, summarize, write_md_csv
from plots.multinomial_rf.table_2 import published


def main(argv=None):
    result_dir = common.result_dir_arg(__doc__, "multinomial-rf", "table-2c", argv)
    acc = defaultdict(list)
    datasets, values = [], set()
    for r in load_rows(result_dir):
        if r["dataset"] not in datasets:
            datasets.append(r["dataset"])
        values.add(int(r["m_s"]))
        acc[(r["dataset"], int(r["m_s"]))].append(100 * metric(r, "accuracy"))
    # 0 (no range) first, then the restrictions from the mildest to the strongest.
    order = sorted(values, key=lambda m: (m != 0, -m))
    pub = published()
    md = ["# Denil14 vs its search-range sample size m_s: mean accuracy (%) over the folds", "",
          "| dataset | printed | " + " | ".join("m_s = 0 (no range)" if m == 0 else f"m_s = {m}" for m in order) +
          " | closest m_s | gap there |",
          "|---" * (len(order) + 4) + "|"]
    out = []
    for d in datasets:
        means = {}
        for m in order:
            mu, sd, n = summarize(acc.get((d, m), []))
            if n:
                means[m] = mu
                out.append({"dataset": d, "m_s": m, "accuracy_pct": f"{mu:.4f}", "sd_pct": f"{sd:.4f}", "n_folds": n})
        p = pub.get((d, "Denil14"))
        cells = [f"{means[m]:.2f}" if m in means else "—" for m in order]
        if p is not None and means:
            best = min(means, key=lambda m: abs(means[m] - p))
            tail = f" | {best} | {means[best] - p:+.2f} |"
        else:
            tail = " | — | — |"
        md.append(f"| {d} | " + (f"{p:.2f}" if p is not None else "—") + " | " + " | ".join(cells) + tail)
    md += ["", "Printed: Table 2's Denil14 column (multinomial-rf.md §3.3). m_s: per candidate feature, the split "
           "search is restricted to the range of m_s randomly drawn node points (§2.2); Table 2 ran m_s = 0."]
    write_md_csv(result_dir, "table-2c", md, out, ["dataset", "m_s", "accuracy_pct", "sd_pct", "n_folds"])


if __name__ == "__main__":
    main()
