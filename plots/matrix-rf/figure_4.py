"""matrix-rf Figure 4 / Appendix Figure 3: subsample-and-aggregate accuracy vs ε (τ = 16).

Usage: figure_4.py RESULT_DIR   (reads RESULT_DIR/results.csv, writes figure-4.pdf/.png there)
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mrf_plots  # noqa: E402

result_dir = sys.argv[1] if len(sys.argv) > 1 else "results/matrix-rf/figure-4"
rows = mrf_plots.common.load_rows(result_dir)
panels = [("car", "Car (h=3, τ=16)", None), ("iris", "Iris (h=2, τ=16)", None),
          ("balance-scale", "Balance (h=2, τ=16)", None)]
mrf_plots.draw_panels(rows, "epsilon", panels, result_dir, "figure-4", "Figure 4 / App. Fig. 3: subsample-and-aggregate", "ε")
