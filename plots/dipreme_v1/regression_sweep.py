"""Shared drawing of [v1] Figures 3 and 5: Appliances MSE against d_max, N_T and ε. The configs label
each entry "<method> | <panel>" with panel d_max, N_T or eps; this module splits the label and draws
one panel per sweep (non-private methods are flat lines in the ε panel)."""
from plots import common

PANELS = [("d_max", "max_depth", "d_max"), ("N_T", "n_trees", "N_T"), ("eps", "epsilon", "ε")]
METHODS = ["RF", "ERT", "Median", "DP-ERT", "DiPriMe", "DiPriMe (Lebesgue)", "DiPriMe (strict)"]
STYLES = {
    "RF": {"color": "black", "linestyle": "--"},
    "ERT": {"color": "grey", "linestyle": "--"},
    "Median": {"color": "tab:brown", "linestyle": ":"},
    "DP-ERT": {"color": "tab:red", "marker": "v"},
    "DiPriMe": {"color": "tab:blue", "marker": "o"},
    "DiPriMe (Lebesgue)": {"color": "tab:orange", "marker": "s", "linestyle": "--"},
    "DiPriMe (strict)": {"color": "tab:blue", "marker": "x", "linestyle": ":"},
}


def draw(result_dir, stem, part_text):
    rows = common.load_rows(result_dir)
    fig, axes = common.plt.subplots(1, 3, figsize=(16, 4.6))
    for ax, (tag, column, xname) in zip(axes, PANELS):
        sub = []
        for r in rows:
            method, _, panel = r["label"].rpartition(" | ")
            if panel == tag:
                r = dict(r)
                r["method"] = method
                if r["algorithm"] in ("rf", "ert", "median-forest") and tag == "eps":
                    r[column] = ""  # non-private: flat line across the ε axis
                sub.append(r)
        data = common.series(sub, "mse", column, label_column="method")
        xs = sorted({p[0] for pts in data.values() for p in pts if p[0] is not None})
        common.plot_vs_x(ax, data, METHODS, STYLES, xs)
        if tag == "eps":
            ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel(xname)
        ax.grid(True, alpha=0.3)
    axes[0].set_ylabel("test MSE (mean ± std, 10 random 90/10 splits)")
    axes[0].set_title("(a) vs d_max (ε = 10, N_T = 10)", fontsize=9)
    axes[1].set_title("(b) vs N_T (ε = 10, d_max = 5)", fontsize=9)
    axes[2].set_title("(c) vs ε (d_max = 5, N_T = 10)", fontsize=9)
    axes[0].legend(fontsize=8, loc="lower left")
    fig.suptitle(f"Appliances, K = 10, ρ = 0.5, DiPriMe {part_text}")
    common.save(fig, result_dir, stem)
