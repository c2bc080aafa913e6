"""[v1] Figure 5: Appliances MSE of DiPriMe (on all rows (part = False)), RF, ERT, Median trees and DP-ERT against
d_max, N_T and ε; the Lebesgue-median and strict DiPriMe are comparison series (regression_sweep.py).
Usage: figure_5.py RESULT_DIR   (reads RESULT_DIR/results.csv, writes figure-5.pdf/.png there)"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import regression_sweep  # noqa: E402

result_dir = sys.argv[1] if len(sys.argv) > 1 else "results/dipreme-v1/figure-5"
regression_sweep.draw(result_dir, "figure-5", "on all rows (part = False)")
