"""matrix-rf Figure 3a: Car accuracy vs the number of trees τ (ε = 2, h = 4).

Usage: figure_3.py RESULT_DIR   (reads RESULT_DIR/results.csv, writes figure-3.pdf/.png there)
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mrf_plots  # noqa: E402

result_dir = sys.argv[1] if len(sys.argv) > 1 else "results/matrix-rf/figure-3"
rows = mrf_plots.common.load_rows(result_dir)
mrf_plots.draw_panels(rows, "n_trees", [("car", "Car (ε = 2, h = 4)", None)], result_dir, "figure-3",
                      "Figure 3a: accuracy vs number of trees", "number of trees τ", ncols=1)
