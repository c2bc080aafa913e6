"""Panel plots shared by the matrix-rf figures (reads only results.csv rows)."""
import math
from collections import defaultdict

from plots import common

STYLES = {
    "DP batch train (ours)": {"color": "tab:blue", "marker": "o"},
    "DP batch pred (ours)": {"color": "tab:orange", "marker": "s"},
    "DP batch train - LM": {"color": "tab:green", "marker": "^"},
    "DP disj. train - LM": {"color": "tab:red", "marker": "v"},
    "Subsample (ours, weight)": {"color": "tab:blue", "marker": "o"},
    "Subsample (ours, hard)": {"color": "tab:cyan", "marker": "o", "linestyle": "--"},
    "Subs. & aggr. - LM (weight)": {"color": "tab:red", "marker": "v"},
    "Subs. & aggr. - LM (hard)": {"color": "tab:pink", "marker": "v", "linestyle": "--"},
    "ExtraTrees (non-private)": {"color": "black", "linestyle": ":"},
    "Random trees (non-private)": {"color": "grey", "linestyle": ":"},
}


def grouped(rows, x_column, panel_column="dataset"):
    """{panel: {label: [(x, mean, sd, n)]}}."""
    by_panel = defaultdict(list)
    for r in rows:
        by_panel[r[panel_column]].append(r)
    return {p: common.series(rs, "accuracy", x_column) for p, rs in by_panel.items()}


def draw_panels(rows, x_column, panels, result_dir, stem, title, xlabel, log_x=True, ncols=3):
    """panels: list of (panel value, panel title, (xmin, xmax) or None)."""
    data = grouped(rows, x_column)
    n = len(panels)
    nrows = math.ceil(n / ncols)
    fig, axes = common.plt.subplots(nrows, min(ncols, n), figsize=(4.6 * min(ncols, n), 3.8 * nrows), squeeze=False)
    for i, (panel, ptitle, xr) in enumerate(panels):
        ax = axes[i // ncols][i % ncols]
        series = data.get(panel, {})
        for label in sorted(series):
            pts = [p for p in series[label] if p[0] is not None and (xr is None or xr[0] <= p[0] <= xr[1])]
            flat = [p for p in series[label] if p[0] is None]
            st = STYLES.get(label, {})
            if pts:
                xs = [p[0] for p in pts]
                ms = [p[1] for p in pts]
                sds = [p[2] for p in pts]
                ax.errorbar(xs, ms, yerr=sds, label=label, capsize=2, **st)
            elif flat:
                ax.axhline(flat[0][1], label=label, **{k: v for k, v in st.items() if k != "marker"})
        if log_x:
            ax.set_xscale("log")
        ax.set_title(ptitle, fontsize=10)
        ax.set_xlabel(xlabel)
        ax.set_ylabel("test accuracy")
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=7, loc="lower right")
    for j in range(n, nrows * ncols):
        axes[j // ncols][j % ncols].axis("off")
    reps = len({r["repetition"] for r in rows})
    fig.suptitle(f"{title} (mean ± sd over {reps} repetitions)")
    fig.tight_layout()
    common.save(fig, result_dir, stem)
