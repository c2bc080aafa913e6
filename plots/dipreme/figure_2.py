"""dipreme Figure 2: accuracy on Banknote vs epsilon (d_max = 5, N_T = 10, rho = 0.5); series and
panels as described in banknote_sweep.py.
Usage: figure_2.py RESULT_DIR   (reads RESULT_DIR/results.csv, writes figure-2.pdf/.png there)
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import banknote_sweep  # noqa: E402

banknote_sweep.draw(sys.argv[1] if len(sys.argv) > 1 else "results/dipreme/figure-2", "figure-2",
                    "Banknote, d_max = 5, N_T = 10, rho = 0.5, K = 4")
