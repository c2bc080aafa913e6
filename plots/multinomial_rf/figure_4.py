"""multinomial-rf Fig. 4: MRF accuracy (mean ± std over the CV folds) vs B1 (B2 = 5) and vs B2 (B1 = 5),
one panel per dataset. Reads only results.csv. usage: python3 -m plots.multinomial_rf.figure_4 [RESULT_DIR]"""
from collections import defaultdict

from plots import common
from plots.common import load_rows, plt, save, series

SWEEPS = {"vary B1 (B2 = 5)": "b1", "vary B2 (B1 = 5)": "b2"}


def main(argv=None):
    result_dir = common.result_dir_arg(__doc__, "multinomial-rf", "figure-4", argv)
    rows = load_rows(result_dir)
    by_ds = defaultdict(list)
    for r in rows:
        by_ds[r["dataset"]].append(r)
    datasets = list(by_ds)
    cols = min(3, len(datasets))
    nrows = (len(datasets) + cols - 1) // cols
    fig, axes = plt.subplots(nrows, cols, figsize=(4.2 * cols, 3.2 * nrows), squeeze=False)
    for ax, d in zip(axes.flat, datasets):
        for label, col in SWEEPS.items():
            pts = series([r for r in by_ds[d] if r["label"] == label], "accuracy", col).get(label, [])
            if pts:
                ax.errorbar([p[0] for p in pts], [100 * p[1] for p in pts], yerr=[100 * p[2] for p in pts],
                            label=label.replace("vary ", ""), capsize=3, marker="o", ms=3)
        ax.set_title(d)
        ax.set_xlabel("B")
        ax.set_ylabel("accuracy (%)")
        ax.grid(alpha=0.3)
    for ax in list(axes.flat)[len(datasets):]:
        ax.axis("off")
    axes.flat[0].legend(fontsize=8)
    fig.suptitle("MRF accuracy vs B1 and B2 (100 trees, k = 5, 10 x 10-fold CV)")
    fig.tight_layout()
    save(fig, result_dir, "figure-4")


if __name__ == "__main__":
    main()
