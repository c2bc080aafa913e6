"""[v1] Figure 1: histogram of the fraction of a node's points sent to its left child (child 0),
100 trees of depth 5, ε = 10 on Appliances: DiPriMe (uniform-position median, [v1]) and the Lebesgue
median ([ICML]) against random splitting values. Panel (a): DiPriMe partitioned (each tree ε on 1/100 of
the rows); panel (b): every tree on all rows with ε/100. Random splits are the same in both panels.
Reads the `left_fraction` column written by `record: [left_fraction]`.
Usage: python3 -m plots.dipreme_v1.figure_1 [RESULT_DIR]
(reads RESULT_DIR/results.csv, writes figure-1.pdf/.png there)"""
import statistics

from plots import common


def fractions(rows, label, partition=None):
    out = []
    for r in rows:
        if r["label"] != label or (partition is not None and r.get("partition") != partition):
            continue
        out += [float(v) for v in r.get("left_fraction", "").split()]
    return out


def main(argv=None):
    result_dir = common.result_dir_arg(__doc__, "dipreme-v1", "figure-1", argv)
    rows = common.load_rows(result_dir)

    styles = {"DiPriMe": "tab:blue", "DiPriMe (Lebesgue)": "tab:orange", "Random splits": "tab:red"}
    bins = [i / 40 for i in range(41)]
    fig, axes = common.plt.subplots(1, 2, figsize=(12, 4.2), sharey=True)
    for ax, part, title in ((axes[0], "true", "(a) DiPriMe partitioned: each tree ε = 10 on 1/100 of the rows"),
                            (axes[1], "false", "(b) not partitioned: each tree on all rows, ε/100")):
        for label, color in styles.items():
            vals = fractions(rows, label, None if label == "Random splits" else part)
            if not vals:
                continue
            med = statistics.median(vals)
            ax.hist(vals, bins=bins, density=True, histtype="step" if label != "DiPriMe" else "stepfilled",
                    alpha=0.45 if label == "DiPriMe" else 1.0, color=color, linewidth=1.6,
                    label=f"{label} ({len(vals)} nodes, median {med:.2f})")
        ax.set_title(title, fontsize=9)
        ax.set_xlabel("fraction of the node's points sent to the left child")
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8, loc="upper left")
    axes[0].set_ylabel("density")
    fig.suptitle("Appliances: 100 trees, depth 5, ε = 10, K = 10 (one 90/10 split)")
    common.save(fig, result_dir, "figure-1")


if __name__ == "__main__":
    main()
