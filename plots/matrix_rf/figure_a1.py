"""matrix-rf Appendix Figure 1: Car accuracy vs depth h (ε = 2, τ = 128).

Usage: python3 -m plots.matrix_rf.figure_a1 [RESULT_DIR]
(reads RESULT_DIR/results.csv, writes figure-a1.pdf/.png there)
"""
from plots import common
from plots.matrix_rf import mrf_plots


def main(argv=None):
    result_dir = common.result_dir_arg(__doc__, "matrix-rf", "figure-a1", argv)
    rows = common.load_rows(result_dir)
    mrf_plots.draw_panels(rows, "max_depth", [("car", "Car (ε = 2, τ = 128)", None)], result_dir, "figure-a1",
                          "Appendix Figure 1: accuracy vs depth", "depth h", log_x=False, ncols=1)


if __name__ == "__main__":
    main()
