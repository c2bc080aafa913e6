"""[v1] Figure 6: DiPriMe MSE heatmaps on Appliances (grids of the ICML Fig. 7, see the config):
(a) ε × ρ and (b) K × N_T with DiPriMe partitioned, (c)/(d) the same on all rows (part = False).
Cells show the mean test MSE over the repetitions (×1e-3).
Usage: python3 -m plots.dipreme_v1.figure_6 [RESULT_DIR]
(reads RESULT_DIR/results.csv, writes figure-6.pdf/.png there)"""
import statistics
from collections import defaultdict

from plots import common


def main(argv=None):
    result_dir = common.result_dir_arg(__doc__, "dipreme-v1", "figure-6", argv)
    rows = common.load_rows(result_dir)
    panels = [("eps-rho", "part", "epsilon", "rho", "(a) ε × ρ, partitioned"),
              ("K-N_T", "part", "k", "n_trees", "(b) K × N_T, partitioned"),
              ("eps-rho", "all", "epsilon", "rho", "(c) ε × ρ, part = False"),
              ("K-N_T", "all", "k", "n_trees", "(d) K × N_T, part = False")]
    fig, axes = common.plt.subplots(1, 4, figsize=(22, 4.8), constrained_layout=True)
    for ax, (grid, part, xcol, ycol, title) in zip(axes, panels):
        cells = defaultdict(list)
        for r in rows:
            if r["label"] == f"DiPriMe | {grid} | {part}":
                cells[(float(r[xcol]), float(r[ycol]))].append(float(r["mse"]))
        xs = sorted({k[0] for k in cells})
        ys = sorted({k[1] for k in cells})
        if not xs:
            ax.set_title(title + " (no rows)", fontsize=9)
            continue
        z = [[statistics.mean(cells[(x, y)]) * 1e3 if cells.get((x, y)) else float("nan") for x in xs] for y in ys]
        im = ax.imshow(z, origin="lower", cmap="YlOrRd", aspect="auto")
        for i in range(len(ys)):
            for j in range(len(xs)):
                ax.text(j, i, f"{z[i][j]:.2f}", ha="center", va="center", fontsize=8, color="black")
        ax.set_xticks(range(len(xs)), [f"{x:g}" for x in xs])
        ax.set_yticks(range(len(ys)), [f"{y:g}" for y in ys])
        ax.set_xlabel({"epsilon": "ε", "k": "K"}[xcol])
        ax.set_ylabel({"rho": "ρ", "n_trees": "N_T"}[ycol])
        ax.set_title(title, fontsize=9)
        fig.colorbar(im, ax=ax, fraction=0.046, label="MSE ×1e-3")
    n = len({r["repetition"] for r in rows})
    fig.suptitle(f"Appliances, DiPriMe (uniform-position median), d_max = 5; mean over {n} random 90/10 splits")
    common.save(fig, result_dir, "figure-6")


if __name__ == "__main__":
    main()
