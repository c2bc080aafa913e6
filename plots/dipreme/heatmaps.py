"""Shared drawing of dipreme Figures 7 and 8: MSE heatmaps of one DiPriMe variant on Appliances.

Panels as in the paper: (a) epsilon x rho, partitioned; (b) K x N_T, partitioned; (c), (d) the same
without partitioning; the configs end each label in its panel letter. The epsilon x rho grids never
use rho = 0.5, which tells a row's grid. Top row: the variant as published; bottom row: its strict
(epsilon-DP) version on the same split. Each cell shows the test MSE x 1e3 of its run(s).
"""
import math
from collections import defaultdict

from plots import common

GRIDS = {
    "rho": ("epsilon", [3, 10, 30, 100], "rho", [0.2, 0.4, 0.6, 0.8]),
    "k": ("k", [1, 3, 10, 20], "n_trees", [1, 3, 10, 30]),
}
PANELS = [("a", "rho", "N_T = 10, d_max = 8, K = 10, data partitioned"),
          ("b", "k", "d_max = 8, epsilon = 10, rho = 0.5, data partitioned"),
          ("c", "rho", "N_T = 10, d_max = 8, K = 10, data not partitioned"),
          ("d", "k", "d_max = 8, epsilon = 10, rho = 0.5, data not partitioned")]


def _f(r, c):
    v = r.get(c, "")
    return float(v) if v not in ("", "nan") else math.nan


def cells(rows, label):
    """{(row value, column value): [mse, ...]} of one panel (its label ends in the panel letter)."""
    out = defaultdict(list)
    for r in rows:
        if r["label"] != label:
            continue
        row_col, _, col_col, _ = GRIDS["rho" if _f(r, "rho") != 0.5 else "k"]
        out[(_f(r, row_col), _f(r, col_col))].append(common.metric(r, "mse"))
    return out


def panel_matrix(rows, label, grid):
    row_col, row_vals, col_col, col_vals = GRIDS[grid]
    got = cells(rows, label)
    m = [[math.nan] * len(col_vals) for _ in row_vals]
    for i, rv in enumerate(row_vals):
        for j, cv in enumerate(col_vals):
            vals = got.get((float(rv), float(cv)), [])
            m[i][j] = common.summarize(vals)[0] if vals else math.nan
    return m


def draw(result_dir, stem, label):
    rows = common.load_rows(result_dir)
    fig, axes = common.plt.subplots(2, 4, figsize=(20, 10), constrained_layout=True)
    for row_i, lab in enumerate([label, label + " (strict)"]):
        mats = [panel_matrix(rows, f"{lab} ({letter})", g) for letter, g, _ in PANELS]
        finite = [v for m in mats for line in m for v in line if not math.isnan(v)]
        vmin, vmax = (min(finite), max(finite)) if finite else (0, 1)
        for col, ((letter, grid, title), m) in enumerate(zip(PANELS, mats)):
            ax = axes[row_i][col]
            row_col, row_vals, col_col, col_vals = GRIDS[grid]
            im = ax.imshow(m, cmap="viridis_r", vmin=vmin, vmax=vmax, origin="lower", aspect="auto")
            for i in range(len(row_vals)):
                for j in range(len(col_vals)):
                    if not math.isnan(m[i][j]):
                        ax.text(j, i, f"{m[i][j] * 1e3:.2f}", ha="center", va="center", fontsize=8,
                                color="white" if m[i][j] > (vmin + vmax) / 2 else "black")
            ax.set_xticks(range(len(col_vals)), [str(v) for v in col_vals])
            ax.set_yticks(range(len(row_vals)), [str(v) for v in row_vals])
            ax.set_xlabel({"rho": "rho", "n_trees": "N_T"}[col_col])
            ax.set_ylabel({"epsilon": "epsilon", "k": "K"}[row_col])
            ax.set_title(f"({letter}) {lab}\n{title}", fontsize=9)
        fig.colorbar(im, ax=list(axes[row_i]), fraction=0.02, pad=0.01, label="test MSE")
    n = len({r["repetition"] for r in rows})
    fig.suptitle(f"{label} on Appliances energy (target scaled to [0, 1]); cell text: MSE x 1e3; "
                 f"{n} split(s), one run per cell as in the paper")
    common.save(fig, result_dir, stem)
