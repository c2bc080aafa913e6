"""matrix-rf Appendix Figure 1: Car accuracy vs depth h (ε = 2, τ = 128).

Usage: figure_a1.py RESULT_DIR   (reads RESULT_DIR/results.csv, writes figure-a1.pdf/.png there)
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mrf_plots  # noqa: E402

result_dir = sys.argv[1] if len(sys.argv) > 1 else "results/matrix-rf/figure-a1"
rows = mrf_plots.common.load_rows(result_dir)
mrf_plots.draw_panels(rows, "max_depth", [("car", "Car (ε = 2, τ = 128)", None)], result_dir, "figure-a1",
                      "Appendix Figure 1: accuracy vs depth", "depth h", log_x=False, ncols=1)
