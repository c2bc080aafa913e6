"""multinomial-rf appendix: one MRF tree's accuracy vs epsilon (both composition readings of the
published mapping and the repaired strict variant) with the non-private tree as a flat reference,
one panel per dataset. Reads only results.csv.
usage: python3 -m plots.multinomial_rf.figure_appendix [RESULT_DIR]"""
from collections import defaultdict

from plots import common
from plots.common import load_rows, plot_vs_x, plt, save, series

LABELS = ["MRF-DP (S/E parallel)", "MRF-DP (sequential)", "MRF-DP (strict, ε-DP)", "MRF tree (non-private)"]


def main(argv=None):
    result_dir = common.result_dir_arg(__doc__, "multinomial-rf", "figure-appendix", argv)
    rows = load_rows(result_dir)
    by_ds = defaultdict(list)
    for r in rows:
        if r["algorithm"] == "multinomial-rf":
            r = dict(r, epsilon_requested="")  # non-private: flat line
        by_ds[r["dataset"]].append(r)
    datasets = list(by_ds)
    fig, axes = plt.subplots(1, len(datasets), figsize=(4.2 * len(datasets), 3.4), squeeze=False)
    for ax, d in zip(axes.flat, datasets):
        data = series(by_ds[d], "accuracy", "epsilon_requested")
        xs = sorted({p[0] for lab in data for p in data[lab] if p[0] is not None})
        plot_vs_x(ax, data, LABELS, {}, xs)
        ax.set_xscale("log")
        ax.set_title(d)
        ax.set_xlabel("ε")
        ax.set_ylabel("accuracy")
        ax.grid(alpha=0.3)
    axes.flat[0].legend(fontsize=7)
    fig.tight_layout()
    save(fig, result_dir, "figure-appendix")


if __name__ == "__main__":
    main()
