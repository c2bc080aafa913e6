"""multinomial-rf Table 2 side run (configs/multinomial-rf/table-2b.yaml): Hayes-Roth accuracy (%) per method
with the random `name` id column dropped (as in table-2.yaml) and kept as a numeric feature (Table 1 counts it),
next to the printed Table 2 value where the method of the cell is certain. Reads only results.csv and
published.yaml; writes table-2b.md and table-2b.csv next to results.csv.

usage: python3 -m plots.multinomial_rf.table_2b [RESULT_DIR]"""
from collections import defaultdict

from plots import common
from plots.common import load_rows, metric, summarize, write_md_csv
from plots.multinomial_rf.table_2 import EXTRA, METHODS, published

COLUMNS = [("hayes-roth", "name dropped"), ("hayes-roth:with-name", "name kept")]


def main(argv=None):
    result_dir = common.result_dir_arg(__doc__, "multinomial-rf", "table-2b", argv)
    acc = defaultdict(list)
    for r in load_rows(result_dir):
        acc[(r["dataset"], r["label"])].append(100 * metric(r, "accuracy"))
    pub = published()
    labels = [m for m in METHODS + EXTRA if any((d, m) in acc for d, _ in COLUMNS)]
    md = ["# Hayes-Roth with and without the name id: mean accuracy (%) ± sd over the folds", "",
          "| method | " + " | ".join(f"{d} ({what})" for d, what in COLUMNS) + " | kept − dropped | printed |",
          "|---" * (len(COLUMNS) + 3) + "|"]
    out = []
    for m in labels:
        cells, means = [], []
        for d, _ in COLUMNS:
            v = acc.get((d, m), [])
            if not v:
                cells.append("—")
                means.append(None)
                continue
            mu, sd, _ = summarize(v)
            means.append(mu)
            cells.append(f"{mu:.2f} ± {sd:.2f} (n={len(v)})")
            out.append({"dataset": d, "method": m, "accuracy_pct": f"{mu:.4f}", "sd_pct": f"{sd:.4f}", "n_folds": len(v)})
        delta = f"{means[1] - means[0]:+.2f}" if None not in means else "—"
        p = pub.get(("hayes-roth", m if m != "MRF (B=10)" else "MRF"))
        md.append(f"| {m} | " + " | ".join(cells) + f" | {delta} | " + (f"{p:.2f}" if p is not None else "lost") + " |")
    md += ["", "Printed: Table 2's Hayes-Roth row where the method is certain (multinomial-rf.md §3.3; MRF's cell is "
           "lost). Majority class: 51 of 132 rows (38.6 %)."]
    write_md_csv(result_dir, "table-2b", md, out, ["dataset", "method", "accuracy_pct", "sd_pct", "n_folds"])


if __name__ == "__main__":
    main()
