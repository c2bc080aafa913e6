"""smooth-rdf Figure 10: Adult, accuracy vs eps: private (ours), non-private (ours), Breiman RF.
Usage: python3 -m plots.smooth_rdf.figure_10 [RESULT_DIR]"""
from plots import common


def main(argv=None):
    d = common.result_dir_arg(__doc__, "smooth-rdf", "figure-10", argv)
    rows = common.load_rows(d)
    data = common.series(rows, "accuracy", "epsilon")
    eps = sorted({p[0] for pts in data.values() for p in pts if p[0] is not None})
    fig, ax = common.plt.subplots(figsize=(7, 4.5))
    styles = {"Private (ours)": {"marker": "o"}, "Non-private (ours)": {"linestyle": "--"},
              "Breiman RF": {"linestyle": ":", "color": "black"}}
    common.plot_vs_x(ax, data, ["Private (ours)", "Non-private (ours)", "Breiman RF"], styles, eps)
    ax.set_xlabel("epsilon")
    ax.set_ylabel("accuracy")
    ax.grid(True, alpha=0.3)
    ax.legend()
    ax.set_title("Figure 10: Adult, accuracy vs epsilon")
    common.save(fig, d, "figure-10")


if __name__ == "__main__":
    main()
