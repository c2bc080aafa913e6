"""dipreme Figure 7: DiPriMeExp test MSE heatmaps on Appliances ((a) epsilon x rho, (b) K x N_T, partitioned;
(c), (d) not partitioned), drawn by heatmaps.draw; the bottom row is the strict (epsilon-DP) variant.
Usage: figure_7.py RESULT_DIR   (reads RESULT_DIR/results.csv, writes figure-7.pdf/.png there)
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import heatmaps  # noqa: E402

heatmaps.draw(sys.argv[1] if len(sys.argv) > 1 else "results/dipreme/figure-7", "figure-7", "DiPriMeExp")
