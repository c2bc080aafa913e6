"""dipreme Figure 5: Appliances MSE vs d_max, N_T and epsilon, DiPriMe* trees on all rows (part = False).

Drawn by regression_sweeps.draw (panels, series and the as-run / as-described rows are described there).
Usage: figure_5.py RESULT_DIR   (reads RESULT_DIR/results.csv, writes figure-5.pdf/.png there)
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import regression_sweeps  # noqa: E402

regression_sweeps.draw(sys.argv[1] if len(sys.argv) > 1 else "results/dipreme/figure-5", "figure-5", partitioned=False)
