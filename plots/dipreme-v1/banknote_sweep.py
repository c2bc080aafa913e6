"""Shared drawing of [v1] Figures 4 and 7: Banknote accuracy against ε (d_max = 5, N_T = 10, ρ = 0.5).
Panel (a): the paper's methods as the authors ran them (DP-ERT scored 1 - mean|y - p|, DP-DF the root's
noisy majority at ε/2); panel (b): DiPriMe's median variants, DP-ERT by 0/1 accuracy, the correct DP-DF."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import common  # noqa: E402

PAPER = ["RF", "ERT", "Median", "DiPriMe", "DP-ERT", "DP-DF (as run)"]
OTHER = ["DiPriMe", "DiPriMe (Lebesgue)", "DiPriMe (strict)", "DP-ERT (0/1 error)", "DP-DF"]
STYLES = {
    "RF": {"color": "black", "linestyle": "--"},
    "ERT": {"color": "grey", "linestyle": "--"},
    "Median": {"color": "tab:brown", "linestyle": ":"},
    "DiPriMe": {"color": "tab:blue", "marker": "o"},
    "DiPriMe (Lebesgue)": {"color": "tab:orange", "marker": "s", "linestyle": "--"},
    "DiPriMe (strict)": {"color": "tab:blue", "marker": "x", "linestyle": ":"},
    "DP-ERT": {"color": "tab:red", "marker": "v"},
    "DP-ERT (0/1 error)": {"color": "tab:red", "marker": "x", "linestyle": ":"},
    "DP-DF (as run)": {"color": "tab:pink", "marker": "P"},
    "DP-DF": {"color": "tab:pink", "marker": "P", "linestyle": "--"},
}


def draw(result_dir, stem, part_text):
    rows = common.load_rows(result_dir)
    data = common.series(rows, "accuracy", "epsilon")
    eps = sorted({p[0] for pts in data.values() for p in pts if p[0] is not None})
    fig, axes = common.plt.subplots(1, 2, figsize=(12, 4.5), sharey=True)
    common.plot_vs_x(axes[0], data, PAPER, STYLES, eps)
    axes[0].set_title("(a) as in the paper (DP-ERT: 1 - L1 error; DP-DF as the authors ran it)", fontsize=9)
    common.plot_vs_x(axes[1], data, OTHER, STYLES, eps)
    axes[1].set_title("(b) median variants, DP-ERT 0/1 accuracy, correct DP-DF", fontsize=9)
    for ax in axes:
        ax.set_xscale("log")
        ax.set_xlabel("ε")
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8, loc="lower right")
    axes[0].set_ylabel("accuracy (mean ± std over 10 random 90/10 splits)")
    fig.suptitle(f"Banknote, d_max = 5, N_T = 10, ρ = 0.5, K = 5; DiPriMe {part_text}")
    common.save(fig, result_dir, stem)
