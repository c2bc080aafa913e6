"""dipreme Figure 4: histogram of the fraction of a node's rows sent to its first child (the upper child,
the code's `left`), DiPriMe vs random splits (DP-ERT): 100 trees of depth 5 on all rows, epsilon = 100.
Left: Appliances, the data the notebook cell used; right: Banknote, the data the caption names
(dipreme.md §6.4 item 5). Each legend entry gives the share of nodes with a fraction in [0.4, 0.6].
Usage: python3 -m plots.dipreme.figure_4 [RESULT_DIR]   (reads RESULT_DIR/results.csv, writes figure-4.pdf/.png and
figure-4-summary.csv there)
"""
import csv
import os

from plots import common
from plots.dipreme import balance


def main(argv=None):
    result_dir = common.result_dir_arg(__doc__, "dipreme", "figure-4", argv)
    rows = common.load_rows(result_dir)
    datasets = [("appliances-energy", "(a) Appliances (as the notebook ran it)"),
                ("banknote", "(b) Banknote (as the caption says)")]
    styles = {"DiPriMe (as coded)": {"color": "tab:blue", "alpha": 0.55},
              "Random splits (DP-ERT)": {"color": "tab:red", "alpha": 0.45},
              "DiPriMe": {"color": "navy", "histtype": "step", "linewidth": 1.5}}
    summary = [["dataset", "label", "nodes", "share_0.4_0.6", "share_below_0.1_or_above_0.9"]]
    fig, axes = common.plt.subplots(1, 2, figsize=(13, 4.8))
    for ax, (ds, title) in zip(axes, datasets):
        for label, style in styles.items():
            got = [r for r in rows if r["dataset"] == ds and r["label"] == label]
            if not got:
                continue
            xs = [v for r in got for v in balance.values(r, "left_fraction")]
            mid = balance.share_between(xs, 0.4, 0.6)
            tails = 1 - balance.share_between(xs, 0.1, 0.9) if xs else float("nan")
            ax.hist(xs, bins=40, range=(0, 1), label=f"{label} ({mid:.0%} in [0.4, 0.6])", **style)
            summary.append([ds, label, str(len(xs)), f"{mid:.4f}", f"{tails:.4f}"])
        ax.set_title(title)
        ax.set_xlabel("fraction of the node's rows sent to the first child")
        ax.set_ylabel("number of internal nodes (100 trees)")
        ax.legend(fontsize=8)
    fig.suptitle("Balance of splits: 100 trees, depth 5, K = 1, all rows per tree, epsilon = 100 (1 per tree), rho = 0.5")
    common.save(fig, result_dir, "figure-4")
    with open(os.path.join(result_dir, "figure-4-summary.csv"), "w", newline="") as f:
        csv.writer(f).writerows(summary)
    for line in summary:
        print(" | ".join(line))


if __name__ == "__main__":
    main()
