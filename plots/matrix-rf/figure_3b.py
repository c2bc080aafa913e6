"""matrix-rf Figure 3b: Car accuracy vs the number of inference queries b (ε = 2, h = 4, τ = 16).

Usage: figure_3b.py RESULT_DIR   (reads RESULT_DIR/results.csv, writes figure-3b.pdf/.png there)
Each point averages, per repetition, the ⌈1728/b⌉ independent releases of b queries (query_batch).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mrf_plots  # noqa: E402

result_dir = sys.argv[1] if len(sys.argv) > 1 else "results/matrix-rf/figure-3b"
rows = mrf_plots.common.load_rows(result_dir)
mrf_plots.draw_panels(rows, "query_batch", [("car", "Car (ε = 2, h = 4, τ = 16), trained on all rows", None)],
                      result_dir, "figure-3b", "Figure 3b: accuracy vs number of queries", "number of queries b", ncols=1)
