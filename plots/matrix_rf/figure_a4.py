"""matrix-rf Appendix Figure 4: Car subsample-and-aggregate vs the number of queries b (ε = 2, h = 4, τ = 16).

Usage: python3 -m plots.matrix_rf.figure_a4 [RESULT_DIR]
(reads RESULT_DIR/results.csv, writes figure-a4.pdf/.png there)
Each point averages, per repetition, the ⌈1728/b⌉ independent releases of b queries (query_batch).
"""
from plots import common
from plots.matrix_rf import mrf_plots


def main(argv=None):
    result_dir = common.result_dir_arg(__doc__, "matrix-rf", "figure-a4", argv)
    rows = common.load_rows(result_dir)
    mrf_plots.draw_panels(rows, "query_batch", [("car", "Car (ε = 2, h = 4, τ = 16), trained on all rows", None)],
                          result_dir, "figure-a4", "Appendix Figure 4: subsample-and-aggregate vs number of queries",
                          "number of queries b", ncols=1)


if __name__ == "__main__":
    main()
