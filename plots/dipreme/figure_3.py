"""dipreme Figure 3: number of leaves vs leaf occupancy (leaf count / rows of its tree) on Robot, one panel
per method: the methods as the notebook ran them (DiPriMeExp on all rows at depth 4, DP-DF as run,
DP-RF depth 3, DP-ERT depth 7), then DiPriMe as the caption names it (K = 1, partitioned, occupancy per
chunk) and the correct DP-DF at h = 3. Each panel states leaves per tree, the share of
leaves holding under 1 % of the rows, and the coefficient of variation of the leaf counts (the
notebook's diagnostic: DP-DF 5.59, DP-RF 2.17, DP-ERT 3.35, DiPriMeExp 0.56, dipreme.md §6.3).
Usage: python3 -m plots.dipreme.figure_3 [RESULT_DIR]   (reads RESULT_DIR/results.csv, writes figure-3.pdf/.png and
figure-3-summary.csv there)
"""
import csv
import os

from plots import common
from plots.dipreme import balance


def main(argv=None):
    result_dir = common.result_dir_arg(__doc__, "dipreme", "figure-3", argv)
    rows = common.load_rows(result_dir)
    order = ["DiPriMe (as run)", "DP-DF (as run)", "DP-RF", "DP-ERT", "DiPriMe", "DP-DF"]  # 2 x 3 panels
    by_label = {r["label"]: r for r in rows}
    fig, axes = common.plt.subplots(2, 3, figsize=(15, 9), constrained_layout=True)
    summary = [["label", "algorithm", "leaves_per_tree", "share_below_0.01", "empty_share", "cv_leaf_counts",
                "max_occupancy"]]
    slots = [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)]
    for (i, j), label in zip(slots, order):
        ax = axes[i][j]
        r = by_label.get(label)
        if r is None:
            ax.set_title(f"{label}: no results")
            continue
        occ = balance.per_tree_occupancy(r)
        nt = int(r["n_trees"])
        inside = [min(v, 0.25) for v in occ]
        ax.hist(inside, bins=50, range=(0, 0.25), color="tab:blue" if "DiPriMe" in label else "tab:red")
        below = balance.share_between(occ, 0, 0.01)
        empty = balance.share_between(occ, 0, 0)
        c = balance.cv(occ)
        ax.set_title(f"{label}\n{len(occ) / nt:.1f} leaves/tree; {below:.0%} below 1 %; CV {c:.2f}", fontsize=9)
        ax.set_xlabel("leaf occupancy (count / rows of its tree)")
        ax.set_ylabel("number of leaves (all trees)")
        summary.append([label, r["algorithm"], f"{len(occ) / nt:.2f}", f"{below:.4f}", f"{empty:.4f}", f"{c:.3f}",
                        f"{max(occ) if occ else float('nan'):.4f}"])
    fig.suptitle("Robot (wall-robot:24), one split, epsilon = 2, N_T = 10: leaf occupancy per method (values above 0.25 "
                 "in the last bin)\nDiPriMe (as run) = DiPriMeExp on all rows, depth 4; DP-DF (as run) pruned, unbounded depth; "
                 "DP-RF depth 3; DP-ERT depth 7; DiPriMe = K = 1, partitioned; DP-DF = correct, h = 3")
    common.save(fig, result_dir, "figure-3")
    with open(os.path.join(result_dir, "figure-3-summary.csv"), "w", newline="") as f:
        csv.writer(f).writerows(summary)
    for line in summary:
        print(" | ".join(line))


if __name__ == "__main__":
    main()
