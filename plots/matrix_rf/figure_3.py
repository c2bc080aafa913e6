"""matrix-rf Figure 3a: Car accuracy vs the number of trees τ (ε = 2, h = 4).

Usage: python3 -m plots.matrix_rf.figure_3 [RESULT_DIR]
(reads RESULT_DIR/results.csv, writes figure-3.pdf/.png there)
"""
from plots import common
from plots.matrix_rf import mrf_plots


def main(argv=None):
    result_dir = common.result_dir_arg(__doc__, "matrix-rf", "figure-3", argv)
    rows = common.load_rows(result_dir)
    mrf_plots.draw_panels(rows, "n_trees", [("car", "Car (ε = 2, h = 4)", None)], result_dir, "figure-3",
                          "Figure 3a: accuracy vs number of trees", "number of trees τ", ncols=1)


if __name__ == "__main__":
    main()
