"""dipreme Figure 6: Figure 2 without partitioning — Banknote accuracy vs epsilon, every DiPriMe*
tree fitted on all training rows with epsilon / N_T (d_max = 5, N_T = 10, rho = 0.5); series and
panels as described in banknote_sweep.py.
Usage: figure_6.py RESULT_DIR   (reads RESULT_DIR/results.csv, writes figure-6.pdf/.png there)
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import banknote_sweep  # noqa: E402

banknote_sweep.draw(sys.argv[1] if len(sys.argv) > 1 else "results/dipreme/figure-6", "figure-6",
                    "Banknote, DiPriMe* not partitioned (all rows, epsilon / N_T per tree), d_max = 5, N_T = 10, "
                    "rho = 0.5, K = 4")
