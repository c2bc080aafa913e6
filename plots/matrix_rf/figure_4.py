"""matrix-rf Figure 4 / Appendix Figure 3: subsample-and-aggregate accuracy vs ε (τ = 16).

Usage: python3 -m plots.matrix_rf.figure_4 [RESULT_DIR]
(reads RESULT_DIR/results.csv, writes figure-4.pdf/.png there)
"""
from plots import common
from plots.matrix_rf import mrf_plots


def main(argv=None):
    result_dir = common.result_dir_arg(__doc__, "matrix-rf", "figure-4", argv)
    rows = common.load_rows(result_dir)
    panels = [("car", "Car (h=3, τ=16)", None), ("iris", "Iris (h=2, τ=16)", None),
              ("balance-scale", "Balance (h=2, τ=16)", None)]
    mrf_plots.draw_panels(rows, "epsilon", panels, result_dir, "figure-4", "Figure 4 / App. Fig. 3: subsample-and-aggregate", "ε")


if __name__ == "__main__":
    main()
