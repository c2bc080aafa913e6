"""matrix-rf Appendix Figure 4: Car subsample-and-aggregate vs the number of queries b (ε = 2, h = 4, τ = 16).

Usage: figure_a4.py RESULT_DIR   (reads RESULT_DIR/results.csv, writes figure-a4.pdf/.png there)
Each point averages, per repetition, the ⌈1728/b⌉ independent releases of b queries (query_batch).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mrf_plots  # noqa: E402

result_dir = sys.argv[1] if len(sys.argv) > 1 else "results/matrix-rf/figure-a4"
rows = mrf_plots.common.load_rows(result_dir)
mrf_plots.draw_panels(rows, "query_batch", [("car", "Car (ε = 2, h = 4, τ = 16), trained on all rows", None)],
                      result_dir, "figure-a4", "Appendix Figure 4: subsample-and-aggregate vs number of queries",
                      "number of queries b", ncols=1)
