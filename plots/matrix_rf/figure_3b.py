"""matrix-rf Figure 3b: Car accuracy vs the number of inference queries b (ε = 2, h = 4, τ = 16).

Usage: python3 -m plots.matrix_rf.figure_3b [RESULT_DIR]
(reads RESULT_DIR/results.csv, writes figure-3b.pdf/.png there)
Each point averages, per repetition, the ⌈1728/b⌉ independent releases of b queries (query_batch).
"""
from plots import common
from plots.matrix_rf import mrf_plots


def main(argv=None):
    result_dir = common.result_dir_arg(__doc__, "matrix-rf", "figure-3b", argv)
    rows = common.load_rows(result_dir)
    mrf_plots.draw_panels(rows, "query_batch", [("car", "Car (ε = 2, h = 4, τ = 16), trained on all rows", None)],
                          result_dir, "figure-3b", "Figure 3b: accuracy vs number of queries", "number of queries b", ncols=1)


if __name__ == "__main__":
    main()
