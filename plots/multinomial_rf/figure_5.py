"""multinomial-rf Fig. 5: distribution of single-tree test accuracy, MRF vs Breiman RF, one violin pair
per dataset (each row of results.csv is one tree: the config fits one-tree forests). Reads only
results.csv. usage: python3 -m plots.multinomial_rf.figure_5 [RESULT_DIR]"""
import os
import statistics
from collections import defaultdict

from plots import common
from plots.common import load_rows, metric, plt, save

LABELS = ["MRF tree", "RF tree"]


def main(argv=None):
    result_dir = common.result_dir_arg(__doc__, "multinomial-rf", "figure-5", argv)
    rows = load_rows(result_dir)
    acc = defaultdict(list)
    datasets = []
    for r in rows:
        if r["dataset"] not in datasets:
            datasets.append(r["dataset"])
        acc[(r["dataset"], r["label"])].append(100 * metric(r, "accuracy"))
    fig, ax = plt.subplots(figsize=(1.8 * len(datasets) + 2, 4))
    lines = ["| dataset | " + " | ".join(f"{l} mean ± sd (n)" for l in LABELS) + " |", "|---|---|---|"]
    for i, d in enumerate(datasets):
        cells = []
        for j, label in enumerate(LABELS):
            v = acc.get((d, label))
            if not v:
                cells.append("—")
                continue
            parts = ax.violinplot([v], positions=[3 * i + j], widths=0.9, showmeans=True)
            colour = "C0" if j == 0 else "C1"
            for b in parts["bodies"]:
                b.set_facecolor(colour)
            for key in ("cmeans", "cmins", "cmaxes", "cbars"):  # whiskers in the series colour, as the legend
                parts[key].set_color(colour)
            cells.append(f"{statistics.mean(v):.2f} ± {statistics.stdev(v) if len(v) > 1 else 0:.2f} ({len(v)})")
        lines.append(f"| {d} | " + " | ".join(cells) + " |")
    ax.set_xticks([3 * i + 0.5 for i in range(len(datasets))])
    ax.set_xticklabels(datasets)
    ax.set_ylabel("single-tree test accuracy (%)")
    ax.plot([], [], color="C0", label="MRF tree")
    ax.plot([], [], color="C1", label="RF tree")
    ax.legend(loc="lower left")  # the upper right holds Wilt's violins (97 %)
    ax.grid(alpha=0.3, axis="y")
    ax.set_title("Per-tree accuracy, MRF vs Breiman RF")
    save(fig, result_dir, "figure-5")
    with open(os.path.join(result_dir, "figure-5.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
