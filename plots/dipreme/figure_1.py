"""dipreme Figure 1: Appliances MSE vs d_max, N_T and epsilon, DiPriMe* trees on disjoint chunks.

Drawn by regression_sweeps.draw (panels, series and the as-run / as-described rows are described there).
Usage: figure_1.py RESULT_DIR   (reads RESULT_DIR/results.csv, writes figure-1.pdf/.png there)
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import regression_sweeps  # noqa: E402

regression_sweeps.draw(sys.argv[1] if len(sys.argv) > 1 else "results/dipreme/figure-1", "figure-1", partitioned=True)
